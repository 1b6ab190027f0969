/*
 * state-reader.ts: the arena read into the plain objects of state.ts. Every offset comes from the
 * layout the wasm publishes; array lengths come from the field sizes, so a wider array in the C
 * shows up here without an edit.
 */
import { FaultReader } from './fault-reader';
import { PercpuReader } from './percpu-reader';
import { ZONE_NAMES, MAX_NR_ZONES } from './machine-config';
import { FRAME_STAMP_GROUP } from './generated/machine';
import type { LayoutField } from './generated/layout';
import type { Sim } from './sim';
import type {
  CpuState,
  FrameState,
  LockStats,
  MemoryUse,
  ModelState,
  NodeState,
  PcpState,
  VmCounters,
  ZoneState,
} from './state';

/** Typed reads at absolute heap addresses through one DataView acquired for this read. */
class Reader {
  readonly dv: DataView;
  readonly u8: Uint8Array;

  constructor(readonly sim: Sim) {
    this.dv = sim.view();
    this.u8 = sim.core.mod.HEAPU8;
  }

  off(f: LayoutField): number {
    return this.sim.core.layout.off(f);
  }

  /** Elements of an array field of `width`-byte elements. */
  len(f: LayoutField, width: number): number {
    return Math.floor(this.sim.core.layout.size(f) / width);
  }

  u8At(at: number): number {
    return this.dv.getUint8(at);
  }
  u16(at: number): number {
    return this.dv.getUint16(at, true);
  }
  i16(at: number): number {
    return this.dv.getInt16(at, true);
  }
  u32(at: number): number {
    return this.dv.getUint32(at, true);
  }
  i32(at: number): number {
    return this.dv.getInt32(at, true);
  }
  /** Counters fit 2^53 for any run the limits allow. */
  u64(at: number): number {
    return Number(this.dv.getBigUint64(at, true));
  }
  i64(at: number): number {
    return Number(this.dv.getBigInt64(at, true));
  }
  i32s(at: number, n: number): number[] {
    return Array.from({ length: n }, (_, k) => this.i32(at + 4 * k));
  }
  u32s(at: number, n: number): number[] {
    return Array.from({ length: n }, (_, k) => this.u32(at + 4 * k));
  }

  /** Address of sim.config + one of its fields. */
  config(f: LayoutField): number {
    return this.sim.address + this.off('sim.config') + this.off(f);
  }
}

function nrNodes(r: Reader): number {
  return r.u8At(r.config('sim_config.nr_nodes'));
}

/** The struct lock_stats at `at`: any lock's figures (a spinlock's, one side of an rwsem). */
function lockStats(r: Reader, at: number): LockStats {
  return {
    acquisitions: r.u64(at + r.off('lock_stats.acquisitions')),
    contended: r.u64(at + r.off('lock_stats.contended')),
    waitNs: r.u64(at + r.off('lock_stats.wait_ns')),
    holdNs: r.u64(at + r.off('lock_stats.hold_ns')),
    handovers: r.u64(at + r.off('lock_stats.handovers')),
  };
}

function readZone(
  r: Reader,
  nodeAt: number,
  nid: number,
  zid: number,
  maxOrder: number,
): ZoneState {
  const L = r.sim.core.layout;
  const z = nodeAt + r.off('node.zones') + zid * L.sizeOf('zone');
  const wm = r.i32s(z + r.off('zone._watermark'), r.len('zone._watermark', 4));
  const nrTypes = r.len('free_area.count', 4);
  return {
    node: nid,
    idx: zid,
    name: ZONE_NAMES[zid] ?? `zone ${zid}`,
    startPfn: r.u32(z + r.off('zone.start_pfn')),
    spanned: r.u32(z + r.off('zone.spanned')),
    present: r.u32(z + r.off('zone.present')),
    managed: r.u32(z + r.off('zone.managed')),
    memPfn: r.u32(z + r.off('zone.mem_pfn')),
    pageblockBase: r.u32(z + r.off('zone.pageblock_base')),
    nrPageblocks: r.u32(z + r.off('zone.nr_pageblocks')),
    watermark: { min: wm[0] ?? 0, low: wm[1] ?? 0, high: wm[2] ?? 0, promo: wm[3] ?? 0 },
    watermarkBoost: r.i32(z + r.off('zone.watermark_boost')),
    lowmemReserve: r.i32s(z + r.off('zone.lowmem_reserve'), r.len('zone.lowmem_reserve', 4)),
    nrFreePages: r.i64(z + r.off('zone.nr_free_pages')),
    nrFreeHighatomic: r.i64(z + r.off('zone.nr_free_highatomic')),
    nrReservedHighatomic: r.i64(z + r.off('zone.nr_reserved_highatomic')),
    pagesetBatch: r.i32(z + r.off('zone.pageset_batch')),
    pagesetHighMin: r.i32(z + r.off('zone.pageset_high_min')),
    pagesetHighMax: r.i32(z + r.off('zone.pageset_high_max')),
    nrZoneLru: [0, 1, 2, 3].map((l) => r.i64(z + r.off('zone.nr_zone_lru') + 8 * l)),
    flags: r.u32(z + r.off('zone.flags')),
    pgalloc: r.u64(z + r.off('zone.pgalloc')),
    lock: lockStats(r, z + r.off('zone.lock') + r.off('spinlock.stats')),
    lockPagesMoved: r.u64(z + r.off('zone.lock_pages_moved')),
    numa: {
      hit: r.u64(z + r.off('zone.numa_hit')),
      miss: r.u64(z + r.off('zone.numa_miss')),
      foreign: r.u64(z + r.off('zone.numa_foreign')),
      local: r.u64(z + r.off('zone.numa_local')),
      other: r.u64(z + r.off('zone.numa_other')),
    },
    minUnmappedPages: r.i64(z + r.off('zone.min_unmapped_pages')),
    freeArea: Array.from({ length: maxOrder + 1 }, (_, order) => {
      const fa = z + r.off('zone.free_area') + order * L.sizeOf('free_area');
      return {
        nrFree: r.u32(fa + r.off('free_area.nr_free')),
        count: r.u32s(fa + r.off('free_area.count'), nrTypes),
        head: r.u32s(fa + r.off('free_area.head'), nrTypes),
      };
    }),
  };
}

function nodesOf(r: Reader): NodeState[] {
  const L = r.sim.core.layout;
  const base = r.sim.address;
  const maxOrder = r.u8At(r.config('sim_config.max_order'));
  const nodes: NodeState[] = [];
  for (let nid = 0; nid < nrNodes(r); nid++) {
    const n = base + r.u32(base + r.off('sim.nodes_off')) + nid * L.sizeOf('node');
    const k = n + r.off('node.kswapd');
    const zonelist: { node: number; zone: number }[] = [];
    const len = r.u16(n + r.off('node.zonelist_len'));
    for (let k = 0; k < len; k++) {
      const at = n + r.off('node.zonelist') + 2 * k;
      zonelist.push({ node: r.u8At(at), zone: r.u8At(at + 1) });
    }
    const zones: ZoneState[] = [];
    for (let zid = 0; zid < MAX_NR_ZONES; zid++) {
      const zone = readZone(r, n, nid, zid, maxOrder);
      if (zone.managed > 0) zones.push(zone);
    }
    nodes.push({
      id: nid,
      firstCpu: r.u16(n + r.off('node.first_cpu')),
      nrCpus: r.u16(n + r.off('node.nr_cpus')),
      kswapdAwake: r.u8At(n + r.off('node.kswapd_awake')) !== 0,
      kswapdWakeups: r.u64(n + r.off('node.kswapd_wakeups')),
      lru: [0, 1, 2, 3].map((l) =>
        r.i64(n + r.off('node.lruvec') + r.off('lruvec.nr_pages') + 8 * l),
      ),
      kswapd: {
        running: r.u8At(k + r.off('kswapd.running')) !== 0,
        priority: r.u8At(k + r.off('kswapd.priority')),
        nrToReclaim: r.i64(k + r.off('kswapd.nr_to_reclaim')),
        nrScanned: r.i64(k + r.off('kswapd.nr_scanned')),
        nrReclaimed: r.i64(k + r.off('kswapd.nr_reclaimed')),
        rounds: r.u64(k + r.off('kswapd.rounds')),
      },
      zonelist,
      zonelistOrder: r.u8At(n + r.off('node.zonelist_order')),
      zlc: {
        full: zonelist.map((_, slot) => {
          const word = n + r.off('node.zlc') + r.off('zonelist_cache.fullzones') + 8 * (slot >> 6);
          // bit (slot % 64) of a little-endian u64 word: byte slot % 64 >> 3, bit slot % 8
          return ((r.u8At(word + ((slot & 63) >> 3)) >> (slot & 7)) & 1) === 1;
        }),
        lastFullZap: r.u64(n + r.off('node.zlc') + r.off('zonelist_cache.last_full_zap')),
      },
      distance: Array.from({ length: nrNodes(r) }, (_, o) =>
        r.u8At(n + r.off('node.distance') + o),
      ),
      minUnmappedPages: r.i64(n + r.off('node.min_unmapped_pages')),
      zones,
    });
  }
  return nodes;
}

/** Every node with its populated zones. */
export function readNodes(sim: Sim): NodeState[] {
  return nodesOf(new Reader(sim));
}

/**
 * The pcp of every CPU for every populated zone: struct per_cpu_pages [cpu][pcp slot], where the
 * populated zones take slots 0, 1, ... node by node (sim.nr_pcp_zones per CPU, base/state.h).
 */
export function readPcps(sim: Sim, nodes: NodeState[]): PcpState[] {
  const r = new Reader(sim);
  const L = sim.core.layout;
  const base = sim.address;
  const nrCpus = r.u32(base + r.off('sim.nr_cpus'));
  const perCpu = r.u32(base + r.off('sim.nr_pcp_zones'));
  const nrLists = r.u8At(base + r.off('sim.profile') + r.off('sim_profile.nr_pcp_lists'));
  const pcpAt = base + r.u32(base + r.off('sim.pcp_off'));
  const out: PcpState[] = [];
  for (let cpu = 0; cpu < nrCpus; cpu++) {
    let slot = 0;
    for (const node of nodes) {
      for (const z of node.zones) {
        const p = pcpAt + (cpu * perCpu + slot++) * L.sizeOf('per_cpu_pages');
        out.push({
          cpu,
          node: node.id,
          zone: z.idx,
          count: r.i32(p + r.off('per_cpu_pages.count')),
          high: r.i32(p + r.off('per_cpu_pages.high')),
          highMin: r.i32(p + r.off('per_cpu_pages.high_min')),
          highMax: r.i32(p + r.off('per_cpu_pages.high_max')),
          batch: r.i32(p + r.off('per_cpu_pages.batch')),
          freeCount: r.i16(p + r.off('per_cpu_pages.free_count')),
          allocFactor: r.u8At(p + r.off('per_cpu_pages.alloc_factor')),
          freeFactor: r.u8At(p + r.off('per_cpu_pages.free_factor')),
          nrBlocks: r.u32s(p + r.off('per_cpu_pages.nr_blocks'), nrLists),
        });
      }
    }
  }
  return out;
}

/** Every CPU's counters. */
export function readCpus(sim: Sim): CpuState[] {
  const r = new Reader(sim);
  const base = sim.address;
  const size = sim.core.layout.sizeOf('cpu');
  const nrCpus = r.u32(base + r.off('sim.nr_cpus'));
  const cpusAt = base + r.u32(base + r.off('sim.cpus_off'));
  return Array.from({ length: nrCpus }, (_, id) => {
    const c = cpusAt + id * size;
    return {
      id,
      node: r.u16(c + r.off('cpu.node')),
      online: r.u8At(c + r.off('cpu.online')) !== 0,
      clockNs: r.u64(c + r.off('cpu.clock_ns')),
      pcpHits: r.u64(c + r.off('cpu.pcp_hits')),
      pcpRefills: r.u64(c + r.off('cpu.pcp_refills')),
      pcpFrees: r.u64(c + r.off('cpu.pcp_frees')),
      pcpDrains: r.u64(c + r.off('cpu.pcp_drains')),
      lockAcquisitions: r.u64(c + r.off('cpu.lock_acquisitions')),
      lockWaitNs: r.u64(c + r.off('cpu.lock_wait_ns')),
    };
  });
}

/** The machine-wide vm event counters. */
export function readVmCounters(sim: Sim): VmCounters {
  const r = new Reader(sim);
  const v = sim.address + r.off('sim.ev');
  return {
    pgalloc: Array.from({ length: r.len('vm_events.pgalloc', 8) }, (_, z) =>
      r.u64(v + r.off('vm_events.pgalloc') + 8 * z),
    ),
    pgfree: r.u64(v + r.off('vm_events.pgfree')),
    allocFail: r.u64(v + r.off('vm_events.alloc_fail')),
    pcpHit: r.u64(v + r.off('vm_events.pcp_hit')),
    pcpRefill: r.u64(v + r.off('vm_events.pcp_refill')),
    pcpDrainPages: r.u64(v + r.off('vm_events.pcp_drain_pages')),
    pcpBulkFrees: r.u64(v + r.off('vm_events.pcp_bulk_frees')),
    extfrag: r.u64(v + r.off('vm_events.extfrag')),
    pageblockClaimed: r.u64(v + r.off('vm_events.pageblock_claimed')),
    kswapdWakeups: r.u64(v + r.off('vm_events.kswapd_wakeups')),
    badPage: r.u64(v + r.off('vm_events.bad_page')),
    pgscanKswapd: r.u64(v + r.off('vm_events.pgscan_kswapd')),
    pgscanDirect: r.u64(v + r.off('vm_events.pgscan_direct')),
    pgstealDirect: r.u64(v + r.off('vm_events.pgsteal_direct')),
    zoneReclaimSuccess: r.u64(v + r.off('vm_events.zone_reclaim_success')),
    zoneReclaimFailed: r.u64(v + r.off('vm_events.zone_reclaim_failed')),
    nodeReclaimCalls: r.u64(v + r.off('vm_events.node_reclaim_calls')),
    zlcSkips: r.u64(v + r.off('vm_events.zlc_skips')),
  };
}

const BLOCK_WHOLE = 0xffffffff;
const TWO32 = 2 ** 32;

/**
 * Where pfn's struct page lies in the wasm heap: base/state.h's frame_at in TypeScript. A block
 * with a slab has an entry in the per-block table that, added to pfn * sizeof(struct page) modulo
 * 2^32, is its record's offset in the arena; a whole block (BLOCK_WHOLE) has its head in the table
 * of heads and every other frame reads as the one clean tail the core keeps (sim.whole_tail).
 */
function frameLocator(sim: Sim, r: Reader): (pfn: number) => number {
  const base = sim.address;
  const L = sim.core.layout;
  const stride = L.sizeOf('page');
  const shift = r.u8At(r.config('sim_config.max_order'));
  const blockPages = 2 ** shift;
  const nrBlocks = r.u32(base + r.off('sim.nr_frame_stamps'));
  const entries = new Uint32Array(
    sim.core.mod.HEAPU8.buffer,
    base + r.u32(base + r.off('sim.block_frames_off')),
    nrBlocks,
  );
  const headsAt = base + r.u32(base + r.off('sim.block_heads_off'));
  const tailAt = base + r.off('sim.whole_tail');
  return (pfn) => {
    const block = Math.floor(pfn / blockPages);
    const entry = entries[block] ?? BLOCK_WHOLE;
    if (entry !== BLOCK_WHOLE) return base + ((entry + pfn * stride) % TWO32);
    return pfn % blockPages ? tailAt : headsAt + block * stride;
  };
}

/** Frame i (struct page; managed frames counted zone by zone in node order) decoded, or undefined past the last frame. */
export function readFrames(sim: Sim, i: number): FrameState | undefined {
  const r = new Reader(sim);
  const base = sim.address;
  if (i < 0 || i >= r.u32(base + r.off('sim.nr_frames'))) return undefined;
  let pfn = -1;
  for (const n of nodesOf(r))
    for (const z of n.zones) {
      if (pfn < 0 && i < z.managed) pfn = z.memPfn + i;
      else if (pfn < 0) i -= z.managed;
    }
  if (pfn < 0) return undefined;
  const f = frameLocator(sim, r)(pfn);
  return {
    next: r.u32(f + r.off('page.next')),
    state: r.u8At(f + r.off('page.state')),
    order: r.u8At(f + r.off('page.order')),
    list: r.u8At(f + r.off('page.list')),
    flags: r.u8At(f + r.off('page.flags')),
    cpu: r.u16(f + r.off('page.cpu')),
  };
}

/** The arena and the frame pool's use (state.ts MemoryUse). */
function readMemoryUse(sim: Sim, r: Reader): MemoryUse {
  const base = sim.address;
  const blockPages = 2 ** r.u8At(r.config('sim_config.max_order'));
  return {
    arenaBytes: sim.size(),
    fixedBytes: r.u32(base + r.off('sim.pool_off')),
    slabBytes: blockPages * (sim.core.layout.sizeOf('page') + 4),
    slabsUsed: r.u32(base + r.off('sim.slabs_used')),
    slabsPeak: r.u32(base + r.off('sim.slabs_peak')),
    nrSlabs: r.u32(base + r.off('sim.nr_slabs')),
  };
}

/** Everything the views draw. Frames and pageblock tags are views over wasm memory, valid until the next call into the core. */
export function readModelState(sim: Sim): ModelState {
  const r = new Reader(sim);
  const L = sim.core.layout;
  const base = sim.address;
  const prof = base + r.off('sim.profile');
  const nodes = nodesOf(r);
  const nrFrames = r.u32(base + r.off('sim.nr_frames'));
  const stride = L.sizeOf('page');
  const pageblocksAt = base + r.u32(base + r.off('sim.pageblocks_off'));
  const nrPageblocks = r.u32(base + r.off('sim.nr_pageblocks'));
  const heap = sim.core.mod.HEAPU8;
  const stampsAt = base + r.u32(base + r.off('sim.frame_stamps_off'));
  const nrStamps = r.u32(base + r.off('sim.nr_frame_stamps'));
  const groupStampsAt = base + r.u32(base + r.off('sim.frame_group_stamps_off'));
  const nrGroups = Math.ceil(nrStamps / FRAME_STAMP_GROUP);
  return {
    op: r.u32(base + r.off('sim.op_seq')),
    profile: sim.core.string(prof + r.off('sim_profile.name'), L.size('sim_profile.name')),
    profileId: r.u8At(prof + r.off('sim_profile.id')),
    nrPcpLists: r.u8At(prof + r.off('sim_profile.nr_pcp_lists')),
    maxOrder: r.u8At(r.config('sim_config.max_order')),
    pageblockOrder: r.u8At(r.config('sim_config.pageblock_order')),
    pageblockNrPages: r.u32(base + r.off('sim.pageblock_nr_pages')),
    nrCpus: r.u32(base + r.off('sim.nr_cpus')),
    nodes,
    pcps: readPcps(sim, nodes),
    cpus: readCpus(sim),
    vm: readVmCounters(sim),
    frames: {
      count: nrFrames,
      bytes: heap,
      stride,
      at: frameLocator(sim, r),
      off: {
        state: r.off('page.state'),
        order: r.off('page.order'),
        list: r.off('page.list'),
        cpu: r.off('page.cpu'),
        flags: r.off('page.flags'),
        next: r.off('page.next'),
        prev: r.off('page.prev'),
      },
      paint: (image, start, count, lut) => sim.paintFrames(image, start, count, lut),
      live: () => !sim.disposed,
      owner: sim,
      heap: () => sim.core.mod.HEAPU8,
      stamps: () => new Uint32Array(sim.core.mod.HEAPU8.buffer, stampsAt, 2 * nrStamps),
      groupStamps: () => new Uint32Array(sim.core.mod.HEAPU8.buffer, groupStampsAt, 2 * nrGroups),
    },
    memory: readMemoryUse(sim, r),
    pageblocks: new Uint8Array(heap.buffer, pageblocksAt, nrPageblocks),
    frozen: r.u32(base + r.off('sim.frozen')) !== 0,
    eventsDropped: r.u32(base + r.off('sim.events_dropped')),
    percpu: sim.core.mod._bs_percpu_region(base) ? new PercpuReader(sim).state() : null,
    fault: sim.core.mod._bs_fault_region(base)
      ? new FaultReader(sim).state(r.u32(base + r.off('sim.nr_cpus')))
      : null,
  };
}
