/*
 * narrate-numa.ts: the zonelist cache and node reclaim in plain words
 * (wasm-core/src/page_alloc/events.def ids 140-144, wasm-core/src/reclaim/events.def 145-147),
 * spread into NARRATIONS by ../narrate.ts. A zonelist slot is named by its index in the walking
 * node's fallback list; jiffies are the profile's (HZ 1000 for the 2011 kernels).
 */
import type { SimEvent } from '../../player/engine';
import { fnName } from '../names';

/** The kinds this file says: the ZLC's and node reclaim's. */
export type NumaKindName =
  | 'zlc_skip'
  | 'zlc_mark_full'
  | 'zlc_zap'
  | 'zlc_clear_zones_full'
  | 'zlc_rescan'
  | 'mm_vmscan_node_reclaim_begin'
  | 'mm_vmscan_node_reclaim_end'
  | 'node_reclaim'
  | 'build_all_zonelists';

/** enum zlc_full_reason (page_alloc/zlc.h). */
const FULL_REASONS: Record<number, string> = {
  1: 'it is below its watermark and zone_reclaim_mode is off (or the node is too far to reclaim)',
  2: 'zone_reclaim found too little unmapped page cache to scan (3.0 marks that too)',
  3: 'zone_reclaim scanned it and it is still below its watermark',
  4: 'its watermark passed but it had no free block of that order',
};

/** enum node_reclaim_result (page_alloc/reclaim_hook.h). */
const RESULTS: Record<number, string> = {
  [-2]: 'NOSCAN',
  [-1]: 'FULL',
  0: 'SOME',
  1: 'SUCCESS',
};

/** enum node_reclaim_why (page_alloc/reclaim_hook.h). */
const WHY: Record<number, string> = {
  0: 'it scanned',
  1: 'the unmapped page cache is not above min_unmapped_pages, so there is nothing worth scanning',
  2: 'kswapd found the node unreclaimable',
  3: 'the request may not sleep',
  4: 'the node has CPUs of its own and is not the allocating CPU’s',
  5: 'another task is already reclaiming it',
};

function pages(n: number): string {
  return n === 1 ? '1 page' : `${n} pages`;
}

function zapIn(j: number): string {
  return j > 0
    ? `for ${j} more jiffies, until the next zap`
    : 'until the next walk sets the cache up (a zap is due)';
}

type Say = (e: SimEvent, c: { z: string }) => string;

/** One sentence per kind. */
export const NUMA_NARRATIONS: Readonly<Record<NumaKindName, Say>> = {
  zlc_skip: (e, { z }) =>
    e.b === 2
      ? `zlc_zone_worth_trying: ${z} (slot ${e.a}) is on a node the task may not use, so the walk passes it.`
      : `zlc_zone_worth_trying: ${z} (slot ${e.a}) was marked full recently, so the walk passes it without looking (${zapIn(e.c)}).`,
  zlc_mark_full: (e, { z }) =>
    `zlc_mark_zone_full: ${z} (slot ${e.a}) is marked full because ${FULL_REASONS[e.b] ?? `reason ${e.b}`}; every walk of this zonelist will skip it ${zapIn(e.c)}.`,
  zlc_zap: (e) =>
    `zlc_setup: more than a second (HZ jiffies) since the last zap at jiffies ${e.c}, so the ${pages(e.a).replace('page', 'full bit')} of this zonelist are cleared at jiffies ${e.b}.`,
  zlc_clear_zones_full: (e) =>
    `Direct reclaim made progress, so zlc_clear_zones_full clears ${e.a === 1 ? '1 full bit' : `${e.a} full bits`}: every zone is worth trying again (3.1).`,
  zlc_rescan: (e) =>
    `The walk found nothing with the zonelist cache on (${e.a === 1 ? '1 zone' : `${e.a} zones`} skipped), so it walks again looking at every zone.`,
  mm_vmscan_node_reclaim_begin: (e, { z }) =>
    `CPU ${e.cpu} reclaims on ${z} before leaving the node (zone_reclaim_mode), from priority 4.`,
  mm_vmscan_node_reclaim_end: (e) =>
    `Node reclaim ends at priority ${e.c}: ${pages(e.b)} scanned, ${pages(e.a)} reclaimed.`,
  node_reclaim: (e, { z }) =>
    `${fnName(e.fn)} on ${z} returns ${RESULTS[e.a] ?? e.a}: ${WHY[e.b] ?? `reason ${e.b}`}${e.b === 0 ? `, ${pages(e.c)} reclaimed` : ''}.`,
  build_all_zonelists: (e) =>
    e.a === 2
      ? `build_all_zonelists: node ${e.node}'s zonelist is rebuilt in zone order (${e.b} zones): every node's Normal before any DMA32, so once its own Normal is short the walk goes to node ${e.c} before touching local DMA32.`
      : `build_all_zonelists: node ${e.node}'s zonelist is rebuilt in node order (${e.b} zones): all of node ${e.node}'s own zones, highest first, before node ${e.c}'s.`,
};
