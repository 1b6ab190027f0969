/*
 * state.ts: the simulation's state as plain data, read from the arena through the layout (see
 * state-reader.ts). Only the page frames and pageblock tags stay typed arrays over wasm memory:
 * a million frames are read in place, never copied into objects.
 */
import type { FrameImage, FramePaint } from './frame-image';

export interface FreeAreaState {
  nrFree: number; // blocks of this order on all lists (buddyinfo)
  count: number[]; // blocks per migratetype list (pagetypeinfo)
}

/** struct zone */
export interface ZoneState {
  node: number;
  idx: number; // enum zone_type
  name: string; // "Normal"
  startPfn: number;
  spanned: number;
  present: number;
  managed: number;
  memPfn: number; // first materialised pfn
  frameBase: number; // index of memPfn's frame in the frame arrays
  pageblockBase: number;
  nrPageblocks: number;
  watermark: { min: number; low: number; high: number; promo: number }; // without boost
  boost: number;
  lowmemReserve: number[]; // protection against allocations that could use zone i
  nrFree: number; // NR_FREE_PAGES
  nrFreeHighatomic: number;
  nrReservedHighatomic: number;
  batch: number;
  highMin: number;
  highMax: number;
  flags: number; // ZONE_BELOW_HIGH | ZONE_BOOSTED_WATERMARK | ZONE_RECLAIM_ACTIVE
  pgalloc: number;
  lock: { acquisitions: number; holdNs: number; waitNs: number; pagesMoved: number };
  freeArea: FreeAreaState[]; // by order 0..maxOrder
}

/** struct node (pglist_data) */
export interface NodeState {
  id: number;
  firstCpu: number;
  nrCpus: number;
  kswapdAwake: boolean;
  kswapdWakeups: number;
  zonelist: { node: number; zone: number }[]; // ZONELIST_FALLBACK order
  zones: ZoneState[]; // populated zones only, by zone index
}

/** struct per_cpu_pages of one (CPU, zone) */
export interface PcpState {
  cpu: number;
  node: number;
  zone: number; // enum zone_type
  count: number; // pages on all lists
  high: number;
  highMin: number;
  highMax: number;
  batch: number;
  freeCount: number;
  allocFactor: number;
  freeFactor: number;
  nrBlocks: number[]; // blocks per pindex
}

/** struct cpu */
export interface CpuState {
  id: number;
  node: number;
  online: boolean;
  clockNs: number;
  pcpHits: number;
  pcpRefills: number;
  pcpFrees: number;
  pcpDrains: number;
  lockAcquisitions: number;
  lockWaitNs: number;
}

/** struct vm_events: the machine-wide vmstat event counters */
export interface VmCounters {
  pgalloc: number[]; // per zone_type
  pgfree: number;
  allocFail: number;
  pcpHit: number;
  pcpRefill: number;
  pcpDrainPages: number;
  pcpBulkFrees: number;
  extfrag: number;
  pageblockClaimed: number;
  kswapdWakeups: number;
  badPage: number;
}

/** struct page records in place: frame i is bytes [i * stride, (i + 1) * stride). */
export interface FrameArrays {
  count: number;
  bytes: Uint8Array; // a view over wasm memory: valid until the next call into the core
  stride: number;
  off: { state: number; order: number; list: number; cpu: number; flags: number };
  /**
   * Bring image up to date with the core's class map (enum frame_class, FC) of pfns [start, start
   * + count) of the live frames through lut (FC.COUNT entries): Sim.paintFrames, which repaints
   * only what changed since the image was last painted.
   */
  paint: (image: FrameImage, start: number, count: number, lut: Uint32Array) => FramePaint;
}

/** One frame decoded (struct page). */
export interface FrameState {
  next: number;
  state: number; // enum page_state
  order: number;
  list: number;
  flags: number;
  cpu: number;
}

export interface ModelState {
  op: number; // ops applied
  profile: string; // "6.18"
  profileId: number; // enum profile_id
  nrPcpLists: number;
  maxOrder: number;
  pageblockOrder: number;
  pageblockNrPages: number;
  nrCpus: number;
  nodes: NodeState[];
  pcps: PcpState[]; // populated zones only
  cpus: CpuState[];
  vm: VmCounters;
  frames: FrameArrays;
  pageblocks: Uint8Array; // tag per pageblock: migratetype | PB_ISOLATE (a view, like frames)
  frozen: boolean;
  eventsDropped: number;
}

/** enum migratetype names, index = value, as /proc/pagetypeinfo prints them (no CMA). */
export const MIGRATETYPE_NAMES = [
  'Unmovable',
  'Movable',
  'Reclaimable',
  'HighAtomic',
  'Isolate',
] as const;

/** enum page_state and enum frame_class, generated from base/page_states.def and
 * page_alloc/frame_classes.def. */
export { FC, PG } from './generated/frames';
export const PB_ISOLATE = 0x80;
