/*
 * markers.ts: which events deserve a mark on the timeline. A reader scrubbing through a long run
 * wants to find the moments the allocator changed course (a refill under the zone lock, a drain, a
 * fallback to another zone, a pageblock changing hands, a failure, a bad page), not every pcp hit.
 * Which kind earns which mark is a column of the kind's row in its subsystem's events.def.
 */

import { EVENT_KINDS } from '../core/generated/events';

export type MarkerKind = 'refill' | 'drain' | 'fallback' | 'claim' | 'failure' | 'bad-page';

export const MARKER_KINDS: readonly MarkerKind[] = [
  'refill',
  'drain',
  'fallback',
  'claim',
  'failure',
  'bad-page',
];

/** Words for a marker kind, for the legend and the screen reader. */
export const MARKER_LABELS: Record<MarkerKind, string> = {
  refill: 'pcp refill',
  drain: 'pcp drain',
  fallback: 'zone fallback',
  claim: 'pageblock claim',
  failure: 'allocation failure',
  'bad-page': 'bad page',
};

/** The marker an event kind earns (its events.def row says), or null for the everyday ones. */
export function markerOf(kind: number): MarkerKind | null {
  return MARKER_OF_KIND[kind] ?? null;
}

/**
 * Each kind's marker, index = kind id (EVENT_KINDS lists the kinds in id order without the unused
 * ids, so its positions are not ids past the first gap); typed here, so a row naming an unknown
 * marker fails tsc.
 */
const MARKER_OF_KIND: readonly (MarkerKind | null)[] = (() => {
  const byId: (MarkerKind | null)[] = [];
  for (const k of EVENT_KINDS) byId[k.id] = k.marker;
  return byId;
})();

/** One mark: where (global event index and op) and what. */
export interface Marker {
  event: number; // global event index in this branch's history
  op: number; // index of the op that produced it
  kind: MarkerKind;
}

/**
 * Markers kept per kind. A million-op random run can refill tens of thousands of times; the
 * scrubber draws at most a few hundred pixels of them, so the first MAX_PER_KIND of each kind are
 * kept exactly and the rest only counted.
 */
export const MAX_MARKERS_PER_KIND = 5000;

/** Collects markers while a run is scanned. */
export class MarkerSet {
  readonly list: Marker[] = [];
  readonly counts: Record<MarkerKind, number> = {
    refill: 0,
    drain: 0,
    fallback: 0,
    claim: 0,
    failure: 0,
    'bad-page': 0,
  };

  add(event: number, op: number, kind: MarkerKind): void {
    const n = ++this.counts[kind];
    if (n <= MAX_MARKERS_PER_KIND) this.list.push({ event, op, kind });
  }

  /** The markers at or before op (for a branch that shares this prefix). */
  prefix(op: number): MarkerSet {
    const out = new MarkerSet();
    for (const m of this.list) if (m.op < op) out.add(m.event, m.op, m.kind);
    return out;
  }
}
