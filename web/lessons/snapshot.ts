/*
 * snapshot.ts: the plain object lesson checks and goals read (lessons/README.md, "What the
 * snapshot holds"). A field of the state keeps its C name (wasm-core/src/types.h: nr_free_pages,
 * watermark_boost, pageset_batch, pcp_refills, lock.acquisitions), so one name reads the same in
 * the core, in a lesson and in `npm run sim -- --print stats`. Indices become the names the
 * kernel prints: zones, migratetypes and watermarks (`zones.Normal.free_area.3.count.Movable`,
 * `zones.Normal._watermark.min`). The few derived fields (buddyinfo, pageblocks, below_high, the
 * pcp lists and orders) say what they come from. snapshot-from-sim.ts builds it from the binding;
 * nothing here knows about wasm.
 */
import type { lockStatsRecord } from '../core/state';

/** A decoded event: the common fields plus the named fields of its kind (event-fields.ts). */
export interface EventSnap {
  seq: number;
  op: number;
  cpu: number;
  kind: string; // enum ev_kind name: mm_page_alloc, pcp_refill, ...
  fn: string; // the kernel function that decided
  node: number;
  zone: string; // zone name
  pfn: number;
  order: number;
  pages: number; // 2^order
  mt: string; // migratetype name
  a: number;
  b: number;
  c: number;
  [named: string]: number | string;
}

/** struct free_area of one order: blocks on all lists, and per migratetype list by name. */
export interface FreeAreaSnap {
  nr_free: number;
  count: Record<string, number>; // count[migratetype], keyed Unmovable .. Isolate
}

/** enum wmark names: _watermark[WMARK_MIN] is `_watermark.min`. */
export interface WatermarkSnap {
  min: number;
  low: number;
  high: number;
  promo: number;
}

/** struct lock_stats under its C names (lockStatsRecord of web/core/state.ts). */
export type LockSnap = ReturnType<typeof lockStatsRecord>;

export interface ZoneSnap {
  name: string;
  node: number;
  populated: boolean;
  managed: number;
  present: number;
  spanned: number;
  start_pfn: number;
  nr_free_pages: number; // NR_FREE_PAGES
  _watermark: WatermarkSnap; // without the boost: zoneinfo prints each plus watermark_boost
  watermark_boost: number;
  lowmem_reserve: Record<string, number>; // by zone name; zoneinfo's "protection"
  pageset_batch: number; // the batch of every CPU's pcp in this zone
  pageset_high_min: number;
  pageset_high_max: number;
  pgalloc: number;
  nr_free_highatomic: number;
  nr_reserved_highatomic: number;
  below_high: boolean; // ZONE_BELOW_HIGH of flags
  free_area: FreeAreaSnap[]; // index = order
  buddyinfo: number[]; // free_area[order].nr_free per order, as /proc/buddyinfo prints
  pageblocks: Record<string, number>; // pageblocks per migratetype name (their tags counted)
  lock: LockSnap; // zone->lock
  lock_pages_moved: number; // pages moved between pcp and buddy lists under zone->lock
}

export interface NodeSnap {
  id: number;
  kswapd_awake: boolean;
  kswapd_wakeups: number;
  zonelist: string[]; // "N:Zone" in walk order
  zones: Record<string, ZoneSnap>;
}

/** One pcp list. */
export interface PcpListSnap {
  pindex: number;
  order: number;
  mt: string; // migratetype name, or 'any' for the 2016 shared high-order lists / THP list
  nr_blocks: number; // nr_blocks[pindex]
  pages: number; // nr_blocks << order
}

export interface PcpSnap {
  count: number;
  high: number;
  high_min: number;
  high_max: number;
  batch: number;
  free_count: number;
  alloc_factor: number;
  free_factor: number;
  lists: PcpListSnap[]; // index = pindex
  orders: Record<string, number>; // pages held per order, over the lists
}

/** pcp.cpuN: the pagesets of node 0's zones by name, and every node's under `nodes`. */
export interface CpuPcpSnap {
  [zone: string]: PcpSnap | Record<string, PcpSnap>[];
}

export interface CpuSnap {
  id: number;
  node: number;
  online: boolean;
  clock_ns: number;
  pcp_hits: number;
  pcp_refills: number;
  pcp_frees: number;
  pcp_drains: number;
  lock_acquisitions: number;
  lock_wait_ns: number;
}

export interface MachineSnap {
  profile: string;
  nr_nodes: number;
  nr_cpus: number;
  max_order: number;
  pageblock_order: number;
  pageblock_nr_pages: number;
  min_free_kbytes: number;
  frozen: boolean;
  error: string;
}

/** The whole state one expression sees. */
export interface Snapshot {
  machine: MachineSnap;
  zones: Record<string, ZoneSnap>; // node 0
  nodes: NodeSnap[];
  pcp: Record<string, CpuPcpSnap>; // "cpu0" -> zone name -> PcpSnap; "nodes" -> per node
  cpus: CpuSnap[];
  vm_events: Record<string, number>; // struct vm_events; pgalloc[zone] as pgalloc_<zone>
  events: Record<string, EventSnap[]>; // "all" and one list per kind name
}

/** With `compare`, expressions see the first machine at the root and both as `a` and `b`. */
export function expressionRoot(a: Snapshot, b: Snapshot | null): Record<string, unknown> {
  const root: Record<string, unknown> = { ...a, a };
  if (b) root['b'] = b;
  return root;
}
