/*
 * position.ts: where the cursor stands on a timeline, and how the two step grains move it.
 *
 * A position is (op, event): `op` ops have been applied (0 = the machine as booted, nothing run),
 * and `event` indexes the events that op number op-1 produced (-1 when it produced none, or at
 * op 0). The state shown is always the state after op op-1: the core applies an op as a whole, so
 * stepping by event walks through the decisions of the op just applied, with the state after it.
 *
 * `starts[i]` is the global index of op i's first event (a prefix sum over event counts), so an
 * event's global index is starts[op-1] + event and every event in a long run has a single number
 * the scrubber can address.
 */

export interface Position {
  op: number;
  event: number;
}

export const ORIGIN: Position = { op: 0, event: -1 };

/** Read-only access to a run's event prefix sums. */
export interface EventIndex {
  /** ops scanned so far */
  readonly length: number;
  /** global index of op i's first event, for 0 <= i <= length */
  start(i: number): number;
}

export function eventsOf(idx: EventIndex, op: number): number {
  return op <= 0 ? 0 : idx.start(op) - idx.start(op - 1);
}

/** The position after op `op` was applied, at its last event (the op's outcome). */
export function atOp(idx: EventIndex, op: number): Position {
  const o = Math.max(0, Math.min(idx.length, op));
  return { op: o, event: eventsOf(idx, o) - 1 };
}

/** Global event index of a position, or -1 when it shows no event. */
export function globalEvent(idx: EventIndex, p: Position): number {
  return p.op > 0 && p.event >= 0 ? idx.start(p.op - 1) + p.event : -1;
}

/** The position showing global event g (clamped to the run). */
export function atEvent(idx: EventIndex, g: number): Position {
  const total = idx.start(idx.length);
  if (total === 0 || g < 0) return ORIGIN;
  const e = Math.min(g, total - 1);
  // The op i with start(i) <= e < start(i+1): binary search over the prefix sums.
  let lo = 0;
  let hi = idx.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (idx.start(mid) <= e) lo = mid;
    else hi = mid - 1;
  }
  return { op: lo + 1, event: e - idx.start(lo) };
}

/** One event forward: the next event of this op, else the first event of the next op that has one. */
export function nextEvent(idx: EventIndex, p: Position): Position {
  if (p.op > 0 && p.event + 1 < eventsOf(idx, p.op)) return { op: p.op, event: p.event + 1 };
  const g = p.op > 0 ? idx.start(p.op) : 0;
  if (g >= idx.start(idx.length)) return atOp(idx, idx.length);
  return atEvent(idx, g);
}

/** One event back: the previous event of this op, else the last event of the previous op with one. */
export function prevEvent(idx: EventIndex, p: Position): Position {
  if (p.op > 0 && p.event > 0) return { op: p.op, event: p.event - 1 };
  const g = globalEvent(idx, p);
  const here = g >= 0 ? g : p.op > 0 ? idx.start(p.op - 1) : 0;
  if (here <= 0) return ORIGIN;
  return atEvent(idx, here - 1);
}

export function samePosition(a: Position, b: Position): boolean {
  return a.op === b.op && a.event === b.event;
}
