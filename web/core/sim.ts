/*
 * sim.ts: one simulation over one arena in the wasm heap. Ops go down as the packed records an
 * OpList holds (applyAt, applyOps, runOps, replay: the bytes the compiler wrote), events
 * and state come back (events, proc, trace, the readers of state-reader.ts). Typed-array views over
 * wasm memory are detached when memory grows, so every read re-acquires its view after any call.
 */
import { PercpuReader } from './percpu-reader';
import type { SimEvent } from './events';
import { captureOps } from './capture-ops';
import { MAX_NR_ZONES, type MachineConfig } from './machine-config';
import { FrameImage, MAX_PAINT_SPANS, type FramePaint } from './frame-image';
import type { Core } from './module';
import { SIM_OP_SIZE, writeOp, type OpList, type SimOp } from './ops';
import { DEFAULT_PROFILE } from './default-profile';
import {
  copySnapshotPart,
  liveSegments,
  restoreSnapshot,
  segmentsBytes,
  type SnapshotGeometry,
} from './snapshot';
import {
  readCpus,
  readFrames,
  readModelState,
  readNodes,
  readPcps,
  readVmCounters,
} from './state-reader';
import type {
  CpuState,
  FrameState,
  ModelState,
  NodeState,
  PcpState,
  VmCounters,
  ZoneState,
} from './state';

/** enum proc_file of sim.h */
export const PROC_FILES = ['buddyinfo', 'pagetypeinfo', 'zoneinfo', 'vmstat', 'numastat'] as const;
export type ProcFile = (typeof PROC_FILES)[number];

/** enum sim_err of types.h, by value. */
export const SIM_ERRORS = [
  'SIM_OK',
  'SIM_ENOMEM',
  'SIM_EINVAL',
  'SIM_EBADCPU',
  'SIM_EBADHANDLE',
  'SIM_EBADPAGE',
  'SIM_ECORRUPT',
  'SIM_ECONFIG',
  'SIM_ENOSPACE',
] as const;

/** Ops copied into the heap per bs_apply_ops call: bounds the scratch buffer. */
const OPS_PER_CHUNK = 1 << 14;

export class Sim {
  private ptr: number;
  private readonly arenaSize: number;
  private readonly eventsOff: number;
  private readonly snapGeometry: SnapshotGeometry; // where the frame pool lies (snapshot.ts)
  private readonly eventSize: number;
  private scratch = 0;
  private scratchSize = 0;
  private opSlot = 0; // one struct sim_op in the heap, for ops applied one at a time
  private readonly fullImage = new FrameImage(); // frameClassesMapped's buffer, painted whole

  constructor(
    readonly core: Core,
    config: MachineConfig,
  ) {
    const mod = core.mod;
    const cfg = mod._bs_config_new();
    if (!cfg) throw new Error('wasm heap exhausted');
    try {
      this.writeConfig(cfg, config);
      this.ptr = mod._bs_create(cfg);
    } finally {
      mod._bs_free(cfg);
    }
    if (!this.ptr) {
      const err = mod._bs_last_error();
      throw new Error(
        err === 7
          ? 'the core refused the machine (SIM_ECONFIG): check nodes, CPUs, orders and zone spans'
          : `the core could not build the machine (${SIM_ERRORS[err] ?? err})`,
      );
    }
    this.arenaSize = mod._bs_arena_size(this.ptr);
    this.eventsOff = this.u32('sim.events_off');
    const maxOrderAt = core.layout.off('sim.config') + core.layout.off('sim_config.max_order');
    const blockPages = 2 ** this.view().getUint8(this.ptr + maxOrderAt);
    this.snapGeometry = {
      poolOff: this.u32('sim.pool_off'),
      poolOwnersOff: this.u32('sim.pool_owners_off'),
      slabBlocksOff: this.u32('sim.slab_blocks_off'),
      slabHighOff: core.layout.off('sim.slab_high'),
      nrSlabs: this.u32('sim.nr_slabs'),
      slabPageBytes: blockPages * core.layout.sizeOf('page'),
      slabOwnerBytes: blockPages * 4,
    };
    this.eventSize = core.layout.sizeOf('sim_event');
    if (config.machine.kind === 'explicit' && config.machine.captured) {
      // the captured state is part of the machine: the workload's ops and events count from 0 after it
      for (const op of captureOps(config.machine.captured)) {
        const rc = this.apply(op);
        if (rc !== 0) {
          const why = this.frozenReason();
          this.dispose();
          throw new Error(
            `the core refused the captured state (${SIM_ERRORS[rc] ?? rc}${why ? `: ${why}` : ''})`,
          );
        }
      }
      mod._bs_ops_restart(this.ptr);
    }
  }

  /** Byte address of the arena in the wasm heap (for readers and tests). */
  get address(): number {
    this.alive();
    return this.ptr;
  }

  /** A DataView over the whole heap, acquired now. */
  view(): DataView {
    return new DataView(this.core.mod.HEAPU8.buffer);
  }

  /** Whether dispose() has run: its arena (and every view over it) is gone. */
  get disposed(): boolean {
    return !this.ptr;
  }

  private alive(): void {
    if (!this.ptr) throw new Error('this Sim was disposed');
  }

  private u32(
    field:
      | 'sim.events_off'
      | 'sim.nr_events'
      | 'sim.events_dropped'
      | 'sim.frozen'
      | 'sim.op_seq'
      | 'sim.nr_frame_stamps'
      | 'sim.nr_cpus'
      | 'sim.pool_off'
      | 'sim.pool_owners_off'
      | 'sim.slab_blocks_off'
      | 'sim.nr_slabs',
  ): number {
    this.alive();
    return this.view().getUint32(this.ptr + this.core.layout.off(field), true);
  }

  private writeConfig(cfg: number, config: MachineConfig): void {
    const { mod, layout: L } = this.core;
    const m = config.machine;
    if (m.kind === 'preset') {
      const rc = this.core.withCString(m.name, (p) => mod._bs_config_preset(cfg, p));
      if (rc !== 0) throw new Error(`the core has no machine called "${m.name}"`);
    }
    const dv = this.view();
    const u8 = (field: Parameters<typeof L.off>[0], v: number) =>
      dv.setUint8(cfg + L.off(field), v);
    const i32 = (at: number, v: number) => dv.setInt32(at, v, true);
    if (m.kind === 'explicit') {
      u8('sim_config.nr_nodes', m.nodes);
      u8('sim_config.cpus_per_node', m.cpusPerNode);
      u8('sim_config.max_order', m.maxOrder);
      u8('sim_config.pageblock_order', m.pageblockOrder);
      u8('sim_config.thp', m.thp ? 1 : 0);
      if (m.batch) i32(cfg + L.off('sim_config.pcp_batch'), m.batch);
      if (m.swap) dv.setUint32(cfg + L.off('sim_config.swap_pages'), m.swap, true);
      // a captured machine's memory cgroups (reclaim/memcg.c); none: one root lruvec per node
      const memcgs = m.captured?.memcgs?.length ?? 0;
      if (memcgs) dv.setUint16(cfg + L.off('sim_config.max_memcgs'), memcgs, true);
      const zc = L.sizeOf('zone_config');
      m.zones.forEach((zones, nid) =>
        zones.forEach((z, zid) => {
          if (nid >= L.size('sim_config.zones') / zc / MAX_NR_ZONES || zid >= MAX_NR_ZONES) return;
          const at = cfg + L.off('sim_config.zones') + (nid * MAX_NR_ZONES + zid) * zc;
          dv.setUint32(at + L.off('zone_config.start_pfn'), z.startPfn, true);
          dv.setUint32(at + L.off('zone_config.spanned'), z.spanned, true);
          dv.setUint32(at + L.off('zone_config.present'), z.present, true);
          dv.setUint32(at + L.off('zone_config.managed'), z.managed, true);
        }),
      );
    }
    const profile = this.core.profileByName(config.profile ?? DEFAULT_PROFILE);
    if (profile < 0) throw new Error(`the core has no profile called "${config.profile ?? ''}"`);
    u8('sim_config.profile', profile);
    const t = config.tunables ?? {};
    if (t.minFreeKbytes !== undefined)
      i32(cfg + L.off('sim_config.min_free_kbytes'), t.minFreeKbytes);
    if (t.watermarkScaleFactor !== undefined)
      i32(cfg + L.off('sim_config.watermark_scale_factor'), t.watermarkScaleFactor);
    if (t.watermarkBoostFactor !== undefined)
      i32(cfg + L.off('sim_config.watermark_boost_factor'), t.watermarkBoostFactor);
    if (t.percpuPagelistHighFraction !== undefined) {
      i32(cfg + L.off('sim_config.percpu_pagelist_high_fraction'), t.percpuPagelistHighFraction);
    }
    if (t.zoneReclaimMode !== undefined)
      i32(cfg + L.off('sim_config.zone_reclaim_mode'), t.zoneReclaimMode);
    t.lowmemReserveRatio
      ?.slice(0, MAX_NR_ZONES)
      .forEach((v, zid) => i32(cfg + L.off('sim_config.lowmem_reserve_ratio') + 4 * zid, v));
    if (config.seed !== undefined)
      dv.setBigUint64(cfg + L.off('sim_config.seed'), BigInt.asUintN(64, config.seed), true);
    if (config.maxHandles !== undefined)
      dv.setUint32(cfg + L.off('sim_config.max_handles'), config.maxHandles, true);
    if (config.percpuHandles !== undefined)
      dv.setUint32(cfg + L.off('sim_config.percpu_handles'), config.percpuHandles, true);
    if (config.eventCapacity !== undefined)
      dv.setUint32(cfg + L.off('sim_config.event_capacity'), config.eventCapacity, true);
    if (config.percpuPeakKib !== undefined)
      dv.setUint32(cfg + L.off('sim_config.percpu_peak_kib'), config.percpuPeakKib, true);
    if (config.percpuStaticSize !== undefined)
      dv.setUint32(cfg + L.off('sim_config.percpu_static_size'), config.percpuStaticSize, true);
  }

  /** The heap address of the one-op slot (word-aligned: malloc aligns to 8 or more). */
  private slot(): number {
    if (!this.opSlot) {
      this.opSlot = this.core.mod._malloc(SIM_OP_SIZE);
      if (!this.opSlot) throw new Error('wasm heap exhausted');
    }
    return this.opSlot;
  }

  /** Apply op i of ops; returns enum sim_err (0 = SIM_OK; an error leaves the state unchanged). */
  applyAt(ops: OpList, i: number): number {
    this.alive();
    const at = this.slot();
    // HEAP32 after slot(): the malloc may have grown (and replaced) the heap.
    ops.copyTo(i, this.core.mod.HEAP32, at >>> 2);
    return this.core.mod._bs_apply_op(this.ptr, at);
  }

  /** Apply one op given as fields (tests and tools that build an op by hand); as applyAt. */
  apply(op: SimOp): number {
    this.alive();
    const at = this.slot();
    writeOp(this.view(), at, op);
    return this.core.mod._bs_apply_op(this.ptr, at);
  }

  /** Room for n bytes in the heap, reused between calls. */
  private scratchFor(n: number): number {
    if (n > this.scratchSize) {
      if (this.scratch) this.core.mod._free(this.scratch);
      this.scratch = this.core.mod._malloc(n);
      if (!this.scratch) throw new Error('wasm heap exhausted');
      this.scratchSize = n;
    }
    return this.scratch;
  }

  /** Copy ops [from, from + n) into the scratch buffer; returns its heap address. */
  private stage(ops: OpList, from: number, n: number): number {
    const buf = this.scratchFor(n * SIM_OP_SIZE);
    // The heap view after scratchFor: it may have grown memory.
    this.core.mod.HEAPU8.set(ops.records(from, from + n), buf);
    return buf;
  }

  /**
   * Apply ops in a few calls into the core; returns how many were applied (fewer when the state
   * froze). Events accumulate: mind the buffer's capacity, or use runOps.
   */
  applyOps(ops: OpList): number {
    this.alive();
    let done = 0;
    while (done < ops.length) {
      const n = Math.min(OPS_PER_CHUNK, ops.length - done);
      const applied = this.core.mod._bs_apply_ops(this.ptr, this.stage(ops, done, n), n);
      done += applied;
      if (applied < n) break;
    }
    return done;
  }

  /**
   * Apply ops one at a time and hand each op's events to onOp before clearing them, as the native
   * runner does, so no event is lost to a full buffer. Returns the ops applied.
   */
  runOps(ops: OpList, onOp: (index: number, err: number) => void): number {
    this.alive();
    for (let i = 0; i < ops.length; i++) {
      if (this.frozen()) return i;
      onOp(i, this.applyAt(ops, i));
      this.clearEvents();
    }
    return ops.length;
  }

  /**
   * Apply ops[from, to), clearing the events after each, and read nothing back: a replay to a
   * point the player already scanned. The records go down as they are, a chunk per call into the
   * core, because one call per op costs several times the op itself (a 65k-op replay on the
   * 1M-frame machine: ~24 ms op by op, ~7 ms in chunks).
   */
  replay(ops: OpList, from: number, to: number): void {
    this.alive();
    for (let at = from; at < to;) {
      const n = Math.min(OPS_PER_CHUNK, to - at);
      this.core.mod._bs_run_ops(this.ptr, this.stage(ops, at, n), n);
      at += n;
    }
  }

  /**
   * The class map of pfns [start, start + count) mapped through lut (enum frame_class -> a 32-bit
   * value, e.g. a colour), computed by the core in one pass over block heads. Returns a view of a
   * heap buffer reused by the next call: valid until the next call into the core.
   */
  frameClassesMapped(start: number, count: number, lut: Uint32Array): Uint32Array {
    this.fullImage.forget();
    return this.paintFrames(this.fullImage, start, count, lut).words;
  }

  /**
   * Bring image, the class map of pfns [start, start + count) through lut, up to date: every pixel
   * when it holds another Sim, window or palette; else only the blocks whose frame stamps differ
   * from those it was painted at, whatever moved the machine since (ops, restores, branches).
   */
  paintFrames(image: FrameImage, start: number, count: number, lut: Uint32Array): FramePaint {
    this.alive();
    const mod = this.core.mod;
    const classes = mod._bs_nr_frame_classes();
    if (lut.length !== classes) throw new Error(`frame class table: ${lut.length} != ${classes}`);
    // The buffer: the stamps seen (8-byte words first, for their alignment), the palette, the
    // spans, then the pixels.
    const lutOff = this.u32('sim.nr_frame_stamps') * 8;
    const spansOff = lutOff + classes * 4;
    const pixelsOff = spansOff + 2 * MAX_PAINT_SPANS * 4;
    const need = pixelsOff + count * 4;
    const h = image.held;
    const same =
      image.core === this.core &&
      image.bytes >= need &&
      h.owner === this &&
      h.start === start &&
      h.count === count &&
      !!h.lut &&
      h.lut.every((v, i) => v === lut[i]);
    if (!same) {
      if (image.core !== this.core || image.bytes < need) {
        image.free();
        image.ptr = mod._malloc(need);
        if (!image.ptr) throw new Error('wasm heap exhausted');
        image.core = this.core;
        image.bytes = need;
      }
      image.held = { owner: this, start, count, lut: lut.slice() };
      // A view after the malloc: it may have grown (and detached) the heap.
      new Uint32Array(mod.HEAPU8.buffer, image.ptr + lutOff, classes).set(lut);
    }
    const at = image.ptr;
    const n = mod._bs_frame_classes_repaint(
      this.ptr,
      at,
      same ? 0 : 1,
      start,
      count,
      at + lutOff,
      at + pixelsOff,
      at + spansOff,
      MAX_PAINT_SPANS,
    );
    const words = new Uint32Array(mod.HEAPU8.buffer, at + pixelsOff, count);
    if (!same) return { words, spans: null };
    const pairs = new Uint32Array(mod.HEAPU8.buffer, at + spansOff, 2 * n);
    const spans: [number, number][] = [];
    for (let k = 0; k < n; k++) spans.push([pairs[2 * k] ?? 0, pairs[2 * k + 1] ?? 0]);
    return { words, spans };
  }

  /** Events in the buffer (appended since the last clear). */
  eventCount(): number {
    return this.u32('sim.nr_events');
  }

  /** Events lost since the last clear because the buffer was full. */
  eventsDropped(): number {
    return this.u32('sim.events_dropped');
  }

  /** The kind (enum ev_kind) of buffered event i, without decoding the record. */
  eventKind(i: number): number {
    this.alive();
    const at =
      this.ptr + this.eventsOff + i * this.eventSize + this.core.layout.off('sim_event.kind');
    return this.core.mod.HEAPU8[at] ?? 0;
  }

  /** Decode buffered events [from, to). */
  events(from = 0, to = this.eventCount()): SimEvent[] {
    this.alive();
    const L = this.core.layout;
    const dv = this.view();
    const o = {
      seq: L.off('sim_event.seq'),
      op: L.off('sim_event.op'),
      pfn: L.off('sim_event.pfn'),
      a: L.off('sim_event.a'),
      b: L.off('sim_event.b'),
      c: L.off('sim_event.c'),
      cpu: L.off('sim_event.cpu'),
      kind: L.off('sim_event.kind'),
      node: L.off('sim_event.node'),
      zone: L.off('sim_event.zone'),
      order: L.off('sim_event.order'),
      mt: L.off('sim_event.mt'),
      fn: L.off('sim_event.fn'),
      srcFile: L.off('sim_event.src_file'),
      srcLine: L.off('sim_event.src_line'),
    };
    const out: SimEvent[] = [];
    const end = Math.min(to, this.eventCount());
    for (let i = Math.max(0, from); i < end; i++) {
      const e = this.ptr + this.eventsOff + i * this.eventSize;
      out.push({
        seq: dv.getUint32(e + o.seq, true),
        op: dv.getUint32(e + o.op, true),
        pfn: dv.getUint32(e + o.pfn, true),
        a: dv.getInt32(e + o.a, true),
        b: dv.getInt32(e + o.b, true),
        c: dv.getInt32(e + o.c, true),
        cpu: dv.getUint16(e + o.cpu, true),
        kind: dv.getUint8(e + o.kind),
        node: dv.getUint8(e + o.node),
        zone: dv.getUint8(e + o.zone),
        order: dv.getUint8(e + o.order),
        mt: dv.getUint8(e + o.mt),
        fn: dv.getUint8(e + o.fn),
        srcFile: dv.getUint16(e + o.srcFile, true),
        srcLine: dv.getUint16(e + o.srcLine, true),
      });
    }
    return out;
  }

  /** The raw struct sim_event records of the buffer (a copy), as the native runner writes them. */
  eventBytes(): Uint8Array {
    this.alive();
    const start = this.ptr + this.eventsOff;
    return this.core.mod.HEAPU8.slice(start, start + this.eventCount() * this.eventSize);
  }

  /** Forget the buffered events (their seq numbers keep counting). */
  clearEvents(): void {
    this.alive();
    this.core.mod._bs_events_clear(this.ptr);
  }

  /** Whether a corruption froze the state (every later op is refused). */
  frozen(): boolean {
    return this.u32('sim.frozen') !== 0;
  }

  /** Ops applied so far. */
  opCount(): number {
    return this.u32('sim.op_seq');
  }

  /** Why the state froze, in the core's words (the frame budget, a corruption), or null if it did not. */
  frozenReason(): string | null {
    if (!this.frozen()) return null;
    return this.core.string(this.core.mod._bs_error(this.ptr)) || null;
  }

  /** sim_check: null when every list, count and tag agrees with the frames, else what is wrong. */
  check(): string | null {
    this.alive();
    if (this.core.mod._bs_check(this.ptr) === 0) return null;
    return this.core.string(this.core.mod._bs_error(this.ptr)) || 'the state is corrupted';
  }

  /** Render text with a C renderer that returns the length it needs. */
  private render(fn: (buf: number, cap: number) => number): string {
    let cap = 1 << 16;
    for (;;) {
      const buf = this.scratchFor(cap);
      const need = fn(buf, this.scratchSize);
      if (need < this.scratchSize) return this.core.mod.UTF8ToString(buf, need);
      cap = need + 1;
    }
  }

  /** A /proc file in the kernel's format. */
  proc(which: ProcFile): string {
    this.alive();
    const id = PROC_FILES.indexOf(which);
    return this.render((buf, cap) => this.core.mod._bs_proc_render(this.ptr, id, buf, cap));
  }

  /** The percpu allocator's texts: the boot line, /sys/kernel/debug/percpu_stats, the meminfo line. */
  percpuText(which: 'boot' | 'percpu_stats' | 'meminfo'): string {
    this.alive();
    const id = which === 'boot' ? 0 : which === 'percpu_stats' ? 1 : 2;
    return this.render((buf, cap) => this.core.mod._bs_percpu_text(this.ptr, id, buf, cap));
  }

  /** A reader of the percpu allocator's state (views draw chunks, hints and maps from it). */
  percpu(): PercpuReader {
    this.alive();
    return new PercpuReader(this);
  }

  /** Buffered events [from, to) as ftrace text lines. */
  trace(from = 0, to = this.eventCount()): string {
    this.alive();
    return this.render((buf, cap) => this.core.mod._bs_trace_render(this.ptr, from, to, buf, cap));
  }

  /**
   * A copy of the state and nothing else (web/core/snapshot.ts): the fixed state and the frame
   * slabs in use. The buffered events are not state (a restore clears them), and a whole block's
   * frames are not stored at all, so a checkpoint costs what the workload touched.
   */
  snapshot(): Uint8Array {
    this.alive();
    const heap = this.core.mod.HEAPU8;
    const segs = liveSegments(heap, this.ptr, this.snapGeometry);
    const out = new Uint8Array(segmentsBytes(segs));
    copySnapshotPart(heap, this.ptr, segs, out, 0, out.length);
    return out;
  }

  /** Bytes of a snapshot of the state as it is now. */
  snapshotBytes(): number {
    return segmentsBytes(liveSegments(this.core.mod.HEAPU8, this.ptr, this.snapGeometry));
  }

  /** Bytes [from, to) of what snapshot() would return, copied into dst at the same offsets. */
  snapshotPart(dst: Uint8Array, from: number, to: number): void {
    this.alive();
    const heap = this.core.mod.HEAPU8;
    copySnapshotPart(
      heap,
      this.ptr,
      liveSegments(heap, this.ptr, this.snapGeometry),
      dst,
      from,
      to,
    );
  }

  /** Overwrite the state with a snapshot of this same machine; the event buffer is cleared. */
  restore(snapshot: Uint8Array): void {
    this.alive();
    restoreSnapshot(this.core.mod.HEAPU8, this.ptr, this.snapGeometry, snapshot);
    this.clearEvents();
  }

  /** Bytes of the arena (state, handles and event buffer). */
  size(): number {
    return this.arenaSize;
  }

  /** Everything the views draw, read now. */
  state(): ModelState {
    this.alive();
    return readModelState(this);
  }

  nodes(): NodeState[] {
    this.alive();
    return readNodes(this);
  }

  zone(node: number, zone: number): ZoneState | undefined {
    return this.nodes()[node]?.zones.find((z) => z.idx === zone);
  }

  pcps(): PcpState[] {
    this.alive();
    return readPcps(this, this.nodes());
  }

  cpus(): CpuState[] {
    this.alive();
    return readCpus(this);
  }

  vmCounters(): VmCounters {
    this.alive();
    return readVmCounters(this);
  }

  /** Frame i (struct page), decoded. */
  frame(i: number): FrameState | undefined {
    this.alive();
    return readFrames(this, i);
  }

  /** Free the arena; the Sim may not be used afterwards. */
  dispose(): void {
    if (this.scratch) this.core.mod._free(this.scratch);
    if (this.opSlot) this.core.mod._free(this.opSlot);
    this.fullImage.free();
    if (this.ptr) this.core.mod._bs_free(this.ptr);
    this.scratch = 0;
    this.scratchSize = 0;
    this.opSlot = 0;
    this.ptr = 0;
  }
}
