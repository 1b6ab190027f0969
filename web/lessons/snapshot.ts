/*
 * snapshot.ts: the plain object lesson checks and goals read (lessons/README.md, "What the
 * snapshot holds"). Names follow the kernel and /proc where they exist (min/low/high, nr_free,
 * batch, high_min, alloc_factor); zones and migratetypes appear by their printed names so a
 * check reads like the file it mirrors: `zones.Normal.free_area.3.Movable`.
 * snapshot-from-sim.ts builds it from the binding; nothing here knows about wasm.
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

/** free_area[order]: blocks per migratetype list and nr_free (all lists). */
export interface FreeAreaSnap {
  nr_free: number;
  Unmovable: number;
  Movable: number;
  Reclaimable: number;
  HighAtomic: number;
  Isolate: number;
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
  free: number; // NR_FREE_PAGES
  min: number; // watermarks including the boost, as /proc/zoneinfo prints them
  low: number;
  high: number;
  promo: number;
  boost: number;
  protection: Record<string, number>; // lowmem_reserve by zone name
  batch: number;
  high_min: number;
  high_max: number;
  pgalloc: number;
  nr_reserved_highatomic: number;
  below_high: boolean; // ZONE_BELOW_HIGH
  free_area: FreeAreaSnap[]; // index = order
  buddyinfo: number[]; // nr_free per order, as /proc/buddyinfo prints
  pageblocks: Record<string, number>; // pageblocks per migratetype name
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
  blocks: number;
  pages: number;
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
  lists: PcpListSnap[];
  orders: Record<string, number>; // pages held per order
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
  nodes: number;
  cpus: number;
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
  counters: Record<string, number>;
  events: Record<string, EventSnap[]>; // "all" and one list per kind name
}

/** With `compare`, expressions see the first machine at the root and both as `a` and `b`. */
export function expressionRoot(a: Snapshot, b: Snapshot | null): Record<string, unknown> {
  const root: Record<string, unknown> = { ...a, a };
  if (b) root['b'] = b;
  return root;
}
