/*
 * events.ts: struct sim_event records (wasm-core/src/base/types.h) decoded into plain objects, and the
 * kind ids by name. Kinds, their fields and names are defined in each subsystem's events.def
 * (web/core/generated/events.ts).
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
  /** The model's C file that emitted it (a key of SOURCE_FILES); absent when not from the core. */
  srcFile?: number;
  srcLine?: number; // the line of that file's ev_emit call (1-based)
}

/** Event kind ids by name (EV.PCP_REFILL), generated from every subsystem's events.def. */
export { EV } from './generated/events';
