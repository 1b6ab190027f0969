import { describe, expect, it } from 'vitest';
import { folioTails, pageTails } from './lru-tail';

const row = (memcg: number, lru: number, order: number, count: number, zone = 2) => ({
  node: 0,
  zone,
  memcg,
  lru,
  order,
  count,
});
const at = (order: number, zone = 2) => ({ node: 0, zone, order });
/** The slices as "memcg/lru:oORDERxCOUNT" words, tail first. */
const words = (fs: ReturnType<typeof folioTails>['tail']) =>
  fs.map((f) => `${f.memcg}/${f.lru}:o${f.order}x${f.count}`).join(' ');

describe('folioTails: the LRU tails a trace shows reclaim freeing', () => {
  it('puts the reclaimed folios at the tail in the order freed, runs of one order as one slice', () => {
    const { tail, rest } = folioTails(
      [row(1, 2, 0, 100), row(1, 2, 8, 10), row(2, 2, 0, 5)],
      [at(8), at(0), at(0), at(8), at(8), at(0)],
    );
    // memcg 1's inactive file has the most order-0 folios left each time
    expect(words(tail)).toBe('1/2:o8x1 1/2:o0x2 1/2:o8x2 1/2:o0x1');
    expect(rest).toEqual([row(1, 2, 0, 97), row(1, 2, 8, 7), row(2, 2, 0, 5)]);
  });

  it('takes inactive file first, shares equal memcgs out, and leaves out what no list holds', () => {
    const { tail, rest } = folioTails(
      [row(1, 3, 2, 9), row(1, 2, 2, 2), row(2, 2, 2, 2), row(3, 2, 0, 4, 1)],
      // order 2 four times (inactive file's four, then active file), an order 5 no list has, an
      // order 0 of a zone (2) whose lists hold none
      [at(2), at(2), at(2), at(2), at(2), at(5), at(0)],
    );
    // each list's slices in its own order (the lists' ops do not interleave)
    expect(words(tail)).toBe('1/2:o2x2 2/2:o2x2 1/3:o2x1');
    expect(rest).toEqual([row(1, 3, 2, 8), row(3, 2, 0, 4, 1)]);
  });
});

describe('pageTails: the same for a capture without folio sizes', () => {
  it('carves the reclaimed folios out of the zone lists of order-0 pages', () => {
    const { tail, rest } = pageTails(
      [row(0, 2, 0, 600), row(0, 3, 0, 300)],
      [at(8), at(8), at(8), at(0)],
    );
    // two order-8 folios fit inactive file's 600 pages, the third goes to active file
    expect(words(tail)).toBe('0/2:o8x2 0/3:o8x1 0/2:o0x1');
    expect(rest).toEqual([row(0, 2, 0, 87), row(0, 3, 0, 44)]);
  });
});
