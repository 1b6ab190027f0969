// Instructions, not seconds: the core benchmark's ops counted by valgrind (callgrind) natively and
// in wasm under Node. Counts do not move with the load on a shared machine, so they show the
// wasm/native gap that timings blur. Each side runs twice in fresh processes, all the ops and only
// the first one (the seed); the difference is what the ops cost, without start-up, module
// compilation or building the machine. Run as a child with --wasm-run it is the wasm driver.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadWasm, OP_BYTES, randomStreamOps, runWasm } from './core-bench.mjs';

/** Whether valgrind is installed. */
export function haveValgrind() {
  return spawnSync('valgrind', ['--version']).status === 0;
}

/** Instructions callgrind counts for one command. */
function callgrind(cmd, args) {
  const r = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      '--smc-check=all-non-file',
      cmd,
      ...args,
    ],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const m = /refs:\s+([\d,]+)/.exec(r.stderr ?? '');
  if (r.status !== 0 || !m) throw new Error(`valgrind ${cmd} failed: ${r.stderr?.slice(-400)}`);
  return Number(m[1].replaceAll(',', ''));
}

/**
 * Instructions per op of one workload, natively and in wasm. Node compiles every wasm function
 * up front with the optimising tier (as a warmed-up run has them), so compiling is the same work
 * in both of the wasm side's runs and cancels out; V8 runs predictably (no background threads, fixed
 * seeds), so the rest of its start-up does too.
 */
export function instructionBench(root, { preset, cpus, steps, capacity, maxOrder }) {
  const ops = randomStreamOps({ steps, capacity, freePercent: 50, maxOrder, cpus, seed: 42 });
  const handles = String(cpus * (capacity + 1));
  const dir = mkdtempSync(join(tmpdir(), 'buddyscope-icount-'));
  try {
    const all = join(dir, 'all.bin');
    const first = join(dir, 'first.bin');
    writeFileSync(all, ops);
    writeFileSync(first, ops.subarray(0, OP_BYTES));
    // the native runner reads its file with read(2), which callgrind does not count
    const native = (file) =>
      callgrind(join(root, 'wasm-core/build/sim-native'), [preset, file, '--handles', handles]);
    const self = fileURLToPath(import.meta.url);
    // the wasm side copies all the ops into the heap both times and runs `count` of them
    const wasm = (count) =>
      callgrind(process.execPath, [
        '--no-liftoff',
        '--no-wasm-lazy-compilation',
        '--single-threaded',
        // V8's own randomness (hash seeds, heap layout, GC timing) moved the wasm difference by
        // about 4% between runs (bench1m: 874..913 per op); with these it repeats within 0.3%
        '--predictable',
        '--random-seed=1',
        '--hash-seed=1',
        self,
        '--wasm-run',
        root,
        preset,
        all,
        handles,
        String(count),
      ]);
    const n = native(all) - native(first);
    const w = wasm(steps + 1) - wasm(1);
    return { ops: steps, native: n / steps, wasm: w / steps };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// the child: build the machine and run the ops file once in the wasm module
if (process.argv[2] === '--wasm-run') {
  const [root, preset, file, handles, count] = process.argv.slice(3);
  const m = await loadWasm(root);
  runWasm(m, preset, readFileSync(file), Number(handles), Number(count));
}
