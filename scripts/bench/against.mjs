// The core benchmark against another revision: REV's native runner and wasm module, built in a
// temporary git worktree, timed in the same rounds as this tree's. On a shared machine the load
// moves between two bench runs by more than a change's effect on the wasm/native ratio; in one
// round the four runs are a few seconds apart, so the load mostly hits all of them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadWasm, randomStreamOps, runNative, runWasm } from './core-bench.mjs';

/**
 * REV checked out in a temporary worktree and its native runner and wasm module built there; returns
 * the worktree's directory and a function that removes it. The build uses REV's own Makefile.
 */
export function buildRevision(root, rev) {
  const dir = mkdtempSync(join(tmpdir(), 'buddyscope-against-'));
  const tree = join(dir, 'tree');
  try {
    execFileSync('git', ['-C', root, 'worktree', 'add', '--detach', tree, rev], { stdio: 'pipe' });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`bench: no worktree of ${rev}: ${e.stderr?.toString().trim()}`);
  }
  const remove = () => {
    execFileSync('git', ['-C', root, 'worktree', 'remove', '--force', tree], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    execFileSync('make', ['-s', '-C', join(tree, 'wasm-core'), 'native', 'wasm'], {
      stdio: 'inherit',
    });
  } catch (e) {
    remove();
    throw e;
  }
  return { tree, remove };
}

/**
 * One random alloc/free workload (the core bench's first and many-CPU rows) timed on both trees:
 * RUNS rounds of four runs (this tree's native and wasm, REV's native and wasm), the two trees'
 * order swapped every round. Each side runs through its own tree's core-bench.mjs, so REV's runner
 * gets the arguments it knows. Returns each tree's per-round wasm/native speed ratios (native
 * seconds over wasm seconds, as coreBench) and events per run, and the per-round quotient of the
 * two ratios (this tree's over REV's: below 1, wasm lost ground against native).
 */
export async function againstBench(root, other, { preset, cpus, steps, capacity, maxOrder }) {
  const ops = randomStreamOps({ steps, capacity, freePercent: 50, maxOrder, cpus, seed: 42 });
  const dir = mkdtempSync(join(tmpdir(), 'buddyscope-bench-'));
  const opsFile = join(dir, 'ops.bin');
  writeFileSync(opsFile, ops);
  const handles = cpus * (capacity + 1);
  const RUNS = 15;
  const otherBench = await import(join(other, 'scripts/bench/core-bench.mjs'));
  const sides = [
    { bench: { runNative, runWasm }, root, m: await loadWasm(root) },
    { bench: otherBench, root: other, m: await otherBench.loadWasm(other) },
  ];
  try {
    // one untimed wasm run of each first: V8 tiers hot functions up while they run
    for (const s of sides) s.bench.runWasm(s.m, preset, ops, handles);
    const ratios = [[], []];
    const events = [null, null];
    for (let i = 0; i < RUNS; i++) {
      for (const k of i % 2 ? [1, 0] : [0, 1]) {
        const { bench, root: r, m } = sides[k];
        const n = bench.runNative(r, preset, opsFile, handles);
        const w = bench.runWasm(m, preset, ops, handles);
        ratios[k].push(n.seconds / w.seconds);
        events[k] = { native: n.events, wasm: w.events };
      }
    }
    const quotients = ratios[0].map((x, i) => x / ratios[1][i]);
    return { runs: RUNS, ratios, events, quotients };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The median and range of some figures. */
export function spread(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1], low: sorted[0], high: sorted.at(-1) };
}
