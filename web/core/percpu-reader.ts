/*
 * percpu-reader.ts: the percpu allocator's state (wasm-core/src/percpu/percpu.h) as plain data,
 * read from the percpu region of the arena at offsets the C publishes (layout.def). Views draw
 * from this: geometry, slot lists, every chunk's counters and hints, and per chunk on demand its
 * populated pages, block hints, bitmaps (views over wasm memory, not copies) or area map.
 * Field names are the C's in camelCase. Reads re-acquire their view: memory may have grown.
 */
import type { LayoutField } from './generated/layout';
import type { Sim } from './sim';

/** struct pcpu_block_md: a page's (or the chunk's) hints, in bits */
export interface PercpuBlockMd {
  scanHint: number;
  scanHintStart: number;
  contigHint: number;
  contigHintStart: number;
  leftFree: number;
  rightFree: number;
  firstFree: number;
  nrBits: number;
}

/** struct pcpu_work: what one phase (alloc, free, balance) cost, plus its virtual time */
export interface PercpuWork {
  ops: number;
  entriesScanned: number;
  bytesMemmoved: number;
  bytesMemcpyd: number;
  probes: number;
  wordsScanned: number;
  blocksVisited: number;
  blockRefreshes: number;
  chunkRefreshes: number;
  pagesPopulated: number;
  pagesDepopulated: number;
  chunksCreated: number;
  chunksDestroyed: number;
  relocations: number;
  bytesZeroed: number;
  ns: number; // the weighted sum of percpu/cost.c (virtual nanoseconds)
}

/** struct pcpu_chunk */
export interface PercpuChunk {
  index: number; // in the chunk table: 0 the first chunk, then the reserved one, then dynamic
  slot: number; // the slot list it is on (none for the reserved chunk)
  nrPages: number;
  nrPopulated: number;
  nrEmptyPopPages: number;
  freeBytes: number;
  startOffset: number;
  endOffset: number;
  baseOffset: number; // bytes into each unit
  immutable: boolean;
  isolated: boolean;
  reserved: boolean;
  chunkMd: PercpuBlockMd; // bitmap allocator
  contigHint: number; // area map: bytes
  mapUsed: number; // area map
  mapAlloc: number; // area map
  firstFree: number; // area map: map index
  nrAlloc: number;
  maxAllocSize: number;
}

/** struct pcpu_state, with its chunks */
export interface PercpuState {
  allocator: 'area-map' | 'bitmap';
  staticSize: number;
  reservedSize: number;
  dynSize: number;
  unitSize: number;
  atomSize: number;
  allocSize: number;
  nrUnits: number;
  unitPages: number;
  nrSlots: number;
  freeSlot: number;
  sidelinedSlot: number | null; // 5.14+
  toDepopulateSlot: number | null; // 5.14+
  firstChunk: number;
  reservedChunk: number | null;
  nrEmptyPopPages: number;
  nrPopulated: number; // pages /proc/meminfo counts (times nrUnits)
  balancePending: boolean;
  stats: {
    nrAlloc: number;
    nrDealloc: number;
    nrCurAlloc: number;
    nrMaxAlloc: number;
    nrChunks: number;
    nrMaxChunks: number;
    minAllocSize: number;
    maxAllocSize: number;
  };
  work: { alloc: PercpuWork; free: PercpuWork; balance: PercpuWork };
  slots: number[][]; // chunk indices on each slot list, head first
  chunks: PercpuChunk[]; // chunks in use, by table index
}

const NONE = 0xffffffff;

/** Reads one Sim's percpu region. */
export class PercpuReader {
  constructor(private readonly sim: Sim) {}

  private get base(): number {
    return this.sim.address + this.sim.core.mod._bs_percpu_region(this.sim.address);
  }

  private off(f: LayoutField): number {
    return this.sim.core.layout.off(f);
  }

  private u32(at: number): number {
    return this.sim.view().getUint32(at, true);
  }

  private i32(at: number): number {
    return this.sim.view().getInt32(at, true);
  }

  private u64(at: number): number {
    return Number(this.sim.view().getBigUint64(at, true));
  }

  private md(at: number): PercpuBlockMd {
    const f = (n: string) => this.i32(at + this.off(`pcpu_block_md.${n}` as LayoutField));
    return {
      scanHint: f('scan_hint'),
      scanHintStart: f('scan_hint_start'),
      contigHint: f('contig_hint'),
      contigHintStart: f('contig_hint_start'),
      leftFree: f('left_free'),
      rightFree: f('right_free'),
      firstFree: f('first_free'),
      nrBits: f('nr_bits'),
    };
  }

  private work(at: number, phase: number): PercpuWork {
    const f = (n: string) => this.u64(at + this.off(`pcpu_work.${n}` as LayoutField));
    return {
      ops: f('ops'),
      entriesScanned: f('entries_scanned'),
      bytesMemmoved: f('bytes_memmoved'),
      bytesMemcpyd: f('bytes_memcpyd'),
      probes: f('probes'),
      wordsScanned: f('words_scanned'),
      blocksVisited: f('blocks_visited'),
      blockRefreshes: f('block_refreshes'),
      chunkRefreshes: f('chunk_refreshes'),
      pagesPopulated: f('pages_populated'),
      pagesDepopulated: f('pages_depopulated'),
      chunksCreated: f('chunks_created'),
      chunksDestroyed: f('chunks_destroyed'),
      relocations: f('relocations'),
      bytesZeroed: f('bytes_zeroed'),
      ns: this.sim.core.mod._bs_percpu_work_ns(this.sim.address, phase),
    };
  }

  /** Where chunk i's record is. */
  private chunkAt(i: number): number {
    const b = this.base;
    return (
      b +
      this.u32(b + this.off('pcpu_state.chunks_off')) +
      i * this.sim.core.layout.sizeOf('pcpu_chunk')
    );
  }

  /** Where chunk i's data starts. */
  private dataAt(i: number): number {
    const b = this.base;
    return (
      b +
      this.u32(b + this.off('pcpu_state.data_off')) +
      i * this.u32(b + this.off('pcpu_state.chunk_stride'))
    );
  }

  /** Chunk i of the table (whether or not it is in use). */
  chunk(i: number): PercpuChunk {
    const c = this.chunkAt(i);
    const u8 = (n: string) =>
      this.sim.view().getUint8(c + this.off(`pcpu_chunk.${n}` as LayoutField));
    const i32 = (n: string) => this.i32(c + this.off(`pcpu_chunk.${n}` as LayoutField));
    return {
      index: i,
      slot: u8('slot'),
      nrPages: i32('nr_pages'),
      nrPopulated: i32('nr_populated'),
      nrEmptyPopPages: i32('nr_empty_pop_pages'),
      freeBytes: i32('free_bytes'),
      startOffset: i32('start_offset'),
      endOffset: i32('end_offset'),
      baseOffset: i32('base_offset'),
      immutable: u8('immutable') !== 0,
      isolated: u8('isolated') !== 0,
      reserved: u8('reserved') !== 0,
      chunkMd: this.md(c + this.off('pcpu_chunk.chunk_md')),
      contigHint: i32('contig_hint'),
      mapUsed: i32('map_used'),
      mapAlloc: i32('map_alloc'),
      firstFree: i32('first_free'),
      nrAlloc: i32('nr_alloc'),
      maxAllocSize: i32('max_alloc_size'),
    };
  }

  /** The whole state: geometry, counters, slot lists and the chunks in use. */
  state(): PercpuState {
    const b = this.base;
    const s = (n: string) => this.u32(b + this.off(`pcpu_state.${n}` as LayoutField));
    const opt = (v: number) => (v === NONE ? null : v);
    const nrSlots = s('nr_slots');
    const maxChunks = s('max_chunks');
    const slots: number[][] = [];
    for (let slot = 0; slot < nrSlots; slot++) {
      const list: number[] = [];
      let i = this.u32(b + this.off('pcpu_state.slot_head') + slot * 4);
      while (i !== NONE && list.length < maxChunks) {
        list.push(i);
        i = this.u32(this.chunkAt(i) + this.off('pcpu_chunk.next'));
      }
      slots.push(list);
    }
    const chunks: PercpuChunk[] = [];
    for (let i = 0; i < maxChunks; i++)
      if (this.sim.view().getUint8(this.chunkAt(i) + this.off('pcpu_chunk.in_use')))
        chunks.push(this.chunk(i));
    const work = b + this.off('pcpu_state.work');
    const ws = this.sim.core.layout.sizeOf('pcpu_work');
    return {
      allocator: s('d_alloc_map') || s('d_md_blocks') ? 'bitmap' : 'area-map',
      staticSize: s('static_size'),
      reservedSize: s('reserved_size'),
      dynSize: s('dyn_size'),
      unitSize: s('unit_size'),
      atomSize: s('atom_size'),
      allocSize: s('alloc_size'),
      nrUnits: s('nr_units'),
      unitPages: s('unit_pages'),
      nrSlots,
      freeSlot: s('free_slot'),
      sidelinedSlot: opt(s('sidelined_slot')),
      toDepopulateSlot: opt(s('to_depopulate_slot')),
      firstChunk: s('first_chunk'),
      reservedChunk: opt(s('reserved_chunk')),
      nrEmptyPopPages: this.i32(b + this.off('pcpu_state.nr_empty_pop_pages')),
      nrPopulated: s('nr_populated'),
      balancePending: this.sim.view().getUint8(b + this.off('pcpu_state.balance_pending')) !== 0,
      stats: {
        nrAlloc: this.u64(b + this.off('pcpu_state.nr_alloc')),
        nrDealloc: this.u64(b + this.off('pcpu_state.nr_dealloc')),
        nrCurAlloc: s('nr_cur_alloc'),
        nrMaxAlloc: s('nr_max_alloc'),
        nrChunks: s('nr_chunks'),
        nrMaxChunks: s('nr_max_chunks'),
        minAllocSize: s('min_alloc_size'),
        maxAllocSize: s('max_alloc_size'),
      },
      work: {
        alloc: this.work(work, 0),
        free: this.work(work + ws, 1),
        balance: this.work(work + 2 * ws, 2),
      },
      slots,
      chunks,
    };
  }

  /** Whether each page of chunk i is populated. */
  populated(i: number): boolean[] {
    const c = this.chunk(i);
    const at = this.dataAt(i) + this.u32(this.base + this.off('pcpu_state.d_populated'));
    const v = this.sim.view();
    return Array.from(
      { length: c.nrPages },
      (_, p) => ((v.getUint8(at + (p >> 3)) >> (p & 7)) & 1) === 1,
    );
  }

  /** Allocated bytes in each page of chunk i. */
  pagesUsed(i: number): number[] {
    const c = this.chunk(i);
    const at = this.dataAt(i) + this.u32(this.base + this.off('pcpu_state.d_pages_used'));
    const v = this.sim.view();
    return Array.from({ length: c.nrPages }, (_, p) => v.getUint16(at + 2 * p, true));
  }

  /** The block hints of chunk i, one per page (bitmap allocator; [] for the area map). */
  blocks(i: number): PercpuBlockMd[] {
    const d = this.u32(this.base + this.off('pcpu_state.d_md_blocks'));
    if (!d) return [];
    const at = this.dataAt(i) + d;
    const size = this.sim.core.layout.sizeOf('pcpu_block_md');
    return Array.from({ length: this.chunk(i).nrPages }, (_, p) => this.md(at + p * size));
  }

  /** Chunk i's alloc_map or bound_map as bytes (bit b is byte b >> 3, bit b & 7): a view, valid until the core runs again. */
  bitmap(i: number, which: 'alloc' | 'bound'): Uint8Array {
    const d = this.u32(
      this.base + this.off(which === 'alloc' ? 'pcpu_state.d_alloc_map' : 'pcpu_state.d_bound_map'),
    );
    if (!d) return new Uint8Array(0);
    const bits = this.chunk(i).nrPages * 1024 + (which === 'bound' ? 1 : 0);
    return new Uint8Array(this.sim.core.mod.HEAPU8.buffer, this.dataAt(i) + d, Math.ceil(bits / 8));
  }

  /** Chunk i's area map, logical entries including the sentinel (area map allocator; [] otherwise). */
  areaMap(i: number): number[] {
    const b = this.base;
    const pool = b + this.u32(b + this.off('pcpu_state.pool_off'));
    if (
      !this.u32(b + this.off('pcpu_state.pool_off')) ||
      this.u32(b + this.off('pcpu_state.d_alloc_map'))
    )
      return [];
    const c = this.chunkAt(i);
    const block = this.u32(c + this.off('pcpu_chunk.map_block'));
    const gapStart = this.u32(c + this.off('pcpu_chunk.gap_start'));
    const gapLen = this.u32(c + this.off('pcpu_chunk.gap_len'));
    const used = this.i32(c + this.off('pcpu_chunk.map_used'));
    const out: number[] = [];
    for (let k = 0; k <= used; k++) {
      const phys = k < gapStart ? k : k + gapLen;
      out.push(this.i32(pool + 4 * (block + phys)));
    }
    return out;
  }
}
