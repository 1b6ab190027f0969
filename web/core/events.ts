/*
 * events.ts: struct sim_event records (wasm-core/src/base/types.h) decoded into plain objects, and the
 * kinds the tools here look for. Names come from the wasm (bs_ev_kind_name, bs_ev_fn_name).
 */

/** One decoded struct sim_event; fields unused by a kind are 0. */
export interface SimEvent {
  seq: number; // position in the whole history
  op: number; // index of the op that caused it
  pfn: number; // block head, 0 when none
  a: number;
  b: number;
  c: number;
  cpu: number;
  kind: number; // enum ev_kind
  node: number;
  zone: number; // enum zone_type
  order: number;
  mt: number; // migratetype
  fn: number; // enum ev_fn: the kernel function that made the decision
}

/** enum ev_kind values the tools of this directory need by name. */
export const EvKind = {
  NONE: 0,
  MM_PAGE_ALLOC: 1,
  MM_PAGE_FREE: 2,
  MM_PAGE_ALLOC_ZONE_LOCKED: 3, // a = percpu_refill
  MM_PAGE_PCPU_DRAIN: 4,
  MM_PAGE_ALLOC_EXTFRAG: 5,
  PCP_HIT: 6,
  PCP_REFILL: 7,
  PCP_FREE: 8,
  PCP_BULK_FREE: 9,
} as const;
