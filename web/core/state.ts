/*
 * state.ts: the simulation's state as plain data, read from the arena through the layout (see
 * state-reader.ts). Each field is its C field (wasm-core/src/types.h) in camelCase: nr_free_pages
 * is nrFreePages here and nr_free_pages in lesson snapshots and `--print stats`. Only the page frames and pageblock tags stay typed arrays over wasm memory:
 * a million frames are read in place, never copied into objects.
 */
import type { FrameImage, FramePaint } from './frame-image';
import type { FaultState } from './fault-reader';
import type { PercpuState } from './percpu-reader';

export interface FreeAreaState {
  nrFree: number; // blocks of this order on all lists (buddyinfo)
  count: number[]; // blocks per migratetype list (pagetypeinfo)
  head: number[]; // first pfn of each migratetype's list, PFN_NONE (0xffffffff) when empty
}

/** struct lock_stats: what every lock counts (base/lock.h), in virtual nanoseconds */
export interface LockStats {
  acquisitions: number;
  contended: number; // acquisitions that had to wait
  waitNs: number;
  holdNs: number;
  handovers: number; // acquisitions that pulled the lock's cache line from another CPU
}

/** A lock's figures under the C record's field names, for lesson snapshots and `--print stats`. */
export function lockStatsRecord(l: LockStats) {
  return {
    acquisitions: l.acquisitions,
    contended: l.contended,
    wait_ns: l.waitNs,
    hold_ns: l.holdNs,
    handovers: l.handovers,
  };
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
  pageblockBase: number;
  nrPageblocks: number;
  watermark: { min: number; low: number; high: number; promo: number }; // _watermark: without boost
  watermarkBoost: number;
  lowmemReserve: number[]; // protection against allocations that could use zone i
  nrFreePages: number; // NR_FREE_PAGES
  nrFreeHighatomic: number;
  nrReservedHighatomic: number;
  pagesetBatch: number; // the batch of every CPU's pcp in this zone
  pagesetHighMin: number;
  pagesetHighMax: number;
  nrZoneLru: number[]; // this zone's pages on each LRU list (NR_ZONE_{IN,}ACTIVE_{ANON,FILE})
  flags: number; // ZONE_BELOW_HIGH | ZONE_BOOSTED_WATERMARK | ZONE_RECLAIM_ACTIVE
  pgalloc: number;
  lock: LockStats; // zone->lock, a spinlock
  lockPagesMoved: number; // pages moved between pcp and buddy lists under zone->lock
  freeArea: FreeAreaState[]; // by order 0..maxOrder
  numa: NumaCounters; // zone_statistics: where this zone's allocations were asked from
  minUnmappedPages: number; // <= 4.7 zone_reclaim's floor: present * min_unmapped_ratio / 100
}

/** The NUMA counters of a zone (numastat sums them per node). */
export interface NumaCounters {
  hit: number; // preferred zone's node
  miss: number; // another node was preferred
  foreign: number; // preferred here, served elsewhere
  local: number; // the allocating CPU's node
  other: number; // another node's CPU
}

/** struct zonelist_cache (<= 4.3): the fallback zonelist's full bits and last zap. */
export interface ZlcState {
  full: boolean[]; // fullzones: one bit per zonelist slot, by slot
  lastFullZap: number; // jiffies
}

/** struct kswapd: where the node's balance_pgdat stands */
export interface KswapdState {
  running: boolean; // inside balance_pgdat (its zones are ZONE_RECLAIM_ACTIVE)
  priority: number; // the priority of its next round (12 down to 1)
  nrToReclaim: number; // what a round aims at: the zones' high marks
  nrScanned: number; // scanned in the last round
  nrReclaimed: number; // reclaimed since balance_pgdat began
  rounds: number; // rounds run in all
}

/** struct node (pglist_data) */
export interface NodeState {
  id: number;
  firstCpu: number;
  nrCpus: number;
  kswapdAwake: boolean;
  kswapdWakeups: number;
  lru: number[]; // pages on each LRU list (enum lru_list: inactive/active anon, inactive/active file)
  kswapd: KswapdState;
  zonelist: { node: number; zone: number }[]; // ZONELIST_FALLBACK order
  zonelistOrder: number; // 1 node order, 2 zone order (numa_zonelist_order)
  zlc: ZlcState;
  distance: number[]; // node_distance(this, n) for each node
  minUnmappedPages: number; // 4.8+ node_reclaim's floor: sum of managed * ratio / 100
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
  pgscanKswapd: number; // pages kswapd scanned
  pgscanDirect: number; // pages direct reclaim and zone_reclaim/node_reclaim scanned
  pgstealDirect: number; // pages they reclaimed
  zoneReclaimSuccess: number;
  zoneReclaimFailed: number;
  nodeReclaimCalls: number; // zone_reclaim/node_reclaim calls, whatever they returned (model)
  zlcSkips: number; // zones the zonelist cache let a walk pass (model)
}

/**
 * struct page records in place: pfn's record is bytes [at(pfn), at(pfn) + stride). Frames are
 * materialised on demand (wasm-core/src/base/frames.h): a whole max-order block reads as its head
 * and, for every other pfn, one shared clean tail; at() follows the core's per-block table.
 */
export interface FrameArrays {
  count: number; // managed frames
  bytes: Uint8Array; // a view over wasm memory: valid until the next call into the core
  stride: number;
  /** Byte index in bytes of pfn's record (pfn must be managed by some zone). */
  at: (pfn: number) => number;
  off: {
    state: number;
    order: number;
    list: number;
    cpu: number;
    flags: number;
    next: number; // u32: next pfn on the block's list, PFN_NONE at the end
    prev: number; // u32: previous pfn, PFN_NONE at the head
  };
  /**
   * Bring image up to date with the core's class map (enum frame_class, FC) of pfns [start, start
   * + count) of the live frames through lut (FC.COUNT entries): Sim.paintFrames, which repaints
   * only what changed since the image was last painted.
   */
  paint: (image: FrameImage, start: number, count: number, lut: Uint32Array) => FramePaint;
  /** False once the Sim is disposed (a new run replaced it): nothing above may be read then. */
  live: () => boolean;
  /** bytes as of now: the same addresses over the heap as it is (a grown heap detaches bytes). */
  heap: () => Uint8Array;
  /** The Sim these frames are of, for identity only: stamps compare within one Sim. */
  owner: object;
  /**
   * The frame stamps (frame_changed, wasm-core/src/base/state.h): per max-order block of pfns
   * from pfn 0, its 64-bit history digest as two words (low, high), as a view over wasm memory
   * made now (so a heap grown since the state was read does not leave it detached). Equal stamps
   * of a block mean equal frames there, so a reader that kept a copy recounts only what differs.
   */
  stamps: () => Uint32Array;
  /**
   * The group stamps, likewise: per FRAME_STAMP_GROUP blocks from block 0, the digest of the last
   * change to any of them. Equal group stamps mean none of the group's blocks differ, so a reader
   * of a whole machine's stamps skips the groups it has seen.
   */
  groupStamps: () => Uint32Array;
}

/**
 * What the model holds in memory, for the memory readout: the arena, and of it the frames
 * materialised on demand (slabs of 2^maxOrder frames from a pool whose size is the budget).
 */
export interface MemoryUse {
  arenaBytes: number; // the whole arena: fixed state, frame pool, handles, event buffer
  fixedBytes: number; // the state before the frame pool (what every snapshot holds)
  slabBytes: number; // one slab: 2^maxOrder struct page records and their owner slots
  slabsUsed: number; // slabs holding a materialised block now
  slabsPeak: number; // the most at once so far
  nrSlabs: number; // the pool: slabs at most (the frame budget, plus partly covered blocks)
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
  memory: MemoryUse;
  pageblocks: Uint8Array; // tag per pageblock: migratetype | PB_ISOLATE (a view, like frames)
  frozen: boolean;
  eventsDropped: number;
  percpu: PercpuState | null; // the percpu allocator (web/core/percpu-reader.ts)
  fault: FaultState | null; // page faults: processes, VMAs, CPU lanes (web/core/fault-reader.ts)
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
