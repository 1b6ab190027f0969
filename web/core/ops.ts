/*
 * ops.ts: the commands the core applies (enum op_kind, struct sim_op of wasm-core/src/base/types.h).
 * An op has one shape from the compiler to sim_apply: the packed 16-byte struct sim_op record. The
 * compiler writes records into an OpBuffer, an OpList carries them through the worker, the player,
 * the lessons and the command line, and the Sim copies them into wasm memory as they are.
 * Only this file knows where a field sits in a record (SIM_OP_FIELDS, checked against the C by
 * the binding test); everything else moves whole records.
 */

import { OP_KIND } from './generated/ops';
import { SYSCTL_ID } from './generated/sysctls';

/** enum op_kind: what one op does (each subsystem's ops.def says what its fields mean). */
export const OpKind = OP_KIND;
export type OpKind = (typeof OpKind)[keyof typeof OpKind];

/** enum sysctl_id: which tunable an OP_SYSCTL writes (page_alloc/sysctls.def). */
export const SysctlId = SYSCTL_ID;

/** sizeof(struct sim_op); checked against bs_struct_sizes in the binding test. */
export const SIM_OP_SIZE = 16;

/**
 * offsetof(struct sim_op, field) for each field; the binding test checks them against the offsets
 * the wasm publishes for layout.def's sim_op lines, so they cannot drift from the C.
 */
export const SIM_OP_FIELDS = { kind: 0, order: 1, cpu: 2, gfp: 4, handle: 8, arg: 12 } as const;

/**
 * FREE_PCP_LOCKED of page_alloc/page_alloc.h: OP_FREE's arg, or a bit of CAPTURE_FREE's, for a free
 * in an interrupt that came while the CPU's task held its pcp lock.
 */
export const FREE_PCP_LOCKED = 0x100;

/** HANDLE_NONE / PFN_NONE of types.h. */
export const HANDLE_NONE = 0xffffffff;

/** One op as fields (struct sim_op), for the few places that build or show one op. */
export interface SimOp {
  kind: OpKind;
  order: number; // u8
  cpu: number; // u16
  gfp: number; // u32
  handle: number; // u32: handle index, pfn for FREE_PFN, sysctl id for SYSCTL
  arg: number; // i32
}

const F = SIM_OP_FIELDS;
const WORDS = SIM_OP_SIZE / 4;

/** Write one record at byte `at` of v (little-endian, as wasm and x86 lay it out). */
function writeRecord(
  v: DataView,
  at: number,
  kind: OpKind,
  cpu: number,
  order: number,
  gfp: number,
  handle: number,
  arg: number,
): void {
  v.setUint8(at + F.kind, kind);
  v.setUint8(at + F.order, order);
  v.setUint16(at + F.cpu, cpu, true);
  v.setUint32(at + F.gfp, gfp >>> 0, true);
  v.setUint32(at + F.handle, handle >>> 0, true);
  v.setInt32(at + F.arg, arg | 0, true);
}

/** Read the record at byte `at` of v. */
function readRecord(v: DataView, at: number): SimOp {
  return {
    kind: v.getUint8(at + F.kind) as OpKind,
    order: v.getUint8(at + F.order),
    cpu: v.getUint16(at + F.cpu, true),
    gfp: v.getUint32(at + F.gfp, true),
    handle: v.getUint32(at + F.handle, true),
    arg: v.getInt32(at + F.arg, true),
  };
}

/** Write op as one record at byte `at` of v (Sim.apply puts a hand-made op into wasm memory). */
export function writeOp(v: DataView, at: number, op: SimOp): void {
  writeRecord(v, at, op.kind, op.cpu, op.order, op.gfp, op.handle, op.arg);
}

/**
 * A list of ops as packed struct sim_op records: what a compiled program holds, what the player
 * branches and replays, and what the core reads. Immutable: slice() is a view, concat() a copy.
 */
export class OpList {
  /** The records, SIM_OP_SIZE bytes each, starting at a 4-byte boundary. */
  readonly bytes: Uint8Array;
  /** Number of ops. */
  readonly length: number;
  /** The same bytes as 32-bit words: records move and compare a word at a time. */
  private readonly words: Int32Array;

  /** Wrap packed records (no copy unless they sit off a 4-byte boundary). */
  constructor(bytes: Uint8Array = new Uint8Array(0)) {
    if (bytes.length % SIM_OP_SIZE !== 0) {
      throw new Error(
        `ops: ${bytes.length} bytes is not a whole number of ${SIM_OP_SIZE}-byte records`,
      );
    }
    this.bytes = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
    this.length = bytes.length / SIM_OP_SIZE;
    this.words = new Int32Array(this.bytes.buffer, this.bytes.byteOffset, this.length * WORDS);
  }

  /** Pack ops given as fields (tests, op buttons). */
  static of(ops: readonly SimOp[]): OpList {
    const b = new OpBuffer(ops.length);
    for (const op of ops) b.push(op);
    return b.finish();
  }

  /** Op i as fields, for showing it; undefined outside [0, length). */
  at(i: number): SimOp | undefined {
    if (!(i >= 0 && i < this.length)) return undefined;
    return readRecord(new DataView(this.bytes.buffer, this.bytes.byteOffset), i * SIM_OP_SIZE);
  }

  /** Every op as fields (tests, and tools that print or compare op streams). */
  toArray(): SimOp[] {
    const v = new DataView(this.bytes.buffer, this.bytes.byteOffset);
    return Array.from({ length: this.length }, (_, i) => readRecord(v, i * SIM_OP_SIZE));
  }

  /** Ops [from, to) as a view of the same bytes. */
  slice(from = 0, to = this.length): OpList {
    const a = Math.max(0, Math.min(from, this.length));
    const b = Math.max(a, Math.min(to, this.length));
    return new OpList(this.bytes.subarray(a * SIM_OP_SIZE, b * SIM_OP_SIZE));
  }

  /** These ops, then more (a copy). */
  concat(more: OpList): OpList {
    const out = new Uint8Array(this.bytes.length + more.bytes.length);
    out.set(this.bytes);
    out.set(more.bytes, this.bytes.length);
    return new OpList(out);
  }

  /** The bytes of ops [from, to), as a view: what a chunk copy into wasm memory takes. */
  records(from: number, to: number): Uint8Array {
    return this.bytes.subarray(from * SIM_OP_SIZE, to * SIM_OP_SIZE);
  }

  /** Copy record i to heap32[word ...] (a 4-byte aligned slot of wasm memory), a word at a time. */
  copyTo(i: number, heap32: Int32Array, word: number): void {
    const w = this.words;
    const at = i * WORDS;
    for (let k = 0; k < WORDS; k++) heap32[word + k] = w[at + k] ?? 0;
  }

  /** Whether op i of this list and op j of other are the same record. */
  same(i: number, other: OpList, j: number): boolean {
    const a = this.words;
    const b = other.words;
    for (let k = 0; k < WORDS; k++) if (a[i * WORDS + k] !== b[j * WORDS + k]) return false;
    return true;
  }
}

/** Index of the first op where two lists differ (the shorter length when one extends the other). */
export function firstDifference(a: OpList, b: OpList): number {
  const n = Math.min(a.length, b.length);
  // Views of the same bytes (a program loaded a slice at a time) share every op they both hold.
  if (a.bytes.buffer === b.bytes.buffer && a.bytes.byteOffset === b.bytes.byteOffset) return n;
  for (let i = 0; i < n; i++) if (!a.same(i, b, i)) return i;
  return n;
}

/** A growable buffer the compiler writes records into; finish() hands them over as an OpList. */
export class OpBuffer {
  private bytes: Uint8Array;
  private view: DataView;
  private n = 0;

  constructor(initialOps = 64) {
    this.bytes = new Uint8Array(Math.max(1, initialOps) * SIM_OP_SIZE);
    this.view = new DataView(this.bytes.buffer);
  }

  /** Number of ops written. */
  get length(): number {
    return this.n;
  }

  /** Append one op. */
  push(op: SimOp): void {
    this.pushFields(op.kind, op.cpu, op.order, op.gfp, op.handle, op.arg);
  }

  /** Append one op given field by field (no object per op: compilers emit millions). */
  pushFields(
    kind: OpKind,
    cpu: number,
    order: number,
    gfp: number,
    handle: number,
    arg: number,
  ): void {
    if ((this.n + 1) * SIM_OP_SIZE > this.bytes.length) this.grow();
    writeRecord(this.view, this.n * SIM_OP_SIZE, kind, cpu, order, gfp, handle, arg);
    this.n++;
  }

  /** The records written so far, in memory of their own. */
  finish(): OpList {
    return new OpList(this.bytes.slice(0, this.n * SIM_OP_SIZE));
  }

  private grow(): void {
    const next = new Uint8Array(this.bytes.length * 2);
    next.set(this.bytes);
    this.bytes = next;
    this.view = new DataView(next.buffer);
  }
}
