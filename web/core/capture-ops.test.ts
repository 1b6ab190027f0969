import { describe, expect, it } from 'vitest';
import { interleavedFolios } from './capture-ops';

const folios = (memcg: number, lru: number, order: number, count: number) => ({
  node: 0,
  zone: 2,
  memcg,
  lru,
  order,
  count,
});
/** The slices as "oORDERxCOUNT" words, tail first. */
const words = (fs: ReturnType<typeof interleavedFolios>) =>
  fs.map((f) => `o${f.order}x${f.count}`).join(' ');

describe('interleavedFolios: where on its list each captured folio goes', () => {
  it('mixes the orders along the list, even orders a readahead window (4) at a time, odd ones alone', () => {
    const out = interleavedFolios([
      folios(1, 2, 0, 40),
      folios(1, 2, 1, 3),
      folios(1, 2, 2, 8),
      folios(1, 2, 3, 1),
    ]);
    // three order-1 folios: three slices; order 2 in two windows of 4; order 3 in one
    expect(words(out)).toBe('o0x13 o1x1 o0x13 o1x1 o2x4 o0x14 o1x1 o2x4 o3x1');
  });

  it('keeps every folio, and keeps lists apart', () => {
    const given = [
      folios(0, 2, 0, 114340),
      folios(0, 2, 1, 7566),
      folios(0, 2, 2, 3018),
      folios(0, 2, 9, 8),
      folios(1, 0, 0, 609764),
      folios(2, 2, 8, 101),
    ];
    const out = interleavedFolios(given);
    for (const g of given) {
      const same = out.filter((f) => f.memcg === g.memcg && f.lru === g.lru && f.order === g.order);
      expect(same.reduce((n, f) => n + f.count, 0)).toBe(g.count);
    }
    // a list of one order is one op; the mixed list stays within its slices
    expect(out.filter((f) => f.memcg === 1)).toHaveLength(1);
    expect(out.filter((f) => f.memcg === 0).length).toBeLessThanOrEqual(4 * 4096);
    // the rare order-9 folios are spread over the list, not bunched at an end
    const firstOrder9 = out.findIndex((f) => f.order === 9);
    expect(firstOrder9).toBeGreaterThan(0);
  });
});
