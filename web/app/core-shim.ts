/*
 * core-shim.ts: a STAND-IN for web/core's Sim until that binding lands: just enough of the
 * generated module to drive the player (Engine) and read the ModelState the views draw. It reads
 * every offset from the layout the wasm publishes (layout.def), never from constants, and will be
 * replaced by an adapter over web/core's Sim; nothing else in the app imports the module directly.
 */
import createBuddyscope, { type BuddyscopeModule } from '../core/generated/buddyscope.mjs';
import { LAYOUT_INDEX, type LayoutField } from '../core/generated/layout';
import { PROFILE_NAMES, ZONE_NAMES, type MachineConfig } from '../core/machine-config';
import type { SimOp } from '../core/ops';
import type { Engine, SimEvent } from '../player/engine';
import type { ModelState, NodeState, PcpState, ZoneState } from '../views/model';

const MAX_NR_ZONES = 5;
const MIGRATE_TYPES = 5;
const NR_WMARK = 4;

/* struct order of bs_struct_sizes (glue.c) */
const S = { sim: 0, config: 1, zone_config: 2, profile: 3, node: 4, zone: 5, lock: 6, free_area: 7, pcp: 8, cpu: 9, page: 10, handle: 11, vm: 12, event: 13, op: 14 } as const;

export interface CoreSim extends Engine {
  readState(op: number): ModelState;
  proc(file: 'buddyinfo' | 'pagetypeinfo' | 'zoneinfo' | 'vmstat'): string;
  destroy(): void;
}

export interface Core {
  create(config: MachineConfig): CoreSim;
}

let modulePromise: Promise<BuddyscopeModule> | null = null;

/** Load the module once (the app shares one instance; each Sim is its own arena in it). */
export function loadCoreShim(options?: { wasmBinary?: Uint8Array }): Promise<Core> {
  modulePromise ??= createBuddyscope(options ?? {});
  return modulePromise.then((mod) => new ShimCore(mod));
}

class ShimCore implements Core {
  readonly off: Uint32Array;
  readonly sizes: Uint32Array;
  constructor(readonly mod: BuddyscopeModule) {
    const n = mod._bs_layout_count();
    this.off = mod.HEAPU32.slice(mod._bs_layout_offsets() >> 2, (mod._bs_layout_offsets() >> 2) + n);
    const sn = mod._bs_struct_count();
    this.sizes = mod.HEAPU32.slice(mod._bs_struct_sizes() >> 2, (mod._bs_struct_sizes() >> 2) + sn);
  }
  o(f: LayoutField): number {
    return this.off[LAYOUT_INDEX[f]] ?? 0;
  }
  size(i: number): number {
    return this.sizes[i] ?? 0;
  }
  create(config: MachineConfig): CoreSim {
    return new ShimSim(this, config);
  }
}

function cstr(mod: BuddyscopeModule, s: string): number {
  const n = new TextEncoder().encode(s).length + 1;
  const p = mod._malloc(n);
  mod.stringToUTF8(s, p, n);
  return p;
}

class ShimSim implements CoreSim {
  private readonly mod: BuddyscopeModule;
  private ptr: number;
  private readonly size: number;
  private readonly eventsOff: number;
  private textBuf = 0;
  private textCap = 0;

  constructor(
    private readonly core: ShimCore,
    config: MachineConfig,
  ) {
    const mod = core.mod;
    this.mod = mod;
    const cfg = mod._bs_config_new();
    if (config.machine.kind !== 'preset') throw new Error('core-shim: explicit machines wait for web/core');
    const name = cstr(mod, config.machine.name);
    const rc = mod._bs_config_preset(cfg, name);
    mod._free(name);
    if (rc !== 0) throw new Error(`no machine preset "${config.machine.name}"`);
    const dv = new DataView(mod.HEAPU8.buffer);
    mod.HEAPU8[cfg + core.o('sim_config.profile')] = Math.max(0, PROFILE_NAMES.indexOf(config.profile ?? '6.18'));
    if (config.seed !== undefined) dv.setBigUint64(cfg + core.o('sim_config.seed'), config.seed, true);
    // Snapshots copy the arena: keep the handle table and the event buffer no bigger than needed.
    dv.setUint32(cfg + core.o('sim_config.max_handles'), Math.max(64, config.maxHandles ?? 4096), true);
    dv.setUint32(cfg + core.o('sim_config.event_capacity'), config.eventCapacity ?? 16384, true);
    this.ptr = mod._bs_create(cfg);
    mod._bs_free(cfg);
    if (!this.ptr) throw new Error(`bs_create failed (error ${mod._bs_last_error()})`);
    this.size = mod._bs_arena_size(this.ptr);
    this.eventsOff = this.u32(core.o('sim.events_off'));
  }

  private get dv(): DataView {
    return new DataView(this.mod.HEAPU8.buffer); // re-acquired: memory may have grown
  }
  private u32(at: number): number {
    return this.dv.getUint32(this.ptr + at, true);
  }

  apply(op: SimOp): number {
    return this.mod._bs_apply(this.ptr, op.kind, op.cpu, op.order, op.gfp >>> 0, op.handle >>> 0, op.arg | 0);
  }
  eventCount(): number {
    return this.u32(this.core.o('sim.nr_events'));
  }
  eventKind(i: number): number {
    return this.mod.HEAPU8[this.ptr + this.eventsOff + i * this.core.size(S.event) + this.core.o('sim_event.kind')] ?? 0;
  }
  events(from = 0, to = this.eventCount()): SimEvent[] {
    const c = this.core;
    const dv = this.dv;
    const u8 = this.mod.HEAPU8;
    const out: SimEvent[] = [];
    for (let i = from; i < to; i++) {
      const b = this.ptr + this.eventsOff + i * c.size(S.event);
      out.push({
        seq: dv.getUint32(b + c.o('sim_event.seq'), true),
        op: dv.getUint32(b + c.o('sim_event.op'), true),
        pfn: dv.getUint32(b + c.o('sim_event.pfn'), true),
        a: dv.getInt32(b + c.o('sim_event.a'), true),
        b: dv.getInt32(b + c.o('sim_event.b'), true),
        c: dv.getInt32(b + c.o('sim_event.c'), true),
        cpu: dv.getUint16(b + c.o('sim_event.cpu'), true),
        kind: u8[b + c.o('sim_event.kind')] ?? 0,
        node: u8[b + c.o('sim_event.node')] ?? 0,
        zone: u8[b + c.o('sim_event.zone')] ?? 0,
        order: u8[b + c.o('sim_event.order')] ?? 0,
        mt: u8[b + c.o('sim_event.mt')] ?? 0,
        fn: u8[b + c.o('sim_event.fn')] ?? 0,
      });
    }
    return out;
  }
  clearEvents(): void {
    this.mod._bs_events_clear(this.ptr);
  }
  snapshot(): Uint8Array {
    // The event buffer is not state: a restore clears it, so it is not copied.
    return this.mod.HEAPU8.slice(this.ptr, this.ptr + this.eventsOff);
  }
  restore(snap: Uint8Array): void {
    this.mod.HEAPU8.set(snap, this.ptr);
    this.clearEvents();
  }
  destroy(): void {
    if (this.ptr) this.mod._bs_free(this.ptr);
    if (this.textBuf) this.mod._free(this.textBuf);
    this.ptr = 0;
  }

  proc(file: 'buddyinfo' | 'pagetypeinfo' | 'zoneinfo' | 'vmstat'): string {
    const which = ['buddyinfo', 'pagetypeinfo', 'zoneinfo', 'vmstat'].indexOf(file);
    for (;;) {
      if (!this.textBuf) {
        this.textCap = Math.max(this.textCap, 65536);
        this.textBuf = this.mod._malloc(this.textCap);
      }
      const need = this.mod._bs_proc_render(this.ptr, which, this.textBuf, this.textCap);
      if (need < this.textCap) return this.mod.UTF8ToString(this.textBuf, need);
      this.mod._free(this.textBuf);
      this.textBuf = 0;
      this.textCap = need + 1;
    }
  }

  readState(op: number): ModelState {
    const c = this.core;
    const dv = this.dv;
    const u8 = this.mod.HEAPU8;
    const base = this.ptr;
    const cfg = base + c.o('sim.config');
    const nrNodes = u8[cfg + c.o('sim_config.nr_nodes')] ?? 1;
    const maxOrder = u8[cfg + c.o('sim_config.max_order')] ?? 0;
    const prof = base + c.o('sim.profile');
    const profileId = u8[prof + c.o('sim_profile.id')] ?? 0;
    const nrPcpLists = u8[prof + c.o('sim_profile.nr_pcp_lists')] ?? 0;
    const nrCpus = dv.getUint32(base + c.o('sim.nr_cpus'), true);
    const i64 = (at: number) => Number(dv.getBigInt64(at, true));
    const u64 = (at: number) => Number(dv.getBigUint64(at, true));
    const i32s = (at: number, n: number) => Array.from({ length: n }, (_, k) => dv.getInt32(at + 4 * k, true));

    const nodes: NodeState[] = [];
    for (let n = 0; n < nrNodes; n++) {
      const nb = base + c.o('sim.nodes') + n * c.size(S.node);
      const zl: { node: number; zone: number }[] = [];
      const len = u8[nb + c.o('node.zonelist_len')] ?? 0;
      for (let k = 0; k < len; k++) {
        zl.push({ node: u8[nb + c.o('node.zonelist') + 2 * k] ?? 0, zone: u8[nb + c.o('node.zonelist') + 2 * k + 1] ?? 0 });
      }
      const zones: ZoneState[] = [];
      for (let z = 0; z < MAX_NR_ZONES; z++) {
        const zb = nb + c.o('node.zones') + z * c.size(S.zone);
        const managed = dv.getUint32(zb + c.o('zone.managed'), true);
        if (managed === 0) continue;
        const wm = i32s(zb + c.o('zone._watermark'), NR_WMARK);
        const lk = zb + c.o('zone.lock');
        const freeArea = Array.from({ length: maxOrder + 1 }, (_, k) => {
          const fb = zb + c.o('zone.free_area') + k * c.size(S.free_area);
          return {
            nrFree: dv.getUint32(fb + c.o('free_area.nr_free'), true),
            count: Array.from({ length: MIGRATE_TYPES }, (_, m) => dv.getUint32(fb + c.o('free_area.count') + 4 * m, true)),
          };
        });
        zones.push({
          node: n,
          idx: z,
          name: ZONE_NAMES[z] ?? `zone ${z}`,
          startPfn: dv.getUint32(zb + c.o('zone.start_pfn'), true),
          spanned: dv.getUint32(zb + c.o('zone.spanned'), true),
          present: dv.getUint32(zb + c.o('zone.present'), true),
          managed,
          memPfn: dv.getUint32(zb + c.o('zone.mem_pfn'), true),
          frameBase: dv.getUint32(zb + c.o('zone.frame_base'), true),
          pageblockBase: dv.getUint32(zb + c.o('zone.pageblock_base'), true),
          nrPageblocks: dv.getUint32(zb + c.o('zone.nr_pageblocks'), true),
          watermark: { min: wm[0] ?? 0, low: wm[1] ?? 0, high: wm[2] ?? 0, promo: wm[3] ?? 0 },
          boost: dv.getInt32(zb + c.o('zone.watermark_boost'), true),
          lowmemReserve: i32s(zb + c.o('zone.lowmem_reserve'), MAX_NR_ZONES),
          nrFree: i64(zb + c.o('zone.nr_free_pages')),
          nrFreeHighatomic: i64(zb + c.o('zone.nr_free_highatomic')),
          nrReservedHighatomic: i64(zb + c.o('zone.nr_reserved_highatomic')),
          batch: dv.getInt32(zb + c.o('zone.pageset_batch'), true),
          highMin: dv.getInt32(zb + c.o('zone.pageset_high_min'), true),
          highMax: dv.getInt32(zb + c.o('zone.pageset_high_max'), true),
          flags: dv.getUint32(zb + c.o('zone.flags'), true),
          pgalloc: u64(zb + c.o('zone.pgalloc')),
          lock: {
            acquisitions: u64(lk + c.o('zone_lock_stats.acquisitions')),
            holdNs: u64(lk + c.o('zone_lock_stats.hold_ns')),
            waitNs: u64(lk + c.o('zone_lock_stats.wait_ns')),
            pagesMoved: u64(lk + c.o('zone_lock_stats.pages_moved')),
          },
          freeArea,
        });
      }
      nodes.push({
        id: n,
        firstCpu: dv.getUint16(nb + c.o('node.first_cpu'), true),
        nrCpus: dv.getUint16(nb + c.o('node.nr_cpus'), true),
        kswapdAwake: (u8[nb + c.o('node.kswapd_awake')] ?? 0) !== 0,
        kswapdWakeups: u64(nb + c.o('node.kswapd_wakeups')),
        zonelist: zl,
        zones,
      });
    }

    const pcpOff = base + dv.getUint32(base + c.o('sim.pcp_off'), true);
    const pcps: PcpState[] = [];
    for (let cpu = 0; cpu < nrCpus; cpu++) {
      for (const node of nodes) {
        for (const z of node.zones) {
          const pb = pcpOff + ((cpu * nrNodes + node.id) * MAX_NR_ZONES + z.idx) * c.size(S.pcp);
          pcps.push({
            cpu,
            node: node.id,
            zone: z.idx,
            count: dv.getInt32(pb + c.o('per_cpu_pages.count'), true),
            high: dv.getInt32(pb + c.o('per_cpu_pages.high'), true),
            highMin: dv.getInt32(pb + c.o('per_cpu_pages.high_min'), true),
            highMax: dv.getInt32(pb + c.o('per_cpu_pages.high_max'), true),
            batch: dv.getInt32(pb + c.o('per_cpu_pages.batch'), true),
            freeCount: dv.getInt16(pb + c.o('per_cpu_pages.free_count'), true),
            allocFactor: u8[pb + c.o('per_cpu_pages.alloc_factor')] ?? 0,
            freeFactor: u8[pb + c.o('per_cpu_pages.free_factor')] ?? 0,
            nrBlocks: Array.from({ length: nrPcpLists }, (_, k) => dv.getUint32(pb + c.o('per_cpu_pages.nr_blocks') + 4 * k, true)),
          });
        }
      }
    }

    const cpus = Array.from({ length: nrCpus }, (_, i) => {
      const cb = base + c.o('sim.cpus') + i * c.size(S.cpu);
      return {
        id: i,
        node: dv.getUint16(cb + c.o('cpu.node'), true),
        online: (u8[cb + c.o('cpu.online')] ?? 0) !== 0,
        clockNs: u64(cb + c.o('cpu.clock_ns')),
        pcpHits: u64(cb + c.o('cpu.pcp_hits')),
        pcpRefills: u64(cb + c.o('cpu.pcp_refills')),
        pcpFrees: u64(cb + c.o('cpu.pcp_frees')),
        pcpDrains: u64(cb + c.o('cpu.pcp_drains')),
        lockAcquisitions: u64(cb + c.o('cpu.lock_acquisitions')),
        lockWaitNs: u64(cb + c.o('cpu.lock_wait_ns')),
      };
    });

    const vb = base + c.o('sim.ev');
    const vm = {
      pgalloc: Array.from({ length: MAX_NR_ZONES }, (_, z) => u64(vb + c.o('vm_events.pgalloc') + 8 * z)),
      pgfree: u64(vb + c.o('vm_events.pgfree')),
      allocFail: u64(vb + c.o('vm_events.alloc_fail')),
      pcpHit: u64(vb + c.o('vm_events.pcp_hit')),
      pcpRefill: u64(vb + c.o('vm_events.pcp_refill')),
      pcpDrainPages: u64(vb + c.o('vm_events.pcp_drain_pages')),
      pcpBulkFrees: u64(vb + c.o('vm_events.pcp_bulk_frees')),
      extfrag: u64(vb + c.o('vm_events.extfrag')),
      pageblockClaimed: u64(vb + c.o('vm_events.pageblock_claimed')),
      kswapdWakeups: u64(vb + c.o('vm_events.kswapd_wakeups')),
      badPage: u64(vb + c.o('vm_events.bad_page')),
    };

    const nrFrames = dv.getUint32(base + c.o('sim.nr_frames'), true);
    const framesAt = base + dv.getUint32(base + c.o('sim.frames_off'), true);
    const pbAt = base + dv.getUint32(base + c.o('sim.pageblocks_off'), true);
    const nrPb = dv.getUint32(base + c.o('sim.nr_pageblocks'), true);
    const stride = c.size(S.page);
    const profileName = this.mod.UTF8ToString(prof + c.o('sim_profile.name'), 16);
    return {
      op,
      profile: profileName,
      profileId,
      nrPcpLists,
      maxOrder,
      pageblockOrder: u8[cfg + c.o('sim_config.pageblock_order')] ?? 0,
      pageblockNrPages: dv.getUint32(base + c.o('sim.pageblock_nr_pages'), true),
      nrCpus,
      nodes,
      pcps,
      cpus,
      vm,
      frames: {
        count: nrFrames,
        bytes: new Uint8Array(this.mod.HEAPU8.buffer, framesAt, nrFrames * stride),
        stride,
        off: { state: c.o('page.state'), order: c.o('page.order'), list: c.o('page.list'), cpu: c.o('page.cpu'), flags: c.o('page.flags') },
      },
      pageblocks: new Uint8Array(this.mod.HEAPU8.buffer, pbAt, nrPb),
      frozen: dv.getUint32(base + c.o('sim.frozen'), true) !== 0,
      eventsDropped: dv.getUint32(base + c.o('sim.events_dropped'), true),
    };
  }
}
