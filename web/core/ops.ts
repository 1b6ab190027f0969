/*
 * ops.ts: the commands the core applies (enum op_kind, struct sim_op of wasm-core/src/base/types.h),
 * packed as the 16-byte records bs_apply_ops reads, so a whole workload crosses into wasm in one copy.
 */

/*
 * Plain objects rather than TypeScript enums: they survive every transpiler (tsx, esbuild, Vite)
 * unchanged, and the values stay the C enum's.
 */

/** enum op_kind: what one op does. */
export const OpKind = {
  NOP: 0,
  ALLOC: 1, // cpu allocates 2^order pages with gfp into handle
  FREE: 2, // cpu frees the block held by handle
  FREE_PFN: 3, // cpu frees pfn `handle` at `order` directly (raw; bad-input tests)
  DRAIN_CPU: 4, // drain_local_pages on cpu (all zones)
  DRAIN_ALL: 5, // drain_all_pages(NULL)
  TICK: 6, // arg vmstat intervals (1 s each) pass on every CPU
  CPU_OFFLINE: 7,
  CPU_ONLINE: 8,
  SYSCTL: 9, // set tunable `handle` (enum sysctl_id) to arg
  CORRUPT: 10, // mark the next frame a refill on cpu takes as bad (handle = pfn or HANDLE_NONE)
  RANDOM: 11, // one step of the seeded random stream: arg = free percent, order = max order
  SEED: 12, // reseed the generator with arg
} as const;
export type OpKind = (typeof OpKind)[keyof typeof OpKind];

/** enum sysctl_id: which tunable an OP_SYSCTL writes. */
export const SysctlId = {
  MIN_FREE_KBYTES: 0,
  WATERMARK_SCALE_FACTOR: 1,
  WATERMARK_BOOST_FACTOR: 2,
  PERCPU_PAGELIST_HIGH_FRACTION: 3,
  LOWMEM_RESERVE_RATIO_DMA: 4, // + zone index, up to Device
  ZONE_RECLAIM_MODE: 9,
} as const;

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
