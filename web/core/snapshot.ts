/**
 * snapshot.ts: what a snapshot of a Sim holds. Frames are materialised on demand
 * (wasm-core/src/base/frames.h): the arena is the fixed state (header, per-block table, pageblock
 * tags, pcps, handles, the subsystems' regions), then a pool of slabs of which only those in use
 * mean anything, then the event buffer. A snapshot is the fixed state followed by each slab in use,
 * in slab order (its frames, then its owner slots); which slabs those are is read from the fixed
 * state itself (sim.slab_blocks), so a snapshot costs what the workload touched, not the machine.
 */

const SLAB_NONE = 0xffffffff;

/** Where the pool lies in one machine's arena (fixed for the Sim's life). */
export interface SnapshotGeometry {
  poolOff: number; // sim.pool_off: the fixed state is [0, poolOff)
  poolOwnersOff: number; // sim.pool_owners_off
  slabBlocksOff: number; // sim.slab_blocks_off: per slab, its block or SLAB_NONE
  slabHighOff: number; // offset of sim.slab_high in the header
  nrSlabs: number;
  slabPageBytes: number; // 2^max_order struct page records
  slabOwnerBytes: number; // 2^max_order uint32_t owner slots
}

/** [arena offset, bytes] of every piece a snapshot holds, read from the state at `fixed`. */
function segments(fixed: DataView, g: SnapshotGeometry): Array<[number, number]> {
  const out: Array<[number, number]> = [[0, g.poolOff]];
  const high = Math.min(fixed.getUint32(g.slabHighOff, true), g.nrSlabs);
  for (let i = 0; i < high; i++) {
    if (fixed.getUint32(g.slabBlocksOff + 4 * i, true) === SLAB_NONE) continue;
    out.push([g.poolOff + i * g.slabPageBytes, g.slabPageBytes]);
    out.push([g.poolOwnersOff + i * g.slabOwnerBytes, g.slabOwnerBytes]);
  }
  return out;
}

/** The pieces of the live state of the arena at ptr. */
export function liveSegments(
  heap: Uint8Array,
  ptr: number,
  g: SnapshotGeometry,
): Array<[number, number]> {
  return segments(new DataView(heap.buffer, heap.byteOffset + ptr, g.poolOff), g);
}

/** Bytes a snapshot of those pieces takes. */
export function segmentsBytes(segs: Array<[number, number]>): number {
  return segs.reduce((n, [, len]) => n + len, 0);
}

/** Bytes [from, to) of the snapshot of the arena at ptr into dst at the same offsets. */
export function copySnapshotPart(
  heap: Uint8Array,
  ptr: number,
  segs: Array<[number, number]>,
  dst: Uint8Array,
  from: number,
  to: number,
): void {
  let at = 0; // snapshot offset of the current piece
  for (const [off, len] of segs) {
    const lo = Math.max(from, at);
    const hi = Math.min(to, at + len);
    if (lo < hi) dst.set(heap.subarray(ptr + off + (lo - at), ptr + off + (hi - at)), lo);
    at += len;
    if (at >= to) break;
  }
}

/**
 * Write a snapshot back into the arena at ptr. Checked first against the geometry (the same
 * machine: same pool, and as many bytes as its own slab table says): a mismatch throws and
 * nothing is written.
 */
export function restoreSnapshot(
  heap: Uint8Array,
  ptr: number,
  g: SnapshotGeometry,
  snap: Uint8Array,
): void {
  if (snap.length < g.poolOff) {
    throw new Error(`snapshot of ${snap.length} bytes does not fit this machine's ${g.poolOff}`);
  }
  const segs = segments(new DataView(snap.buffer, snap.byteOffset, g.poolOff), g);
  const want = segmentsBytes(segs);
  if (snap.length !== want) {
    throw new Error(`snapshot of ${snap.length} bytes does not fit this machine's ${want}`);
  }
  let at = 0;
  for (const [off, len] of segs) {
    heap.set(snap.subarray(at, at + len), ptr + off);
    at += len;
  }
}
