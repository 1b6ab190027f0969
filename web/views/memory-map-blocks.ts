/*
 * memory-map-blocks.ts: what the memory map draws over its pixels, as plain numbers: the blocks in
 * a window (head to head, as the buddy allocator holds them), where a block sits on screen, the
 * buddy of a block, and the unit of the overview of a machine too big for a pixel per frame
 * (its counts are in memory-map-overview.ts).
 *
 * Rows are `cols` frames wide and cols is a power of two, so an aligned block of 2^order frames is
 * always one rectangle: part of one row when it is narrower than a row, whole rows otherwise.
 * Worked example: cols 16, the order-6 block at pfn 64 is rows 4..7, all 16 columns; its buddy is
 * 64 ^ 64 = 0 (rows 0..3), and the two merge into the order-7 block at pfn 0.
 */
import { PG, type ModelState } from './model';

/** One block of the buddy allocator: free (on a free list), on a per-CPU list, or allocated. */
export interface MapBlock {
  pfn: number; // head
  order: number;
  state: number; // enum page_state of the head
}

/**
 * The blocks that meet [lo, hi), in pfn order, from each zone's frames: a max-order boundary or
 * the zone's first frame is always a head, and each head's order says where the next one is.
 * At most hi - lo + 2 * zones blocks (bounded by the window).
 */
export function blocksIn(s: ModelState, lo: number, hi: number): MapBlock[] {
  const out: MapBlock[] = [];
  const f = s.frames;
  const maxBlock = 1 << s.maxOrder;
  for (const n of s.nodes) {
    for (const z of n.zones) {
      const zEnd = z.memPfn + z.managed;
      if (z.managed === 0 || zEnd <= lo || z.memPfn >= hi) continue;
      const to = Math.min(hi, zEnd);
      let p = Math.max(z.memPfn, Math.max(lo, z.memPfn) - (Math.max(lo, z.memPfn) % maxBlock));
      while (p < to) {
        const at = f.at(p);
        const state = f.bytes[at + f.off.state] ?? 0;
        if (state === PG.TAIL) {
          p++; // no head covers this frame (a corrupted state): no block here
          continue;
        }
        const order = f.bytes[at + f.off.order] ?? 0;
        if (p + (1 << order) > lo) out.push({ pfn: p, order, state });
        p += 1 << order;
      }
    }
  }
  return out;
}

/** The buddy of the order-`order` block at pfn: pfn with bit `order` flipped (64 ^ 64 = 0). */
export function buddyOf(pfn: number, order: number): number {
  return pfn ^ (1 << order);
}

/** A rectangle in CSS pixels. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where `size` frames from pfn (aligned to size) sit in a grid of cols per row from start. */
export function blockRect(
  pfn: number,
  size: number,
  start: number,
  cols: number,
  cell: number,
): Rect {
  const i = pfn - start;
  const row = Math.floor(i / cols);
  if (size <= cols) return { x: (i - row * cols) * cell, y: row * cell, w: size * cell, h: cell };
  return { x: 0, y: row * cell, w: cols * cell, h: (size / cols) * cell };
}

/**
 * The boundary before pfn p as a path of segments (x1, y1, x2, y2): a staircase when p is inside
 * a row (the bottom of the row above up to p, the side at p, the top of p's row from p on), a
 * straight line when p starts a row.
 */
export function boundaryBefore(p: number, start: number, cols: number, cell: number): number[][] {
  const i = p - start;
  const row = Math.floor(i / cols);
  const x = (i - row * cols) * cell;
  const y = row * cell;
  const right = cols * cell;
  if (x === 0) return [[0, y, right, y]];
  return [
    [0, y + cell, x, y + cell],
    [x, y, x, y + cell],
    [x, y, right, y],
  ];
}

/** The overview's unit: frames per cell, a power of two no smaller than a pageblock. */
export function overviewUnit(frames: number, pageblock: number, maxCells: number): number {
  let unit = Math.max(1, pageblock);
  while (frames / unit > maxCells) unit *= 2;
  return unit;
}
