/*
 * compiler.ts: a Workload tree to what the core runs: a MachineConfig and the ops as packed
 * struct sim_op records (an OpList), the bytes every later layer passes on unchanged. Handle groups exist only here: each group is a stack of numeric handle ids chosen at
 * compile time, so `free NAME` pops the newest id and `free NAME *` emits the ids oldest first.
 * Freed ids are reused, so the core's handle table only needs as many entries as blocks are live
 * at once. Each `random` statement is a stream that owns a fixed range of the table (its header
 * slot and one slot per block it may hold, wasm-core/src/page_alloc/ops.c op_random); the streams' ranges come
 * first and the groups' ids after them. Every loop is bounded by MAX_OPS: an iteration of `repeat` that emits no op leaves the
 * groups as they were, so the remaining iterations would emit none either and are skipped.
 */
import { CAPTURE_FREE } from '../core/capture-ops';
import { gfpValue } from '../core/gfp';
import { DEFAULT_PROFILE } from '../core/default-profile';
import {
  machineCpuCount,
  machineMaxOrder,
  type ExplicitMachine,
  type MachineConfig,
  type PresetMachine,
  type ZoneSpan,
} from '../core/machine-config';
import { FREE_PCP_LOCKED, HANDLE_NONE, OpBuffer, OpKind, SysctlId, type SimOp } from '../core/ops';
import { addressSpaceFields } from './address-space';
import type {
  CapturedFolio,
  GfpSpec,
  MachineSpec,
  OpStmt,
  PercpuFreeOrder,
  SourceMap,
  SourcePos,
  SysctlSetting,
  Workload,
} from './ast';
import { PCP_TYPES, PURPOSES } from './ast';
import { fail, WorkloadFailure, type WorkloadError } from './errors';
import { formatCount } from '../core/count';
import { MAX_LIVE_BLOCKS, MAX_OPS } from './limits';
import { FOLIO_BATCH_SIZE, parseNumber } from './parser';

import type { CompiledProgram } from './program';
export { unpackProgram, type CompiledProgram, type PackedProgram } from './program';

/** Where a random stream lives in the handle table. */
interface RandomStream {
  base: number; // header slot: the core keeps the stream's live count there
  capacity: number; // blocks it may hold, in slots base + 1 .. base + capacity
}

/** Largest stream capacity OP_RANDOM can carry: arg = free percent | capacity << 7, a positive i32. */
const MAX_STREAM_CAPACITY = (1 << 24) - 1;

export type CompileResult =
  { ok: true; program: CompiledProgram } | { ok: false; error: WorkloadError };

export interface CompileOptions {
  positions?: SourceMap;
  machine?: PresetMachine | ExplicitMachine; // replaces the workload's own machine line
}

/** Compile a parsed workload; never throws on bad input. */
export function compileWorkload(w: Workload, options: CompileOptions = {}): CompileResult {
  try {
    return { ok: true, program: new Compiler(w, options).run() };
  } catch (e) {
    if (e instanceof WorkloadFailure) return { ok: false, error: e.error };
    throw e;
  }
}

/** The machine a `machine` line describes; zones of a node follow each other in pfn order. */
export function machineFromSpec(spec: MachineSpec | null): PresetMachine | ExplicitMachine {
  if (spec === null) return { kind: 'preset', name: 'tiny' };
  if (spec.kind === 'preset') return { kind: 'preset', name: spec.name };
  const zones: ZoneSpan[][] = [];
  let pfn = 0;
  for (let n = 0; n < spec.nodes; n++) {
    const sizes = [spec.dma, spec.dma32, spec.normal, spec.movable, 0];
    zones.push(
      sizes.map((size) => {
        if (size === 0) return { startPfn: 0, spanned: 0, present: 0, managed: 0 };
        const z = { startPfn: pfn, spanned: size, present: size, managed: size };
        pfn += size;
        return z;
      }),
    );
  }
  return {
    kind: 'explicit',
    nodes: spec.nodes,
    cpusPerNode: spec.cpus,
    maxOrder: spec.maxOrder,
    pageblockOrder: spec.pageblockOrder,
    thp: spec.thp,
    ...(spec.batch ? { batch: spec.batch } : {}),
    ...(spec.swap ? { swap: spec.swap } : {}),
    zones,
  };
}

/** The mask of flags as written (names or numbers, all validated by the parser). */
/** A captured free's gfp field (CAPTURE_FREE, OP_FREE_FOLIOS_CAPTURED): its list's type + 1, 0 unknown. */
function capturedType(f: CapturedFolio): number {
  return f.type !== undefined ? PCP_TYPES.indexOf(f.type) + 1 : 0;
}

export function gfpMask(spec: GfpSpec): number {
  let mask = 0;
  for (const f of spec) mask |= gfpValue(f) ?? parseNumber(f) ?? 0;
  return mask >>> 0;
}

/** The OP_SYSCTL records of one `set` NAME=VALUE. */
function sysctlOps(s: SysctlSetting): SimOp[] {
  const op = (id: number, v: number): SimOp => ({
    kind: OpKind.SYSCTL,
    order: 0,
    cpu: 0,
    gfp: 0,
    handle: id,
    arg: v,
  });
  switch (s.name) {
    case 'min_free_kbytes':
      return [op(SysctlId.MIN_FREE_KBYTES, s.values[0] ?? 0)];
    case 'watermark_scale_factor':
      return [op(SysctlId.WATERMARK_SCALE_FACTOR, s.values[0] ?? 0)];
    case 'watermark_boost_factor':
      return [op(SysctlId.WATERMARK_BOOST_FACTOR, s.values[0] ?? 0)];
    case 'percpu_pagelist_high_fraction':
      return [op(SysctlId.PERCPU_PAGELIST_HIGH_FRACTION, s.values[0] ?? 0)];
    case 'zone_reclaim_mode':
      return [op(SysctlId.ZONE_RECLAIM_MODE, s.values[0] ?? 0)];
    case 'min_unmapped_ratio':
      return [op(SysctlId.MIN_UNMAPPED_RATIO, s.values[0] ?? 0)];
    case 'min_slab_ratio':
      return [op(SysctlId.MIN_SLAB_RATIO, s.values[0] ?? 0)];
    case 'numa_zonelist_order':
      return [op(SysctlId.NUMA_ZONELIST_ORDER, s.values[0] ?? 0)];
    case 'lowmem_reserve_ratio':
      return s.values.map((v, zone) => op(SysctlId.LOWMEM_RESERVE_RATIO_DMA + zone, v));
  }
}

/**
 * The ids of a percpu group (oldest first) in the order a `percpu free` frees them: only the newest
 * (no order), oldest first, newest first, or the 1st, 3rd, 5th ... then the 2nd, 4th ...
 */
export function* percpuFreeOrder(
  stack: readonly number[],
  order: PercpuFreeOrder | null,
): Generator<number> {
  const n = stack.length;
  if (order === null) {
    if (n) yield stack[n - 1] ?? 0;
    return;
  }
  if (order === 'in-order') for (let i = 0; i < n; i++) yield stack[i] ?? 0;
  else if (order === 'reverse') for (let i = n - 1; i >= 0; i--) yield stack[i] ?? 0;
  else {
    for (let i = 0; i < n; i += 2) yield stack[i] ?? 0;
    for (let i = 1; i < n; i += 2) yield stack[i] ?? 0;
  }
}

class Compiler {
  private readonly out = new OpBuffer(1024);
  private lines = new Uint32Array(1024); // source line of each op
  private readonly groups = new Map<string, number[]>(); // live handle ids, oldest first
  private readonly percpuGroups = new Map<string, number[]>(); // live percpu handle ids, oldest first
  private readonly freeIds: number[] = []; // ids of freed blocks, reused newest first
  private nextId = 0;
  private live = 0;
  private percpuBytes = 0; // percpu bytes per unit held now (each area rounded up to its alignment)
  private percpuPeak = 0;
  private percpuHandles = 0; // the highest percpu handle id + 1: sizes the core's percpu handle table
  private readonly percpuSize = new Map<number, number>(); // handle id -> its rounded bytes
  private readonly streams = new Map<OpStmt, RandomStream>();
  private readonly machine: PresetMachine | ExplicitMachine;
  private readonly cpuCount: number;
  private readonly maxOrder: number;

  constructor(
    private readonly w: Workload,
    private readonly options: CompileOptions,
  ) {
    this.machine = options.machine ?? machineFromSpec(w.machine);
    this.cpuCount = machineCpuCount(this.machine);
    this.maxOrder = machineMaxOrder(this.machine);
  }

  run(): CompiledProgram {
    const machineAt = (this.w.machine && this.options.positions?.get(this.w.machine)) || {
      line: 1,
      col: 1,
    };
    for (const s of this.w.sets) for (const op of sysctlOps(s)) this.emit(op, machineAt);
    this.nextId = this.placeStreams(this.w.ops, 1, 0);
    this.block(this.w.ops);
    const config: MachineConfig = {
      machine: this.machine,
      profile: this.w.profile ?? DEFAULT_PROFILE,
      // handle slots used: the random streams' ranges, then the groups' ids
      maxHandles: Math.max(1, this.nextId),
      // percpu ids share that range; the core's percpu table needs only up to the highest (0: none)
      percpuHandles: this.percpuHandles,
    };
    if (this.percpuPeak) config.percpuPeakKib = Math.ceil(this.percpuPeak / 1024);
    if (this.w.seed !== null) config.seed = this.w.seed;
    return { config, ops: this.out.finish(), lines: this.lines.slice(0, this.out.length) };
  }

  /*
   * Give every random statement its range before any op is emitted: a stream keeps its blocks from
   * one run of the statement to the next (in a repeat), so its capacity is every step it will ever
   * take, capped where the workload would fail the op limit anyway. Returns the next free slot.
   */
  private placeStreams(stmts: OpStmt[], runs: number, next: number): number {
    for (const s of stmts) {
      if (s.kind === 'repeat') {
        next = this.placeStreams(s.body, Math.min(runs * s.count, MAX_OPS + 1), next);
      } else if (s.kind === 'random' && runs > 0) {
        const capacity = Math.max(1, Math.min(s.count * runs, MAX_OPS, MAX_STREAM_CAPACITY));
        this.streams.set(s, { base: next, capacity });
        next += capacity + 1;
      }
    }
    return next;
  }

  private pos(stmt: OpStmt): SourcePos {
    return this.options.positions?.get(stmt) ?? { line: 0, col: 0 };
  }

  private emit(op: SimOp, at: SourcePos): void {
    this.emitFields(op.kind, op.cpu, op.order, op.gfp, op.handle, op.arg, at);
  }

  /** Append one op; the field-by-field form allocates nothing, for millions of ops. */
  private emitFields(
    kind: OpKind,
    cpu: number,
    order: number,
    gfp: number,
    handle: number,
    arg: number,
    at: SourcePos,
  ): void {
    const n = this.out.length;
    if (n >= MAX_OPS)
      fail(at, `the workload expands to more than ${formatCount(MAX_OPS)} ops (the limit)`);
    this.out.pushFields(kind, cpu, order, gfp, handle, arg);
    if (n >= this.lines.length) {
      const grown = new Uint32Array(Math.min(MAX_OPS, Math.max(1024, this.lines.length * 2)));
      grown.set(this.lines);
      this.lines = grown;
    }
    this.lines[n] = at.line;
  }

  /** A handle id for one more live block or percpu area (both share the core's handle count). */
  private newId(at: SourcePos): number {
    if (this.live >= MAX_LIVE_BLOCKS) {
      fail(
        at,
        `more than ${formatCount(MAX_LIVE_BLOCKS)} live blocks in all handle groups (the limit): free some`,
      );
    }
    this.live++;
    return this.freeIds.pop() ?? this.nextId++;
  }

  private block(stmts: OpStmt[]): void {
    for (const s of stmts) this.statement(s);
  }

  private checkCpu(cpu: number, at: SourcePos): void {
    if (cpu >= this.cpuCount) {
      const name = this.machine.kind === 'preset' ? `machine ${this.machine.name}` : 'the machine';
      fail(at, `cpu ${cpu} does not exist: ${name} has CPUs 0-${this.cpuCount - 1}`);
    }
  }

  private checkOrder(order: number, what: string, at: SourcePos): void {
    if (order > this.maxOrder)
      fail(at, `${what} ${order} is above this machine's max_order ${this.maxOrder}`);
  }

  private statement(s: OpStmt): void {
    const at = this.pos(s);
    switch (s.kind) {
      case 'alloc': {
        this.checkCpu(s.cpu, at);
        this.checkOrder(s.order, 'order', at);
        if (this.percpuGroups.has(s.group))
          fail(at, `"${s.group}" is a percpu handle group: give page blocks a name of their own`);
        const id = this.newId(at);
        // for=...: OP_LRU_ALLOC, whose arg is enum lru_purpose (PURPOSES from 1)
        if (s.purpose)
          this.emitFields(
            OpKind.LRU_ALLOC,
            s.cpu,
            s.order,
            gfpMask(s.gfp),
            id,
            PURPOSES.indexOf(s.purpose) + 1,
            at,
          );
        else this.emitFields(OpKind.ALLOC, s.cpu, s.order, gfpMask(s.gfp), id, 0, at);
        let stack = this.groups.get(s.group);
        if (!stack) {
          stack = [];
          this.groups.set(s.group, stack);
        }
        stack.push(id);
        return;
      }
      case 'touch_group': {
        this.checkCpu(s.cpu, at);
        const stack = this.groups.get(s.group);
        const ids = s.all ? (stack ?? []) : stack?.length ? [stack[stack.length - 1] ?? 0] : [];
        if (!ids.length)
          fail(
            at,
            stack
              ? `touch ${s.group}: every block of group "${s.group}" is already freed`
              : `touch ${s.group}: no block was allocated into group "${s.group}"`,
          );
        for (const id of ids) this.emitFields(OpKind.MARK_ACCESSED, s.cpu, 0, 0, id, 0, at);
        return;
      }
      case 'free': {
        this.checkCpu(s.cpu, at);
        const stack = this.groups.get(s.group);
        if (!s.all) {
          const id = stack?.pop();
          if (id === undefined) {
            fail(
              at,
              stack
                ? `free ${s.group}: every block of group "${s.group}" is already freed`
                : `free ${s.group}: no block was allocated into group "${s.group}"`,
            );
          }
          this.emitFields(OpKind.FREE, s.cpu, 0, 0, id, s.pcpLocked ? FREE_PCP_LOCKED : 0, at);
          this.freeIds.push(id);
          this.live--;
          return;
        }
        if (!stack) fail(at, `free ${s.group} *: no block was allocated into group "${s.group}"`);
        if (s.batched) {
          // One OP_FREE_BATCH per run of consecutive ids, at most a folio batch (31) each: the
          // op names its first handle and a count.
          for (let i = 0; i < stack.length;) {
            const first = stack[i] ?? 0;
            let n = 1;
            while (n < FOLIO_BATCH_SIZE && i + n < stack.length && stack[i + n] === first + n) n++;
            this.emitFields(OpKind.FREE_BATCH, s.cpu, 0, 0, first, n, at);
            i += n;
          }
        } else {
          for (const id of stack) {
            this.emitFields(OpKind.FREE, s.cpu, 0, 0, id, 0, at);
          }
        }
        // Reuse the oldest id first next time, mirroring the order they were freed in.
        for (let i = stack.length - 1; i >= 0; i--) this.freeIds.push(stack[i] ?? 0);
        this.live -= stack.length;
        stack.length = 0;
        return;
      }
      case 'free_folios': {
        this.checkCpu(s.cpu, at);
        // one op per block, gathered (OP_FREE_FOLIOS for a group's, OP_FREE_FOLIOS_CAPTURED for
        // a captured one, chosen as it joins); the last frees the batch
        const items = s.folios.map((folio) => {
          if (typeof folio !== 'string') return folio;
          const stack = this.groups.get(folio);
          const id = stack?.pop();
          if (id === undefined)
            fail(
              at,
              stack
                ? `free_folios: every block of group "${folio}" is already freed`
                : `free_folios: no block was allocated into group "${folio}"`,
            );
          return id;
        });
        items.forEach((item, i) => {
          const last = i === items.length - 1 ? 1 : 0;
          if (typeof item === 'number')
            this.emitFields(OpKind.FREE_FOLIOS, s.cpu, 0, 0, item, last, at);
          else
            this.emitFields(
              OpKind.FREE_FOLIOS_CAPTURED,
              s.cpu,
              item.order,
              capturedType(item),
              item.pfn ?? HANDLE_NONE,
              last,
              at,
            );
        });
        const ids = items.filter((item) => typeof item === 'number');
        this.freeIds.push(...ids);
        this.live -= ids.length;
        return;
      }
      case 'drain':
        this.checkCpu(s.cpu, at);
        this.emitFields(OpKind.DRAIN_CPU, s.cpu, 0, 0, 0, 0, at);
        return;
      case 'drain_all':
        this.emitFields(OpKind.DRAIN_ALL, 0, 0, 0, 0, 0, at);
        return;
      case 'tick':
        if (s.cpu !== undefined) {
          this.checkCpu(s.cpu, at);
          this.emitFields(OpKind.TICK_CPU, s.cpu, 0, 0, 0, 0, at);
          return;
        }
        this.emitFields(OpKind.TICK, 0, 0, 0, 0, s.count, at);
        return;
      case 'kswapd':
        this.checkCpu(s.cpu, at);
        this.emitFields(OpKind.KSWAPD_CPU, s.cpu, 0, 0, 0, 0, at);
        return;
      case 'offline':
      case 'online':
        this.checkCpu(s.cpu, at);
        this.emitFields(
          s.kind === 'offline' ? OpKind.CPU_OFFLINE : OpKind.CPU_ONLINE,
          s.cpu,
          0,
          0,
          0,
          0,
          at,
        );
        return;
      case 'corrupt':
        this.checkCpu(s.cpu, at);
        this.emitFields(OpKind.CORRUPT, s.cpu, 0, 0, HANDLE_NONE, 0, at);
        return;
      case 'thread':
      case 'mmap':
      case 'munmap':
      case 'mprotect':
      case 'touch':
      case 'work': {
        this.checkCpu(s.cpu, at);
        const f = addressSpaceFields(s);
        const kind = {
          thread: OpKind.THREAD,
          mmap: OpKind.MMAP,
          munmap: OpKind.MUNMAP,
          mprotect: OpKind.MPROTECT,
          touch: OpKind.TOUCH,
          work: OpKind.WORK,
        }[s.kind];
        this.emitFields(kind, s.cpu, f.order, f.gfp, f.handle, f.arg, at);
        return;
      }
      case 'random': {
        this.checkCpu(s.cpu, at);
        this.checkOrder(s.maxOrder, 'max_order', at);
        const gfp = gfpMask(s.gfp);
        const stream = this.streams.get(s);
        if (!stream) return; // inside a repeat that never runs
        if (this.out.length + s.count > MAX_OPS) {
          fail(at, `the workload expands to more than ${formatCount(MAX_OPS)} ops (the limit)`);
        }
        for (let i = 0; i < s.count; i++)
          this.emitFields(
            OpKind.RANDOM,
            s.cpu,
            s.maxOrder,
            gfp,
            stream.base,
            s.freePercent | (stream.capacity << 7),
            at,
          );
        return;
      }
      case 'percpu_alloc': {
        this.checkCpu(s.cpu, at);
        if (this.groups.has(s.group))
          fail(at, `"${s.group}" is a page handle group: give percpu areas a name of their own`);
        const id = this.newId(at);
        // GFP_NOWAIT lacks __GFP_DIRECT_RECLAIM: pcpu_alloc treats it as atomic
        this.emitFields(
          OpKind.PERCPU_ALLOC,
          s.cpu,
          s.reserved ? 1 : 0,
          gfpMask([s.atomic ? 'GFP_NOWAIT' : 'GFP_KERNEL']),
          id,
          s.size | (s.align << 16) | 0,
          at,
        );
        let stack = this.percpuGroups.get(s.group);
        if (!stack) this.percpuGroups.set(s.group, (stack = []));
        stack.push(id);
        this.percpuHandles = Math.max(this.percpuHandles, id + 1);
        // what the area takes at most: its size rounded up to its alignment (granule 4)
        const a = Math.max(s.align, 4);
        const bytes = Math.ceil(s.size / a) * a;
        this.percpuSize.set(id, bytes);
        this.percpuBytes += bytes;
        this.percpuPeak = Math.max(this.percpuPeak, this.percpuBytes);
        return;
      }
      case 'percpu_free': {
        this.checkCpu(s.cpu, at);
        const stack = this.percpuGroups.get(s.group);
        if (!stack || !stack.length)
          fail(
            at,
            stack
              ? `percpu free ${s.group}: every area of group "${s.group}" is already freed`
              : `percpu free ${s.group}: no percpu area was allocated into group "${s.group}"`,
          );
        for (const id of percpuFreeOrder(stack, s.order))
          this.emitFields(OpKind.PERCPU_FREE, s.cpu, 0, 0, id, 0, at);
        const freed = s.order ? stack.splice(0) : stack.splice(-1);
        for (const id of freed) this.percpuBytes -= this.percpuSize.get(id) ?? 0;
        for (let i = freed.length - 1; i >= 0; i--) this.freeIds.push(freed[i] ?? 0);
        this.live -= freed.length;
        return;
      }
      case 'percpu_balance':
        this.checkCpu(s.cpu, at);
        this.emitFields(OpKind.PERCPU_BALANCE, s.cpu, 0, 0, 0, 0, at);
        return;
      case 'free_pfn':
        this.checkCpu(s.cpu, at);
        this.emitFields(OpKind.FREE_PFN, s.cpu, s.order, 0, s.pfn, 0, at);
        return;
      case 'free_captured':
        this.checkCpu(s.cpu, at);
        // OP_CAPTURE_ZONE's CAPTURE_FREE (page_alloc/capture.h): the core picks the block, in
        // the zone that spans the kernel's pfn when one is given
        this.emitFields(
          OpKind.CAPTURE_ZONE,
          s.cpu,
          CAPTURE_FREE,
          capturedType(s),
          s.pfn ?? HANDLE_NONE,
          s.order | (s.pcpLocked ? FREE_PCP_LOCKED : 0),
          at,
        );
        return;
      case 'repeat':
        for (let i = 0; i < s.count; i++) {
          const before = this.out.length;
          this.block(s.body);
          if (this.out.length === before) break;
        }
        return;
    }
  }
}
