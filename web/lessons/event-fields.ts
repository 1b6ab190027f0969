/*
 * event-fields.ts: the names lesson checks use for the kind-specific fields a, b, c of an event
 * (events.pcp_refill.got), as each kind's row of its subsystem's events.def names them (the
 * kernel's tracepoint field names where it has one: percpu_refill, fallback_order,
 * change_ownership, ...). Trace text prints the same names.
 */
import { EVENT_KINDS, type EventField } from '../core/generated/events';

/** enum ev_kind name -> named fields. */
export const EVENT_FIELDS: Readonly<Record<string, readonly EventField[]>> = Object.fromEntries(
  EVENT_KINDS.map((k) => [k.name, k.fields]),
);

/** The named fields of one event of `kind` with raw a, b, c. */
export function namedFields(
  kind: string,
  abc: { a: number; b: number; c: number },
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of EVENT_FIELDS[kind] ?? []) {
    let v = abc[f.from];
    if (f.shift !== undefined) v = (v >> f.shift) & ((1 << (f.width ?? 32)) - 1);
    out[f.name] = v;
  }
  return out;
}
