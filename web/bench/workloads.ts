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
