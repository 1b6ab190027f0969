/*
 * reclaim-singles.ts: which of kswapd's traced frees were not the LRU folios it reclaimed.
 *
 * kswapd frees the folios shrink_folio_list reclaims in batches (free_unref_folios: every
 * mm_page_free of the batch is traced before any of them reaches a pcp list), and
 * mm_vmscan_lru_shrink_inactive then says how many pages that call reclaimed (nr_reclaimed).
 * While it works it also frees pages that were on no LRU list: slab pages an emptied cache gives
 * back (a folio's buffer heads, the shrinkers' objects), one at a time, each reaching its pcp list
 * (and draining it, under reclaim's cap) before the next. The trace shows them as frees kswapd
 * made beyond what the call reclaimed, standing alone between other lines of kswapd's. The model's
 * reclaim frees LRU folios of its own; these pages are frees of captured memory like any other,
 * at their place in the trace (trace-import.ts).
 */
import { parseTraceLine, traceNumber } from './ftrace';

/** A trace line of kswapdN (N: the node, the first group). */
export const KSWAPD_TASK = /^\s*kswapd(\d+)-\d+\s+\[/;

/**
 * The line indexes of kswapd's non-LRU frees: per shrink_inactive_list call (the lines since the
 * previous call's mm_vmscan_lru_shrink_inactive), the single order-0 frees that stand alone
 * (kswapd's lines just before and after them are no mm_page_free), as many of them as the call
 * freed pages beyond its nr_reclaimed, in trace order. A batch of one folio looks the same, so
 * where the call freed nothing beyond what it reclaimed none is taken.
 */
export function nonLruReclaimFrees(lines: readonly string[]): Set<number> {
  const out = new Set<number>();
  // per kswapd: pages freed since its last shrink_inactive line, the frees of the run of
  // mm_page_free lines it is in, and the runs of one order-0 free so far
  const kswapds = new Map<
    number,
    { freed: number; run: { at: number; order: number }[]; alone: number[] }
  >();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!KSWAPD_TASK.test(line)) continue;
    const p = parseTraceLine(line);
    if (p.kind !== 'record') continue;
    const r = p.record;
    let k = kswapds.get(r.pid);
    if (!k) kswapds.set(r.pid, (k = { freed: 0, run: [], alone: [] }));
    if (r.event === 'mm_page_free') {
      const order = traceNumber(r.fields.get('order')) ?? 0;
      k.freed += 2 ** order;
      k.run.push({ at: i, order });
      continue;
    }
    const [sole] = k.run;
    if (k.run.length === 1 && sole?.order === 0) k.alone.push(sole.at);
    k.run = [];
    if (r.event !== 'mm_vmscan_lru_shrink_inactive') continue;
    const reclaimed = traceNumber(r.fields.get('nr_reclaimed')) ?? k.freed;
    for (const at of k.alone.slice(0, Math.max(0, k.freed - reclaimed))) out.add(at);
    k.freed = 0;
    k.alone = [];
  }
  return out;
}
