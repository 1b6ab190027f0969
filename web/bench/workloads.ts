/**
 * workloads.ts: the workloads the benchmarks share between the browser (hooks.ts) and Node
 * (scripts/bench/state-bench.ts), as workload-language text.
 */

/** Every CPU of the two-node server allocating and freeing, so all 64 per-CPU panels hold pages. */
export function server2Workload(): string {
  const lines = ['machine server2', 'seed 5'];
  for (let cpu = 0; cpu < 16; cpu++)
    lines.push(`cpu ${cpu} random 300 max_order=3 free=40 GFP_KERNEL`);
  return lines.join('\n') + '\n';
}

/**
 * The 1 TiB machine (bench1t, 268M frames in one Normal zone) with two CPUs allocating and
 * freeing: the big-machine rows of the bench (issue 18), 40,000 ops.
 */
export const BIG_WORKLOAD =
  'machine bench1t\nseed 9\ncpu 0 random 20000 max_order=3 free=45 GFP_KERNEL\ncpu 1 random 20000 max_order=2 free=50 GFP_HIGHUSER_MOVABLE\n';
