/*
 * event-fields.ts: the names lesson checks use for the kind-specific fields a, b, c of an event,
 * following the comments of enum ev_kind in wasm-core/src/base/types.h (and the tracepoint field
 * names where the kernel has one: percpu_refill, fallback_order, change_ownership, ...).
 */

/** What one of a/b/c means: a name, or a name read from some bits of it. */
interface FieldName {
  name: string;
  from: 'a' | 'b' | 'c';
  shift?: number;
  mask?: number;
}

const F = (name: string, from: 'a' | 'b' | 'c', shift?: number, mask?: number): FieldName => ({
  name,
  from,
  ...(shift === undefined ? {} : { shift }),
  ...(mask === undefined ? {} : { mask }),
});

/** enum ev_kind name -> named fields. */
export const EVENT_FIELDS: Readonly<Record<string, readonly FieldName[]>> = {
  mm_page_alloc: [F('gfp', 'a'), F('ok', 'b')],
  mm_page_free: [],
  mm_page_alloc_zone_locked: [F('percpu_refill', 'a')],
  mm_page_pcpu_drain: [],
  mm_page_alloc_extfrag: [
    F('fallback_order', 'a'),
    F('fallback_mt', 'b'),
    F('fragmenting', 'c', 0, 1),
    F('change_ownership', 'c', 1, 1),
  ],
  pcp_hit: [F('pindex', 'a'), F('count', 'b')],
  pcp_refill: [F('asked', 'a'), F('got', 'b'), F('alloc_factor', 'c')],
  pcp_free: [F('pindex', 'a'), F('count', 'b'), F('high', 'c')],
  pcp_bulk_free: [F('asked', 'a'), F('count', 'b'), F('high', 'c')],
  pcp_high: [F('old', 'a'), F('new', 'b')],
  buddy_split: [],
  buddy_merge: [F('buddy', 'a')],
  buddy_enqueue: [F('tail', 'a')],
  watermark_check: [F('free', 'a'), F('mark', 'b'), F('pass', 'c')],
  zone_fallback: [F('reason', 'a')],
  pageblock_claim: [F('found', 'a'), F('old_mt', 'b'), F('claimed', 'c')],
  highatomic_reserve: [F('reserved', 'a')],
  highatomic_unreserve: [F('reserved', 'a')],
  watermark_boost: [F('old', 'a'), F('new', 'b')],
  kswapd_wake: [],
  drain: [F('drained', 'a')],
  vmstat_tick: [],
  cpu_hotplug: [F('online', 'a')],
  zone_lock: [F('wait_ns', 'a'), F('hold_ns', 'b'), F('moved', 'c')],
  alloc_fail: [F('gfp', 'a')],
  bad_page: [F('reason', 'a')],
  page_leak: [],
  runaway_loop: [F('iterations', 'a'), F('count', 'b'), F('listed', 'c')],
  sysctl: [F('id', 'a'), F('value', 'b')],
};

/** The named fields of one event of `kind` with raw a, b, c. */
export function namedFields(
  kind: string,
  abc: { a: number; b: number; c: number },
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of EVENT_FIELDS[kind] ?? []) {
    let v = abc[f.from];
    if (f.shift !== undefined) v = (v >> f.shift) & (f.mask ?? -1);
    out[f.name] = v;
  }
  return out;
}
