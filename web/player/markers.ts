/*
 * markers.ts: which events deserve a mark on the timeline. A reader scrubbing through a long run
 * wants to find the moments the allocator changed course (a refill under the zone lock, a drain, a
 * fallback to another zone, a pageblock changing hands, a failure, a bad page), not every pcp hit.
 */

/** enum ev_kind values of wasm-core/src/base/types.h that the player marks. */
export const EV = {
  MM_PAGE_ALLOC: 1,
  MM_PAGE_FREE: 2,
  MM_PAGE_ALLOC_ZONE_LOCKED: 3,
  MM_PAGE_PCPU_DRAIN: 4,
  MM_PAGE_ALLOC_EXTFRAG: 5,
  PCP_HIT: 6,
  PCP_REFILL: 7,
  PCP_FREE: 8,
  PCP_BULK_FREE: 9,
  PCP_HIGH: 10,
  BUDDY_SPLIT: 11,
  BUDDY_MERGE: 12,
  BUDDY_ENQUEUE: 13,
  WMARK_CHECK: 14,
  ZONE_FALLBACK: 15,
  PAGEBLOCK_CLAIM: 16,
  HIGHATOMIC_RESERVE: 17,
  HIGHATOMIC_UNRESERVE: 18,
  WMARK_BOOST: 19,
  KSWAPD_WAKE: 20,
  DRAIN: 21,
  VMSTAT_TICK: 22,
  CPU_HOTPLUG: 23,
  ZONE_LOCK: 24,
  ALLOC_FAIL: 25,
  BAD_PAGE: 26,
  PAGE_LEAK: 27,
  RUNAWAY_LOOP: 28,
  SYSCTL: 29,
} as const;

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

/** The marker an event kind earns, or null for the everyday ones. */
export function markerOf(kind: number): MarkerKind | null {
  switch (kind) {
    case EV.PCP_REFILL:
      return 'refill';
    case EV.DRAIN:
    case EV.PCP_BULK_FREE:
      return 'drain';
    case EV.ZONE_FALLBACK:
      return 'fallback';
    case EV.PAGEBLOCK_CLAIM:
      return 'claim';
    case EV.ALLOC_FAIL:
      return 'failure';
    case EV.BAD_PAGE:
    case EV.PAGE_LEAK:
    case EV.RUNAWAY_LOOP:
      return 'bad-page';
    default:
      return null;
  }
}

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
