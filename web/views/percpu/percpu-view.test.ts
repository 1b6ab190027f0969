import { describe, expect, it } from 'vitest';
import { CELL, chunkCells, slotRange, type PercpuChunkView } from './percpu-view';

function chunk(over: Partial<PercpuChunkView>): PercpuChunkView {
  return {
    index: 2,
    kind: 'dynamic',
    nrPages: 1,
    slot: 0,
    freeBytes: 0,
    startOffset: 0,
    endOffset: 0,
    nrPopulated: 1,
    nrEmptyPopPages: 0,
    isolated: false,
    chunkMd: null,
    mapUsed: 0,
    mapAlloc: 0,
    firstFree: 0,
    contigHint: 0,
    detail: () => ({ populated: [true], allocMap: null, boundMap: null, mdBlocks: [], map: null }),
    ...over,
  };
}

describe('chunkCells', () => {
  it('bitmap: areas from alloc bits, colours flipping at each bound bit, stale bound bits kept', () => {
    // bits 0-3 one area, 4-5 a second (bound bit at 4), 6 free with a stale bound bit, 7 free
    const alloc = new Set([0, 1, 2, 3, 4, 5]);
    const bound = new Set([0, 4, 6, 8]);
    const c = chunk({});
    const d = {
      allocMap: (b: number) => alloc.has(b),
      boundMap: (b: number) => bound.has(b),
      map: null,
    };
    const r = chunkCells({ allocator: 'bitmap' }, c, d);
    expect(r.cells.length).toBe(1024);
    expect([...r.cells.slice(0, 8)]).toEqual([2, 2, 2, 2, 3, 3, 0, 0]);
    expect([...r.bound.slice(0, 9)]).toEqual([1, 0, 0, 0, 1, 0, 1, 0, 1]);
    expect(r.areas).toBe(2);
  });

  it('area map: entries [map[i] & ~1, map[i+1] & ~1) in 2-byte cells, unusable head and tail', () => {
    // 8 bytes used at 0, 4 free, 6 used at 12, the rest free; sentinel 4096|1
    const c = chunk({ mapUsed: 4, startOffset: 2, endOffset: 4 });
    const d = { map: [0 | 1, 8, 12 | 1, 18, 4096 | 1], allocMap: null, boundMap: null };
    const r = chunkCells({ allocator: 'area-map' }, c, d);
    expect(r.cells.length).toBe(2048);
    expect([...r.cells.slice(0, 10)]).toEqual([1, 2, 2, 2, 0, 0, 3, 3, 3, 0]);
    expect(r.cells[2046]).toBe(CELL.UNUSABLE);
    expect(r.cells[2045]).toBe(CELL.FREE);
    expect([...r.bound.slice(0, 10)]).toEqual([1, 0, 0, 0, 1, 0, 1, 0, 0, 1]);
    expect(r.bound[2048]).toBe(1);
  });
});

describe('slotRange', () => {
  it('names the sizes a slot serves', () => {
    expect(slotRange(1)).toBe('1–15 B');
    expect(slotRange(2)).toBe('16–31 B');
    expect(slotRange(4)).toBe('64–127 B');
  });
});
