// npm run bench: speed and size, side by side in one run. Not a test: it prints figures against
// the goals and never fails on them, because timings on a shared 2-core machine are noisy.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { coreBench } from './bench/core-bench.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;

/** A fixed-width table row. */
function row(cells, widths) {
  return cells.map((c, i) => String(c).padStart(widths[i])).join('  ');
}

execFileSync('make', ['-s', '-C', join(root, 'wasm-core'), 'native', 'wasm'], { stdio: 'inherit' });

const rate = (r, key) => r[key] / r.seconds;
const widths = [34, 14, 14, 10];

/** Print one core benchmark side by side. */
function printCore(title, { native, wasm }, stateGoal) {
  console.log(`\n${title}`);
  console.log(row(['', 'native', 'wasm', 'goal'], widths));
  console.log(row(['ops/s', rate(native, 'ops').toFixed(0), rate(wasm, 'ops').toFixed(0), ''], widths));
  console.log(row(['events/s', rate(native, 'events').toFixed(0), rate(wasm, 'events').toFixed(0), '>= 20M'], widths));
  console.log(row(['wasm / native (ops/s)', '', (rate(wasm, 'ops') / rate(native, 'ops')).toFixed(2) + 'x', '>= 0.8x'], widths));
  console.log(row(['state (MiB)', (native.state_bytes / MiB).toFixed(1), (wasm.state_bytes / MiB).toFixed(1), stateGoal], widths));
  console.log(row(['events per run (determinism)', native.events, wasm.events, 'equal'], widths));
}

printCore(
  'Core: seeded random alloc/free, orders 0..3, 2 CPUs, 1M-page machine, events on',
  await coreBench(root, { preset: 'bench1m', cpus: 2, steps: 2_000_000, capacity: 100_000, maxOrder: 3 }),
  '<= 32',
);
printCore(
  'Core, many CPUs: 8 CPUs interleaved on the 16 GiB laptop machine, orders 0..3, events on',
  await coreBench(root, { preset: 'laptop', cpus: 8, steps: 2_000_000, capacity: 25_000, maxOrder: 3 }),
  '',
);
