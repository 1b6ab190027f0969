/*
 * highlight.ts: which part of each view the current event is about. Every view asks here, so
 * they all light up the same zone, CPU, order or pageblock for the same event.
 */
import { EV } from '../core/events';
import type { SimEvent } from './model';

const PCP_KINDS = new Set<number>([
  EV.PCP_HIT,
  EV.PCP_REFILL,
  EV.PCP_FREE,
  EV.PCP_BULK_FREE,
  EV.PCP_HIGH,
  EV.MM_PAGE_PCPU_DRAIN,
  EV.DRAIN,
  EV.CPU_HOTPLUG,
  EV.VMSTAT_TICK,
]);

const BUDDY_KINDS = new Set<number>([
  EV.BUDDY_SPLIT,
  EV.BUDDY_MERGE,
  EV.BUDDY_ENQUEUE,
  EV.MM_PAGE_ALLOC_ZONE_LOCKED,
  EV.MM_PAGE_PCPU_DRAIN,
  EV.MM_PAGE_ALLOC_EXTFRAG,
  EV.PAGEBLOCK_CLAIM,
]);

const ZONE_KINDS = new Set<number>([
  EV.WMARK_CHECK,
  EV.ZONE_FALLBACK,
  EV.WMARK_BOOST,
  EV.ZONE_LOCK,
  EV.KSWAPD_WAKE,
  EV.HIGHATOMIC_RESERVE,
  EV.HIGHATOMIC_UNRESERVE,
  EV.MM_PAGE_ALLOC,
  EV.MM_PAGE_FREE,
]);

/** The event touches CPU cpu's per-CPU lists of (node, zone). */
export function touchesPcp(e: SimEvent | null, cpu: number, node: number, zone: number): boolean {
  if (!e || !PCP_KINDS.has(e.kind) || e.cpu !== cpu) return false;
  if (e.kind === EV.CPU_HOTPLUG || e.kind === EV.VMSTAT_TICK) return true;
  return e.node === node && e.zone === zone;
}

/** The event changes the buddy free lists of (node, zone); returns the order it is about, or -1. */
export function buddyOrder(e: SimEvent | null, node: number, zone: number): number {
  if (!e || !BUDDY_KINDS.has(e.kind) || e.node !== node || e.zone !== zone) return -1;
  return e.order;
}

/** The event is about zone (node, zone) as a whole. */
export function touchesZone(e: SimEvent | null, node: number, zone: number): boolean {
  if (!e || e.node !== node || e.zone !== zone) return false;
  return ZONE_KINDS.has(e.kind) || BUDDY_KINDS.has(e.kind) || PCP_KINDS.has(e.kind);
}
