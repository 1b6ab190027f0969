/*
 * names.ts: kernel names for numbers the core reports (zones, pcp list indexes, sysctls, bad page
 * reasons), and the elixir link for a kernel function.
 */
import { ZONE_NAMES } from '../core/machine-config';
import { pcpListOf, profileRow } from '../core/profiles';
import { migratetypeName } from './palette';

export function zoneName(idx: number): string {
  return ZONE_NAMES[idx] ?? `zone ${idx}`;
}

/** What list pindex is under profile profileId's pcp layout: order, migratetype (-1 when shared). */
export function pindexList(
  profileId: number,
  pindex: number,
): { order: number; mt: number; thp: boolean } {
  return pcpListOf(profileRow(profileId).switches.pcp_layout, pindex);
}

export function pindexLabel(profileId: number, pindex: number): string {
  const l = pindexList(profileId, pindex);
  const order = l.thp ? 'THP' : `order ${l.order}`;
  return l.mt < 0 ? order : `${order} ${migratetypeName(l.mt)}`;
}

export const SYSCTL_LABELS = [
  'min_free_kbytes',
  'watermark_scale_factor',
  'watermark_boost_factor',
  'percpu_pagelist_high_fraction',
  'lowmem_reserve_ratio[DMA]',
  'lowmem_reserve_ratio[DMA32]',
  'lowmem_reserve_ratio[Normal]',
  'lowmem_reserve_ratio[Movable]',
  'lowmem_reserve_ratio[Device]',
  'zone_reclaim_mode',
];

export const BAD_REASONS = [
  '',
  'the pfn belongs to no zone',
  'the block is already free (a double free)',
  'the order differs from the allocated order',
  'the pfn is inside a block, not its head',
  'the order is above MAX_PAGE_ORDER',
  'the handle holds no page',
  'the CPU is unknown or offline',
  'the frame was marked bad (hwpoison)',
];

/** Where to read a kernel function's source. */
export function elixirUrl(fn: string): string {
  return `https://elixir.bootlin.com/linux/v6.18/C/ident/${encodeURIComponent(fn)}`;
}

/** enum ev_fn names (event.c's fn_names), index = value. */
export const FN_NAMES = [
  '',
  '__alloc_pages',
  '__alloc_pages_slowpath',
  'get_page_from_freelist',
  '__zone_watermark_ok',
  'rmqueue_pcplist',
  'rmqueue_bulk',
  'rmqueue_buddy',
  '__rmqueue_smallest',
  '__rmqueue_claim',
  '__rmqueue_steal',
  '__rmqueue_fallback',
  'try_to_claim_block',
  'steal_suitable_fallback',
  'expand',
  '__free_one_page',
  'free_pages_prepare',
  'free_frozen_page_commit',
  'free_pcppages_bulk',
  'nr_pcp_high',
  'nr_pcp_alloc',
  'decay_pcp_high',
  'drain_zone_pages',
  'drain_pages_zone',
  'drain_all_pages',
  'vmstat_update',
  'boost_watermark',
  'reserve_highatomic_pageblock',
  'unreserve_highatomic_pageblock',
  'wakeup_kswapd',
  'warn_alloc',
  'bad_page',
  'check_new_pages',
  'page_alloc_cpu_online',
  'page_alloc_cpu_dead',
  'spin_lock',
  'proc_dointvec_minmax',
  'free_one_page',
] as const;

export function fnName(fn: number): string {
  return FN_NAMES[fn] ?? '';
}

/** enum ev_kind names (event.c's kind_names), index = value. */
export const KIND_NAMES = [
  'none',
  'mm_page_alloc',
  'mm_page_free',
  'mm_page_alloc_zone_locked',
  'mm_page_pcpu_drain',
  'mm_page_alloc_extfrag',
  'pcp_hit',
  'pcp_refill',
  'pcp_free',
  'pcp_bulk_free',
  'pcp_high',
  'buddy_split',
  'buddy_merge',
  'buddy_enqueue',
  'watermark_check',
  'zone_fallback',
  'pageblock_claim',
  'highatomic_reserve',
  'highatomic_unreserve',
  'watermark_boost',
  'kswapd_wake',
  'drain',
  'vmstat_tick',
  'cpu_hotplug',
  'zone_lock',
  'alloc_fail',
  'bad_page',
  'page_leak',
  'runaway_loop',
  'sysctl',
] as const;

export function kindName(kind: number): string {
  return KIND_NAMES[kind] ?? `kind ${kind}`;
}
