/* global window, MutationObserver -- the functions handed to page.evaluate run in the page */
// profile-views.mjs: where a move's time goes, view by view, with every view of the playground
// drawn (web/bench/hooks.ts mountViews): each registered view's render and diff (Preact's option
// hooks around DrawnView), its commit callbacks (layout effects), its DOM mutation records, and
// Chromium's layout and style counters; with --cpu, the hottest functions of a sampled CPU profile;
// with --alloc, the functions that allocate most a move (V8's sampling heap profiler, counting
// objects the young and old collections took too: a move's garbage is what we are after).
// big: the 1 TiB machine from traces/captured/zoneinfo-1tib.txt (as npm run bench -- --big);
// bench1t: the same size all free. An unminified build, so the profile names our functions.
// Timings rise with the machine's load: the load is printed beside them; the counts do not.
//
//   node scripts/bench/profile-views.mjs [--machine big|bench1t|server2] [--kind back|forward|seek]
//                                        [--moves N] [--cpu] [--alloc]
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rmSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { CHROMIUM } from '../chromium.mjs';
import { bigZoneinfo, build, serve } from './browser-bench.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
if (argv.includes('--help')) {
  console.log(
    'node scripts/bench/profile-views.mjs [--machine big|bench1t|server2] [--kind back|forward|seek] [--moves N] [--cpu] [--alloc]',
  );
  process.exit(0);
}
const arg = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
const machine = arg('--machine', 'big');
const kind = arg('--kind', 'back');
const moves = Number(arg('--moves', '30'));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

const dir = build(root, { VITE_TEST_API: '1' }, ['--minify', 'false']);
const server = await serve(dir);
const browser = await chromium.launch(CHROMIUM);
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(`${server.url}#/playground`);
  await page.waitForFunction(() => !!window.__buddyscope, null, { timeout: 60_000 });
  await page.evaluate(
    async ({ machine, zoneinfo }) => {
      const b = await window.__buddyscope.bench();
      const m =
        machine === 'server2'
          ? await b.mountViews(b.server2Workload())
          : await b.mountViews(
              b.BIG_WORKLOAD,
              1000,
              machine === 'big' ? b.machineFromZoneinfo(zoneinfo) : null,
            );
      window.__views = m;
      // Per view: DrawnView's diff (render, children, DOM) and each component's commit callbacks,
      // through Preact's option hooks (__b: before a diff, diffed: after it, __c: the commit).
      const o = b.preactOptions;
      const per = {};
      const slot = (n) => (per[n] ??= { diff: 0, commit: 0, mutations: 0, vnodes: 0 });
      const viewOf = (v) => {
        for (; v; v = v.__) if (v.type?.name === 'DrawnView') return v.props.name;
        return '(outside the views)';
      };
      const started = new Map();
      const [before, diffed, commit, vnode] = [o.__b, o.diffed, o.__c, o.vnode];
      // the view being diffed, for the vnodes its components create (each one is garbage a move)
      let current = null;
      o.vnode = (v) => {
        if (current) slot(current).vnodes++;
        vnode?.(v);
      };
      o.__b = (v) => {
        if (v.type?.name === 'DrawnView') {
          started.set(v, performance.now());
          current = v.props.name;
        }
        before?.(v);
      };
      o.diffed = (v) => {
        diffed?.(v);
        const t = started.get(v);
        if (t === undefined) return;
        slot(v.props.name).diff += performance.now() - t;
        started.delete(v);
        current = null;
      };
      o.__c = (vnode, queue) => {
        for (const c of queue) {
          const t = performance.now();
          commit?.(vnode, [c]);
          slot(viewOf(c.__v)).commit += performance.now() - t;
        }
      };
      new MutationObserver((records) => {
        for (const r of records) {
          const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
          const name = el?.closest('[data-profile-view]')?.getAttribute('data-profile-view');
          slot(name ?? '(outside the views)').mutations++;
        }
      }).observe(m.host, { subtree: true, childList: true, attributes: true, characterData: true });
      // each view's root element named for the mutation records: Preact's tree from the host
      // (__k: a vnode's children, __e: its first DOM node)
      const name = (v) => {
        if (!v) return;
        if (v.type?.name === 'DrawnView' && v.__e?.setAttribute)
          v.__e.setAttribute('data-profile-view', v.props.name);
        for (const c of v.__k ?? []) name(c);
      };
      name(m.host.__k);
      window.__per = per;
    },
    {
      machine,
      zoneinfo: machine === 'big' ? bigZoneinfo(root) : null,
    },
  );
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () =>
    Object.fromEntries(
      (await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]),
    );
  if (argv.includes('--cpu')) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
  }
  if (argv.includes('--alloc'))
    await cdp.send('HeapProfiler.startSampling', {
      samplingInterval: 512,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  const loadBefore = load();
  await page.evaluate(() => {
    for (const k of Object.keys(window.__per)) delete window.__per[k];
  });
  const m0 = await metrics();
  const times = await page.evaluate(
    ({ kind, moves }) => {
      const m = window.__views;
      const p = m.session.player;
      let x = 12345;
      const next = () => {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        return (x >>> 0) / 2 ** 32;
      };
      const move =
        kind === 'back'
          ? () => p.stepOp(-1)
          : kind === 'forward'
            ? () => p.stepOp(1)
            : () => p.seekOp(1 + Math.floor(next() * p.length));
      if (kind === 'forward') p.seekOp(Math.floor(p.length / 2));
      return Array.from({ length: moves }, () => m.draw(move));
    },
    { kind, moves },
  );
  const m1 = await metrics();
  await new Promise((r) => setTimeout(r, 50)); // the last mutation records
  const per = await page.evaluate(() => window.__per);
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? 0;
  const d = (k) => (m1[k] - m0[k]) / moves;
  console.log(
    `${machine}, ${moves} moves (${kind}), every view drawn; load ${loadBefore} before, ${load()} after`,
  );
  console.log(
    `  a move: median ${median(times.map((t) => t.total)).toFixed(2)} ms, of which the views ${median(times.map((t) => t.views)).toFixed(2)} ms`,
  );
  console.log(
    `  a move: ${d('LayoutCount').toFixed(2)} layouts (${(d('LayoutDuration') * 1000).toFixed(2)} ms), ${d('RecalcStyleCount').toFixed(2)} style recalcs (${(d('RecalcStyleDuration') * 1000).toFixed(2)} ms)`,
  );
  console.log(
    '  per view, a move: diff (render and DOM), commit (layout effects), DOM mutations, vnodes created',
  );
  for (const [name, v] of Object.entries(per).sort(
    (a, b) => b[1].diff + b[1].commit - a[1].diff - a[1].commit,
  ))
    console.log(
      `    ${name.padEnd(22)} ${(v.diff / moves).toFixed(2).padStart(6)} ms ${(v.commit / moves).toFixed(2).padStart(6)} ms ${(v.mutations / moves).toFixed(1).padStart(7)} ${(v.vnodes / moves).toFixed(0).padStart(6)}`,
    );
  if (argv.includes('--cpu')) {
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const f = byId.get(id).callFrame;
      const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
      self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
    });
    console.log('  the CPU profile, self time a move:');
    for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20))
      console.log(`    ${(v / moves).toFixed(2).padStart(6)} ms  ${k}`);
  }
  if (argv.includes('--alloc')) {
    const { profile } = await cdp.send('HeapProfiler.stopSampling');
    const self = new Map();
    let total = 0;
    // a built-in (no script) is named with the function that called it
    const name = (f) =>
      `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    const walk = (n, caller = '') => {
      const f = n.callFrame;
      const key = f.url ? name(f) : `${f.functionName} from ${caller}`;
      self.set(key, (self.get(key) ?? 0) + n.selfSize);
      total += n.selfSize;
      for (const c of n.children) walk(c, f.url ? name(f) : caller);
    };
    walk(profile.head);
    const kib = (b) => (b / moves / 1024).toFixed(1).padStart(7);
    console.log(`  allocated a move (sampled): ${kib(total)} KiB; by function:`);
    for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
      console.log(`    ${kib(v)} KiB  ${k}`);
  }
} finally {
  await browser.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
