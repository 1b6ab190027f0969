/*
 * adapt.ts: the binding's percpu state (web/core/percpu-reader.ts) as the PercpuView the percpu
 * views draw. The chunk list comes from the state the session read at the cursor; a chunk's
 * pages, bitmaps, hints and map[] are read through the reader when a view asks, for the one
 * chunk it draws. Bitmaps stay views over wasm memory (valid until the core runs again, which
 * is after the draw). One PercpuView per state object, so memoised views see the same chunks.
 */
import type { PercpuReader, PercpuState } from '../../core/percpu-reader';
import type { ChunkDetail, ChunkKind, PercpuView } from './percpu-view';

/** The reader calls a view needs. */
export type PercpuDetailReader = Pick<PercpuReader, 'populated' | 'blocks' | 'bitmap' | 'areaMap'>;

const cache = new WeakMap<PercpuState, PercpuView>();

/** Bit b of a little-endian bitmap held as bytes. */
function bitOf(bytes: Uint8Array): (b: number) => boolean {
  return (b) => (((bytes[b >> 3] ?? 0) >> (b & 7)) & 1) === 1;
}

export function percpuView(s: PercpuState, reader: () => PercpuDetailReader): PercpuView {
  const hit = cache.get(s);
  if (hit) return hit;
  const bitmap = s.allocator === 'bitmap';
  const kind = (i: number): ChunkKind =>
    i === s.firstChunk ? 'first' : i === s.reservedChunk ? 'reserved' : 'dynamic';
  const view: PercpuView = {
    allocator: s.allocator,
    nrUnits: s.nrUnits,
    unitSize: s.unitSize,
    freeSlot: s.freeSlot,
    sidelinedSlot: s.sidelinedSlot,
    toDepopulateSlot: s.toDepopulateSlot,
    nrEmptyPopPages: s.nrEmptyPopPages,
    slots: s.slots,
    chunks: s.chunks.map((c) => {
      let detail: ChunkDetail | null = null;
      return {
        index: c.index,
        kind: kind(c.index),
        nrPages: c.nrPages,
        slot: c.slot,
        freeBytes: c.freeBytes,
        startOffset: c.startOffset,
        endOffset: c.endOffset,
        nrPopulated: c.nrPopulated,
        nrEmptyPopPages: c.nrEmptyPopPages,
        isolated: c.isolated,
        chunkMd: bitmap ? c.chunkMd : null,
        mapUsed: c.mapUsed,
        mapAlloc: c.mapAlloc,
        firstFree: c.firstFree,
        contigHint: c.contigHint,
        detail: () => {
          if (detail) return detail;
          const r = reader();
          detail = {
            populated: r.populated(c.index),
            allocMap: bitmap ? bitOf(r.bitmap(c.index, 'alloc')) : null,
            boundMap: bitmap ? bitOf(r.bitmap(c.index, 'bound')) : null,
            mdBlocks: bitmap ? r.blocks(c.index) : [],
            map: bitmap ? null : r.areaMap(c.index),
          };
          return detail;
        },
      };
    }),
  };
  cache.set(s, view);
  return view;
}
