/*
 * estimate.ts: how many ops a parsed workload expands to, without expanding it (repeat counts
 * multiply; `random COUNT` is COUNT ops). Parsing is cheap and bounded by the text; expanding is
 * not: this decides whether a run may happen in place or goes to the worker and loads in slices.
 */
import type { OpStmt } from '../workload/ast';

export function estimateOps(ops: readonly OpStmt[], cap = Number.MAX_SAFE_INTEGER): number {
  let n = 0;
  for (const s of ops) {
    if (s.kind === 'repeat') n += s.count * estimateOps(s.body, cap);
    else if (s.kind === 'random') n += s.count;
    else n += 1;
    if (n >= cap) return cap;
  }
  return n;
}
