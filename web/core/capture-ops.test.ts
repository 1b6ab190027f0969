import { describe, expect, it } from 'vitest';
import { captureOps, interleavedFolios } from './capture-ops';
import { MAX_NR_ZONES } from './machine-config';
import { OpKind } from './ops';

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

  it("spreads a node's zones along its list, as the allocator took them in turn", () => {
    const inZone = (zone: number, order: number, count: number) => ({
      ...folios(1, 2, order, count),
      zone,
    });
    const out = interleavedFolios([inZone(1, 0, 1000), inZone(2, 0, 9000), inZone(2, 8, 40)]);
    const zoneAt = (from: number, to: number) => {
      const pages = new Map<number, number>();
      for (const f of out.slice(from, to))
        pages.set(f.zone, (pages.get(f.zone) ?? 0) + (f.count << f.order));
      return pages;
    };
    // the tail tenth of the list already holds both zones (DMA32 alone there ended kswapd's runs
    // early: it balanced DMA32 first), and so does the head tenth
    const tenth = Math.ceil(out.length / 10);
    for (const part of [zoneAt(0, tenth), zoneAt(out.length - tenth, out.length)]) {
      expect(part.get(1)).toBeGreaterThan(0);
      expect(part.get(2)).toBeGreaterThan(0);
    }
    // every folio kept, each zone's orders still spread within its part
    for (const [zone, order, count] of [
      [1, 0, 1000],
      [2, 0, 9000],
      [2, 8, 40],
    ] as const)
      expect(
        out.filter((f) => f.zone === zone && f.order === order).reduce((n, f) => n + f.count, 0),
      ).toBe(count);
    expect(out.findIndex((f) => f.order === 8)).toBeGreaterThan(0);
  });

  it('spreads the zones of a capture without folio sizes too, in whole blocks', () => {
    const zone = (z: number, inactiveFile: number) => ({
      node: 0,
      zone: z,
      free: [],
      pageblocks: null,
      lru: [0, 0, inactiveFile, 0],
    });
    const ops = captureOps({ zones: [zone(1, 10 * 1024), zone(2, 90 * 1024 + 7)], pcps: [] });
    const lru = ops.filter((o) => o.kind === OpKind.CAPTURE_LRU);
    const zones = lru.map((o) => o.handle % MAX_NR_ZONES);
    // DMA32's ten blocks among Normal's ninety-one pieces, not all first
    expect(zones.slice(0, 10)).toContain(2);
    expect(zones.indexOf(1)).toBeGreaterThan(0);
    expect(zones.lastIndexOf(1)).toBeGreaterThan(lru.length / 2);
    // every page kept; every piece but a zone's last a whole number of 1024-page blocks
    const total = (z: number) =>
      lru.filter((o) => o.handle % MAX_NR_ZONES === z).reduce((n, o) => n + o.arg, 0);
    expect([total(1), total(2)]).toEqual([10 * 1024, 90 * 1024 + 7]);
    expect(lru.filter((o) => o.arg % 1024 !== 0)).toHaveLength(1);
  });

  it('puts the folios the trace shows reclaim freeing at the tails first', () => {
    const zone = { node: 0, zone: 2, free: [], pageblocks: null, lru: [0, 0, 4096, 0] };
    const reclaimed = [2, 8, 8].map((order) => ({ node: 0, zone: 2, order }));
    // without folio sizes: root folios (memcg 0) first, then the rest as single pages
    const ops = captureOps({ zones: [zone], pcps: [], reclaimed });
    const lru = ops.filter((o) => o.kind === OpKind.CAPTURE_LRU_FOLIOS);
    expect(lru.map((o) => [o.order, o.gfp, o.arg])).toEqual([
      [2, 2, 1],
      [8, 2, 2],
    ]);
    expect(ops.indexOf(lru[1]!)).toBeLessThan(ops.findIndex((o) => o.kind === OpKind.CAPTURE_LRU));
    const pages = ops.filter((o) => o.kind === OpKind.CAPTURE_LRU).reduce((n, o) => n + o.arg, 0);
    expect(pages).toBe(4096 - 4 - 512);
    // with an lru-state: the memcg's list's tail, then its even spread
    const withFolios = captureOps({
      zones: [zone],
      pcps: [],
      memcgs: [{ ino: 1, online: true }],
      folios: [folios(0, 2, 0, 3584), folios(0, 2, 8, 2)],
      reclaimed: [{ node: 0, zone: 2, order: 8 }],
    }).filter((o) => o.kind === OpKind.CAPTURE_LRU_FOLIOS);
    expect(withFolios[0]).toMatchObject({ order: 8, arg: 1 });
    expect(withFolios.filter((o) => o.order === 8).reduce((n, o) => n + o.arg, 0)).toBe(2);
  });
});
