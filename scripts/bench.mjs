// npm run bench: speed and size, side by side in one run. Not a test: it prints figures against
// the goals and never fails on them, because timings on a shared 2-core machine are noisy.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureSetup } from './ensure-setup.mjs';

// npm packages, Emscripten and Chromium (the browser rows), installed if missing; before the
// imports below, which need them
ensureSetup(['--browser'], true);
const { bigBench, browserBench, firstLoadBench, longLoadBench } =
  await import('./bench/browser-bench.mjs');
const { againstBench, buildRevision, spread } = await import('./bench/against.mjs');
const { coreBench } = await import('./bench/core-bench.mjs');
const { haveValgrind, instructionBench } = await import('./bench/instruction-count.mjs');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;

/** A fixed-width table row. */
function row(cells, widths) {
  return cells.map((c, i) => String(c).padStart(widths[i])).join('  ');
}

/** The row for loading the 2M-op workload in the playground (scripts/bench/browser-bench.mjs). */
function printLongLoad(load, widths) {
  const longest = load.tasks.length ? Math.max(...load.tasks) : 0;
  console.log(
    row(
      [
        `loading ${load.ops / 1e6}M ops (${(load.events / 1e6).toFixed(1)}M events), bench1m`,
        `${(load.ms / 1000).toFixed(1)} s`,
        `${load.tasks.length} long tasks`,
        `longest ${longest.toFixed(0)} ms`,
        `${(load.memory.bytes / MiB).toFixed(0)} MiB (${load.memory.how})`,
      ],
      widths,
    ),
  );
  console.log(row(['  goal', '', '', '< 200 ms', ''], widths));
  const worst = [...load.frames].sort((x, y) => y.duration - x.duration)[0];
  if (worst) {
    const scripts = [...worst.scripts]
      .sort((x, y) => y.duration - x.duration)
      .slice(0, 3)
      .map((x) => `${x.name} ${x.duration.toFixed(0)} ms`);
    console.log(`  longest frame ${worst.duration.toFixed(0)} ms: ${scripts.join('; ')}`);
  }
}

/**
 * The first load of the home page (scripts/bench/browser-bench.mjs firstLoad): every JS, CSS and
 * wasm file it fetched, gzipped, against the 200 KiB goal (issue 14).
 */
function printFirstLoad(files, widths) {
  const KiB = 1024;
  const total = files.reduce((n, f) => n + f.gzip, 0);
  console.log(
    row(
      [
        'first load (home): JS + CSS + wasm, gzip',
        `${(total / KiB).toFixed(1)} KiB`,
        '',
        '',
        '<= 200 KiB',
      ],
      widths,
    ),
  );
  for (const f of files)
    console.log(
      row(
        [
          `  ${f.name}`,
          `${(f.gzip / KiB).toFixed(1)} KiB`,
          `(${(f.raw / KiB).toFixed(0)} raw)`,
          '',
          '',
        ],
        widths,
      ),
    );
}

// The options, and a refusal of any other: a mistyped flag used to run the whole bench (minutes).
const USAGE = `npm run bench [-- OPTION...]: speed and size, side by side in one run

  (none)          the core rows, the state rows and the browser rows
  --core          the core rows alone (no site build, no browser)
  --instructions  add instructions per op under callgrind (about two minutes; needs valgrind)
  --against REV   the random alloc/free core rows alone, timed against REV's native runner and
                  wasm module (built in a temporary git worktree) in the same rounds
  --state         the state rows alone: bytes per managed page, snapshot and restore sizes
  --first-load    the home page's first load alone: JS + CSS + wasm, gzip
  --long-load     loading the 2M-op workload in the playground alone
  --big           the 1 TiB machine's browser rows alone (player, map overview, every view)
  --help          this text`;
const OPTIONS = [
  '--core',
  '--instructions',
  '--against',
  '--state',
  '--first-load',
  '--long-load',
  '--big',
];
// --against takes a revision, the word after it
const againstAt = process.argv.indexOf('--against');
const against = againstAt < 0 ? null : process.argv[againstAt + 1];
if (againstAt >= 0 && (!against || against.startsWith('-'))) {
  console.error(`bench: --against needs a revision\n\n${USAGE}`);
  process.exit(2);
}
const unknown = process.argv
  .slice(2)
  .filter((a, i) => !OPTIONS.includes(a) && !(againstAt >= 0 && i + 2 === againstAt + 1));
if (unknown.includes('--help') || unknown.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
if (unknown.length > 0) {
  console.error(`bench: unknown option ${unknown.join(' ')}\n\n${USAGE}`);
  process.exit(2);
}

// `npm run bench -- --first-load`: only the first load's files (builds the wasm and the site).
if (process.argv.includes('--first-load')) {
  execFileSync('make', ['-s', '-C', join(root, 'wasm-core'), 'wasm'], { stdio: 'inherit' });
  console.log('\nBrowser: the first load of the home page, every file gzipped');
  printFirstLoad(await firstLoadBench(root), [44, 12, 12, 12, 22]);
  process.exit(0);
}

const ms = (x) => `${x.toFixed(x < 1 ? 2 : 1)} ms`;
const bw = [44, 12, 12, 12, 10, 30];

/**
 * Whether a timing keeps its budget ("<= N ms"), in plain words: pass when its p95 does (a frame's
 * budget holds for nearly every frame), "median only" when only its median does, else FAIL. Timings
 * on a shared machine rise with its load: the bench prints the load beside them.
 */
function verdict(t, goal) {
  const m = /^<= ([\d.]+) ms$/.exec(goal);
  if (!m) return '';
  const budget = Number(m[1]);
  if (t.p95 <= budget) return 'pass';
  if (t.median <= budget) return 'pass at median, FAIL at p95';
  return 'FAIL';
}

/** One timing row: label, median / p95 / max of t, goal, verdict. */
const timing = (label, t, goal) =>
  console.log(row([label, ms(t.median), ms(t.p95), ms(t.max), goal, verdict(t, goal)], bw));

/** The machine's load averages (1, 5, 15 minutes) now, for the timings printed after them. */
function load() {
  const [a, b, c] = loadavg();
  return `load average ${a.toFixed(2)}, ${b.toFixed(2)}, ${c.toFixed(2)} on ${cpus().length} cores`;
}

/**
 * Issue 18's rows: the 1 TiB machine in the browser (scripts/bench/browser-bench.mjs big): the
 * player, the memory map's overview redraws and every view after a move, against the same
 * budgets as the 1M-frame rows.
 */
function printBig(big) {
  const s = big.seek;
  const v = big.views;
  console.log(
    `1 TiB machine (traces/captured/zoneinfo-1tib.txt in its captured state, ${(v.frames / MiB).toFixed(0)}M pages; ${s.ops} ops, ${(s.events / 1e6).toFixed(2)}M events; ${s.checkpoints.count} checkpoints of ${(s.checkpoints.bytes / s.checkpoints.count / MiB).toFixed(1)} MiB, every ${s.checkpoints.spacing} ops, ${(s.checkpoints.bytes / MiB).toFixed(0)} MiB):`,
  );
  console.log('  player, state read included:');
  timing('    seek to a random op', s.seek, '<= 16 ms');
  timing('    scrub to a random event', s.scrub, '<= 16 ms');
  timing('    step back one op', s.stepOpBack, '<= 16 ms');
  timing('    step back one event (across an op)', s.stepEventBack, '<= 16 ms');
  timing('    step forward one op', s.stepForward, '<= 16 ms');
  const m = big.map;
  console.log(
    `  memory map redraw (${m.mode}, canvas ${m.canvas.width}x${m.canvas.height}), after the move:`,
  );
  timing('    one op forward', m.step, '<= 8 ms');
  timing('    one op back', m.stepBack, '<= 8 ms');
  timing(`    a seek ${m.seekOps} ops back`, m.seek, '<= 8 ms');
  timing('    every cell (light and dark in turn)', m.full, '<= 8 ms');
  console.log(
    `  every view drawn (${v.panels} per-CPU panels; those in the 1400x1000 window laid out, the rest kept up to date), the move and the page's layout included (${perMove(v)}):`,
  );
  timing('    one op back', v.back.total, '<= 16 ms');
  timing(`      of which the views (${mutations(v.back)})`, v.back.views, '');
  timing('    one op forward', v.forward.total, '<= 16 ms');
  timing(`      of which the views (${mutations(v.forward)})`, v.forward.views, '');
  timing('    seek to a random op', v.seek.total, '<= 16 ms');
  timing(`      of which the views (${mutations(v.seek)})`, v.seek.views, '');
}

/** The DOM mutation records of a kind of move, on average (a count, not a timing). */
const mutations = (m) => `${m.mutations.toFixed(0)} DOM mutations`;

/** Layouts and style recalculations per move with every view drawn (counts, not timings). */
function perMove(v) {
  const n = v.counts.moves;
  return `${(v.counts.layouts / n).toFixed(2)} layouts and ${(v.counts.styles / n).toFixed(2)} style recalcs a move`;
}

// `npm run bench -- --big`: only the 1 TiB machine in the browser (builds the wasm and the site).
if (process.argv.includes('--big')) {
  execFileSync('make', ['-s', '-C', join(root, 'wasm-core'), 'wasm'], { stdio: 'inherit' });
  const big = await bigBench(root);
  console.log(
    `\nBrowser: the 1 TiB machine (timings: median / p95 / max; ${big.load.before} before, ${load()} after)`,
  );
  console.log(row(['', 'median', 'p95', 'max', 'goal', 'verdict'], bw));
  printBig(big);
  process.exit(0);
}

// `npm run bench -- --long-load`: only the long load in the browser (no core build or benches).
if (process.argv.includes('--long-load')) {
  console.log('\nBrowser: loading a long workload in the playground (time, long tasks, memory)');
  printLongLoad(await longLoadBench(root), [44, 10, 16, 16, 40]);
  process.exit(0);
}

execFileSync('make', ['-s', '-C', join(root, 'wasm-core'), 'native', 'wasm'], { stdio: 'inherit' });

const MiBs = (bytes) => (bytes / MiB).toFixed(2);

/**
 * Issue 18: what a machine's state costs per managed page (the arena reserved, and a snapshot: the
 * fixed state and the frame slabs in use), and a restore on server2 next to the whole-arena copy a
 * checkpoint took before frames were materialised on demand, in one run. The real Sim, through tsx.
 */
async function printState() {
  const { register } = await import('tsx/esm/api');
  register();
  const { stateBench } = await import('./bench/state-bench.ts');
  const st = await stateBench();
  const w = [60, 16, 16, 10];
  console.log('\nState per managed page, after 2 CPUs x 20k random ops of orders 0..3');
  console.log(row(['', 'arena', 'snapshot', 'goal'], w));
  for (const p of st.perPage)
    console.log(
      row(
        [
          `${p.preset}, ${p.managed} pages`,
          `${(p.arenaBytes / p.managed).toFixed(3)} B`,
          `${(p.liveBytes / p.managed).toFixed(3)} B`,
          '',
        ],
        w,
      ),
    );
  const r = st.restore;
  console.log('\nserver2: one restore of its state after the server2 workload (median of 101)');
  console.log(row(['', 'ms', 'MiB copied', 'goal'], w));
  console.log(
    row(
      ['whole arena up to the events (as before)', r.wholeMs.toFixed(3), MiBs(r.wholeBytes), ''],
      w,
    ),
  );
  console.log(
    row(
      [
        'fixed state + slabs in use (now)',
        r.snapshotMs.toFixed(3),
        MiBs(r.snapshotBytes),
        `${(r.wholeMs / r.snapshotMs).toFixed(1)}x >= 4x`,
      ],
      w,
    ),
  );
}

// `npm run bench -- --state`: only the state rows (bytes per page, the server2 restore).
if (process.argv.includes('--state')) {
  await printState();
  process.exit(0);
}

const rate = (r, key) => r[key] / r.seconds;
const widths = [34, 14, 14, 10];
// The random alloc/free rows (the core bench's first and many-CPU ones) that --instructions counts
// and --against times, by label.
const RANDOM_ROWS = [
  ['bench1m, 2 CPUs', { preset: 'bench1m', cpus: 2, capacity: 100_000 }],
  ['laptop, 8 CPUs', { preset: 'laptop', cpus: 8, capacity: 25_000 }],
];

// `npm run bench -- --against REV`: whether a change moved the wasm/native speed ratio, measured
// side by side: this tree and REV in the same rounds, each ratio's median and the median of the
// per-round quotients (this tree's ratio over REV's), which the load mostly cancels out of.
if (against) {
  const other = buildRevision(root, against);
  const aw = [34, 18, 18, 12];
  try {
    console.log(
      `\nCore against ${against}: wasm / native speed, 15 rounds of four runs; ${load()}`,
    );
    console.log(row(['', 'this tree', against, 'this / REV'], aw));
    for (const [label, w] of RANDOM_ROWS) {
      const a = await againstBench(root, other.tree, { ...w, steps: 2_000_000, maxOrder: 3 });
      const [mine, theirs, q] = [spread(a.ratios[0]), spread(a.ratios[1]), spread(a.quotients)];
      const range = (s) => `(${s.low.toFixed(2)}..${s.high.toFixed(2)})`;
      console.log(
        row(
          [
            `${label}, median`,
            mine.median.toFixed(3) + 'x',
            theirs.median.toFixed(3) + 'x',
            q.median.toFixed(3),
          ],
          aw,
        ),
      );
      console.log(row(['  range', range(mine), range(theirs), range(q)], aw));
      // each tree's own model: equal native and wasm events within a tree, not across trees
      console.log(
        row(
          [
            '  events per run (native, wasm)',
            `${a.events[0].native}, ${a.events[0].wasm}`,
            `${a.events[1].native}, ${a.events[1].wasm}`,
            '',
          ],
          aw,
        ),
      );
    }
    console.log(`  ${load()}`);
  } finally {
    other.remove();
  }
  process.exit(0);
}

/** Print one core benchmark side by side. */
function printCore(title, { native, wasm, ratio, eventRecord, regions }, stateGoal) {
  console.log(`\n${title}`);
  console.log(row(['', 'native', 'wasm', 'goal'], widths));
  console.log(
    row(
      ['ops/s, best run', rate(native, 'ops').toFixed(0), rate(wasm, 'ops').toFixed(0), ''],
      widths,
    ),
  );
  console.log(
    row(
      [
        'events/s, best run',
        rate(native, 'events').toFixed(0),
        rate(wasm, 'events').toFixed(0),
        '>= 20M',
      ],
      widths,
    ),
  );
  console.log(
    row(
      [
        'wasm / native, best runs',
        '',
        (rate(wasm, 'ops') / rate(native, 'ops')).toFixed(2) + 'x',
        '',
      ],
      widths,
    ),
  );
  console.log(
    row(
      [
        `wasm / native, median of ${ratio.runs} pairs`,
        `(${ratio.low.toFixed(2)}..${ratio.high.toFixed(2)})`,
        ratio.median.toFixed(2) + 'x',
        '>= 0.8x',
      ],
      widths,
    ),
  );
  console.log(
    row(
      [
        'state (MiB)',
        (native.state_bytes / MiB).toFixed(1),
        (wasm.state_bytes / MiB).toFixed(1),
        stateGoal,
      ],
      widths,
    ),
  );
  // What the state is made of: its largest regions (the native runner's --layout), the rest summed.
  const parts = Object.entries(regions).sort((x, y) => y[1] - x[1]);
  const rest = parts.slice(5).reduce((n, [, bytes]) => n + bytes, 0);
  console.log(
    `  state by region, MiB: ${[...parts.slice(0, 5), ['the rest', rest]]
      .map(([name, bytes]) => `${name} ${(bytes / MiB).toFixed(2)}`)
      .join(', ')}`,
  );
  console.log(row(['events per run (determinism)', native.events, wasm.events, 'equal'], widths));
  // The emitting file and line every event carries for the Code view: its share of the record.
  console.log(
    row(
      [`event record, bytes (site: ${eventRecord.site})`, eventRecord.bytes, eventRecord.bytes, ''],
      widths,
    ),
  );
}

printCore(
  'Core: seeded random alloc/free, orders 0..3, 2 CPUs, 1M-page machine, events on',
  await coreBench(root, {
    preset: 'bench1m',
    cpus: 2,
    steps: 2_000_000,
    capacity: 100_000,
    maxOrder: 3,
  }),
  '<= 32',
);
printCore(
  'Core, reclaim-heavy: page cache reads outgrowing the 1M-page machine, 2 CPUs, events on',
  await coreBench(root, { preset: 'bench1m', cpus: 2, steps: 2_000_000, lruHandles: 1_200_000 }),
  '<= 32',
);
printCore(
  'Core, many CPUs: 8 CPUs interleaved on the 16 GiB laptop machine, orders 0..3, events on',
  await coreBench(root, {
    preset: 'laptop',
    cpus: 8,
    steps: 2_000_000,
    capacity: 25_000,
    maxOrder: 3,
  }),
  '',
);

printCore(
  'Core, percpu: 1M alloc_percpu of 16 B then 1M free_percpu in order, 6.18 bitmap, bench1m',
  await coreBench(root, { preset: 'bench1m', cpus: 2, percpu: { n: 1_000_000, size: 16 } }),
  '',
);

await printState();

// `npm run bench -- --instructions` adds instruction counts (valgrind; about two minutes).
if (process.argv.includes('--instructions')) {
  if (!haveValgrind()) console.log('\n(--instructions needs valgrind: apt-get install valgrind)');
  else {
    console.log('\nCore, instructions per op (callgrind; steady when timings are not)');
    console.log(row(['', 'native', 'wasm', 'native/wasm'], widths));
    for (const [label, w] of RANDOM_ROWS) {
      const c = instructionBench(root, { ...w, steps: 500_000, maxOrder: 3 });
      console.log(
        row(
          [label, c.native.toFixed(0), c.wasm.toFixed(0), (c.native / c.wasm).toFixed(2) + 'x'],
          widths,
        ),
      );
    }
  }
}

// `npm run bench -- --core` stops here: the core figures alone, without building the site.
if (process.argv.includes('--core')) process.exit(0);

// The browser: the production build in Debian's Chromium, the real player, views and page.
const b = await browserBench(root);
console.log(
  '\nBrowser: production build served locally, headless Chromium (timings: median / p95 / max)',
);
console.log(`(${load()})`);
console.log(row(['', 'median', 'p95', 'max', 'goal', 'verdict'], bw));
const pages = `${(b.map.frames / MiB).toFixed(0)}M pages`;
console.log(`memory map redraw, ${pages}, after the player's move:`);
timing('  one op forward (step, play)', b.map.step, '<= 8 ms');
timing('  one op back (restore, replay)', b.map.stepBack, '<= 8 ms');
timing(`  a seek ${b.map.seekOps} ops back`, b.map.seek, '<= 8 ms');
timing('  every pixel (light and dark in turn)', b.map.full, '<= 8 ms');
timing("  of which the core's class map to pixels (wasm)", b.map.paint, '');
timing('  (the TypeScript painter, same pixels)', b.map.paintTs, '');
timing('  floor: bare putImageData, same pixels', b.map.floor, '');
timing('  floor after writing every pixel once (a fill)', b.map.fillFloor, '');
/** A ratio of medians as a row. */
const ratio = (label, a, over, goal) =>
  console.log(
    row([label, (a.median / Math.max(0.01, over.median)).toFixed(1) + 'x', '', '', goal], bw),
  );
ratio('  one op forward / floor (medians)', b.map.step, b.map.floor, '<= 2x');
ratio('  one op back / floor', b.map.stepBack, b.map.floor, '<= 2x');
ratio(`  a seek ${b.map.seekOps} ops back / floor`, b.map.seek, b.map.floor, '');
ratio('  every pixel / floor', b.map.full, b.map.floor, '');
ratio('  (fill + put) / floor: any full repaint', b.map.fillFloor, b.map.floor, '');
const s = b.seek;
console.log(
  `player on a ${(s.events / 1e6).toFixed(2)}M-event history (${s.ops} ops, bench1m; ${s.checkpoints.count} checkpoints, every ${s.checkpoints.spacing} ops, ${(s.checkpoints.bytes / MiB).toFixed(0)} MiB), ${s.seek.n} of each, state read included:`,
);
timing('  seek to a random op', s.seek, '<= 16 ms');
timing('  scrub to a random event', s.scrub, '<= 16 ms');
timing('  step back one op', s.stepOpBack, '<= 16 ms');
timing('  step back one event (across an op)', s.stepEventBack, '<= 16 ms');
timing('  step forward one op', s.stepForward, '<= 16 ms');
timing(
  `server2, ${b.server2.panels} per-CPU panels: step back one op, all views drawn`,
  b.server2.stepOpBack,
  '<= 16 ms',
);
console.log(
  `  (the page's layout included: the views in the 1400x1000 window; ${perMove(b.server2)})`,
);
timing(
  `  of which the player (restores ${(b.server2.snapshotBytes / MiB).toFixed(0)} MiB, replays)`,
  b.server2.player,
  '',
);
timing('  of which the views (render, commit, effects, layout)', b.server2.views, '');
timing('  one op forward, all views drawn', b.server2.forward.total, '<= 16 ms');
timing('  seek to a random op, all views drawn', b.server2.seek.total, '<= 16 ms');
const longest = b.play.tasks.length ? Math.max(...b.play.tasks) : 0;
console.log(
  row(
    [
      `playing 5 s at 1000 ops/s (${b.play.ops} ops), long tasks`,
      String(b.play.tasks.length),
      '',
      longest ? ms(longest) : '-',
      '0 over 50 ms',
    ],
    bw,
  ),
);
// What the longest frame while playing was made of (long animation frame entries).
const worst = [...b.play.frames].sort((x, y) => y.duration - x.duration)[0];
if (worst) {
  const scripts = [...worst.scripts]
    .sort((x, y) => y.duration - x.duration)
    .slice(0, 3)
    .map(
      (x) =>
        `${x.name} ${x.duration.toFixed(0)} ms` +
        (x.forcedLayout > 1 ? ` (forced layout ${x.forcedLayout.toFixed(0)} ms)` : ''),
    );
  console.log(
    `  longest frame ${ms(worst.duration)} of ${b.play.frames.length} over 50 ms: rendering ${ms(worst.render)}; ${scripts.join('; ')}`,
  );
}
printBig(b.big);
printLongLoad(b.load, [44, 12, 12, 22, 40]);
printFirstLoad(b.files, bw);
