/*
 * percpu-view.ts: what the percpu views draw, in the kernel's words, and the pure math over it:
 * which 4-byte (bitmap) or 2-byte (area map) cell of a unit belongs to which area, where the
 * boundary bits are, and where a range of cells lies in the rows the chunk map draws. The views
 * never read the core's layout themselves: adapt.ts builds a PercpuView from the binding's state.
 */

/** struct pcpu_block_md: the hints of one page block, or of the whole chunk; all in bits. */
export interface BlockMd {
  scanHint: number;
  scanHintStart: number;
  contigHint: number;
  contigHintStart: number;
  leftFree: number;
  rightFree: number;
  firstFree: number;
  nrBits: number;
}

export type ChunkKind = 'first' | 'reserved' | 'dynamic';

/** What a chunk holds in detail: read on demand, for the one chunk a view draws. */
export interface ChunkDetail {
  populated: readonly boolean[]; // per page: backed in every unit
  /** Bitmap allocator (4.14+): a bit per 4 bytes in use, and area starts and ends. */
  allocMap: ((bit: number) => boolean) | null;
  boundMap: ((bit: number) => boolean) | null;
  mdBlocks: readonly BlockMd[]; // one per page (bitmap allocator)
  /** Area map allocator (<= 4.13): map[0..mapUsed], bit 0 = in use, sentinel at mapUsed. */
  map: readonly number[] | null;
}

/** One chunk: what the chunk map, the slot lists and the area map draw of it. */
export interface PercpuChunkView {
  index: number; // the chunk's number in events (pfn of percpu events)
  kind: ChunkKind;
  nrPages: number; // pages per unit
  slot: number; // the slot list it is on
  freeBytes: number;
  startOffset: number; // bytes before the served region (pre-allocated), first chunk only
  endOffset: number; // bytes after it
  nrPopulated: number;
  nrEmptyPopPages: number;
  isolated: boolean;
  chunkMd: BlockMd | null; // the chunk's own hints (bitmap allocator)
  mapUsed: number; // area map
  mapAlloc: number;
  firstFree: number; // a map index (area map)
  contigHint: number; // bytes (area map)
  detail: () => ChunkDetail;
}

/** The percpu allocator of one machine. */
export interface PercpuView {
  allocator: 'area-map' | 'bitmap';
  nrUnits: number; // one per possible CPU (rounded up per group)
  unitSize: number; // bytes
  chunks: readonly PercpuChunkView[];
  /** Slot lists, each from head to tail, as chunk indices. */
  slots: readonly (readonly number[])[];
  freeSlot: number;
  sidelinedSlot: number | null; // 5.14+
  toDepopulateSlot: number | null; // 5.14+
  nrEmptyPopPages: number;
}

/** Bytes one cell of the chunk map stands for: the allocator's granule (PCPU_MIN_ALLOC_SIZE, or 2). */
export function cellBytes(v: Pick<PercpuView, 'allocator'>): number {
  return v.allocator === 'bitmap' ? 4 : 2;
}

/** What a cell holds. */
export const CELL = {
  FREE: 0,
  UNUSABLE: 1, // start_offset / end_offset: pre-allocated, never handed out
  AREA_A: 2, // an allocated area; neighbours alternate A and B
  AREA_B: 3,
} as const;

export interface ChunkCells {
  cells: Uint8Array; // CELL per cell
  bound: Uint8Array; // 1 where a boundary bit (bitmap) or a map entry (area map) starts the cell
  areas: number; // allocated areas seen
}

/**
 * The cells of one unit of a chunk (every unit is the same: an area at off is at off in each).
 * Bitmap: alloc_map says taken; a bound_map bit on a taken cell starts a new area (the colour
 * flips); bound bits on free cells are kept too, since the free path leaves them (harmless, as
 * the size of an area is read from its start). Area map: each entry [map[i] & ~1, map[i+1] & ~1)
 * in use or not.
 */
export function chunkCells(
  v: Pick<PercpuView, 'allocator'>,
  c: Pick<PercpuChunkView, 'nrPages' | 'startOffset' | 'endOffset' | 'mapUsed'>,
  d: Pick<ChunkDetail, 'map' | 'allocMap' | 'boundMap'>,
): ChunkCells {
  const cb = cellBytes(v);
  const n = Math.floor((c.nrPages * 4096) / cb);
  const cells = new Uint8Array(n);
  const bound = new Uint8Array(n + 1);
  const startCell = Math.ceil(c.startOffset / cb);
  const endCell = n - Math.ceil(c.endOffset / cb);
  let areas = 0;
  if (d.map) {
    const map = d.map;
    for (let i = 0; i < c.mapUsed && i + 1 < map.length; i++) {
      const e = map[i] ?? 0;
      const from = Math.floor((e & ~1) / cb);
      const to = Math.min(n, Math.ceil(((map[i + 1] ?? 0) & ~1) / cb));
      bound[from] = 1;
      if (e & 1) {
        areas++;
        const k = areas % 2 ? CELL.AREA_A : CELL.AREA_B;
        for (let j = from; j < to; j++) cells[j] = k;
      }
    }
    const last = map[c.mapUsed];
    if (last !== undefined) bound[Math.min(n, Math.floor((last & ~1) / cb))] = 1;
  } else if (d.allocMap && d.boundMap) {
    const allocMap = d.allocMap;
    const boundMap = d.boundMap;
    let k: number = CELL.AREA_B;
    for (let i = 0; i < n; i++) {
      const b = boundMap(i);
      if (b) bound[i] = 1;
      if (!allocMap(i)) continue;
      if (b || i === 0 || !allocMap(i - 1)) {
        areas++;
        k = k === CELL.AREA_A ? CELL.AREA_B : CELL.AREA_A;
      }
      cells[i] = k;
    }
    if (boundMap(n)) bound[n] = 1;
  }
  for (let i = 0; i < Math.min(startCell, n); i++) cells[i] = CELL.UNUSABLE;
  for (let i = Math.max(endCell, 0); i < n; i++) cells[i] = CELL.UNUSABLE;
  // Count what the reader sees: the pre-allocated head and tail are not areas.
  areas = 0;
  for (let i = 0; i < n; i++)
    if (cells[i]! >= CELL.AREA_A && (i === 0 || cells[i - 1] !== cells[i])) areas++;
  return { cells, bound, areas };
}

/** A chunk's name in the views: the first chunk, the reserved chunk, or chunk N. */
export function chunkName(c: Pick<PercpuChunkView, 'kind' | 'index'>): string {
  if (c.kind === 'first') return `first chunk (${c.index})`;
  if (c.kind === 'reserved') return `reserved chunk (${c.index})`;
  return `chunk ${c.index}`;
}

/** The request sizes a slot serves: __pcpu_size_to_slot is max(fls(size) - 3, 1). */
export function slotRange(slot: number): string {
  if (slot <= 0) return 'full (no contiguous 4 bytes)';
  if (slot === 1) return '1–15 B';
  const lo = 1 << (slot + 2);
  return `${lo}–${2 * lo - 1} B`;
}
