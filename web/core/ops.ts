/*
 * ops.ts: the commands the core applies (enum op_kind, struct sim_op of wasm-core/src/base/types.h),
 * packed as the 16-byte records bs_apply_ops reads, so a whole workload crosses into wasm in one copy.
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

/** HANDLE_NONE / PFN_NONE of types.h. */
export const HANDLE_NONE = 0xffffffff;

/** One op as fields (struct sim_op). */
export interface SimOp {
  kind: OpKind;
  order: number; // u8
  cpu: number; // u16
  gfp: number; // u32
  handle: number; // u32: handle index, pfn for FREE_PFN, sysctl id for SYSCTL
  arg: number; // i32
}

/** A growable buffer of packed struct sim_op records (little-endian, as wasm and x86 lay them out). */
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
    const at = this.n * SIM_OP_SIZE;
    const v = this.view;
    v.setUint8(at, kind);
    v.setUint8(at + 1, order);
    v.setUint16(at + 2, cpu, true);
    v.setUint32(at + 4, gfp >>> 0, true);
    v.setUint32(at + 8, handle >>> 0, true);
    v.setInt32(at + 12, arg | 0, true);
    this.n++;
  }

  /** The packed records written so far (a copy that owns its memory). */
  finish(): Uint8Array {
    return this.bytes.slice(0, this.n * SIM_OP_SIZE);
  }

  private grow(): void {
    const next = new Uint8Array(this.bytes.length * 2);
    next.set(this.bytes);
    this.bytes = next;
    this.view = new DataView(next.buffer);
  }
}

/** Read op i back from packed records (for tools that print or compare op streams). */
export function readOp(packed: Uint8Array, i: number): SimOp {
  const v = new DataView(packed.buffer, packed.byteOffset + i * SIM_OP_SIZE, SIM_OP_SIZE);
  return {
    kind: v.getUint8(0) as OpKind,
    order: v.getUint8(1),
    cpu: v.getUint16(2, true),
    gfp: v.getUint32(4, true),
    handle: v.getUint32(8, true),
    arg: v.getInt32(12, true),
  };
}
