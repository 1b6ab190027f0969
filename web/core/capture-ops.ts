/*
 * capture-ops.ts: a captured state (machine-config.ts) as the core ops that put a booted machine
 * into it (page_alloc/capture.c): per zone, its free blocks and pageblocks recorded, then laid
 * out; then every pageset's pages and high; then each zone's LRU lists (reclaim/capture.c). The
 * Sim applies them before any workload op.
 */
import { MAX_NR_ZONES, type CapturedFolios, type CapturedState } from './machine-config';
import { folioTails, pageTails } from './lru-tail';
import { OpKind, type SimOp } from './ops';

/** enum capture_what (page_alloc/capture.h): OP_CAPTURE_ZONE's order beyond the orders. */
export const CAPTURE_BOOST = 252; // arg: the zone's watermark_boost
export const CAPTURE_FREE = 253; // free a captured in-use block of order arg on the CPU
export const CAPTURE_PAGEBLOCKS = 254;
export const CAPTURE_LAYOUT = 255;
/** OP_CAPTURE_LRU's list for "the node's refaults moved" (reclaim/capture.h), and its types. */
export const CAPTURE_LRU_REFAULTS = 255;
const DEACTIVATE_ANON = 1;
const DEACTIVATE_FILE = 2;
/** OP_CAPTURE_PCP's order for "set high". */
export const CAPTURE_PCP_HIGH = 255;
const MIGRATE_MOVABLE = 1;
const NR_LRU_LISTS = 4;

/** The core ops that put a booted machine into the captured state (applied before any workload). */
export function captureOps(state: CapturedState): SimOp[] {
  const ops: SimOp[] = [];
  const op = (
    kind: SimOp['kind'],
    cpu: number,
    order: number,
    gfp: number,
    handle: number,
    arg: number,
  ) => ops.push({ kind, cpu, order, gfp, handle, arg });
  for (const z of state.zones) {
    const zone = z.node * MAX_NR_ZONES + z.zone;
    z.free.forEach((row, mt) =>
      row.forEach((n, order) => {
        if (n) op(OpKind.CAPTURE_ZONE, 0, order, mt, zone, n);
      }),
    );
    z.pageblocks?.forEach((n, mt) => {
      if (n) op(OpKind.CAPTURE_ZONE, 0, CAPTURE_PAGEBLOCKS, mt, zone, n);
    });
    if (z.boost) op(OpKind.CAPTURE_ZONE, 0, CAPTURE_BOOST, 0, zone, z.boost);
    op(OpKind.CAPTURE_ZONE, 0, CAPTURE_LAYOUT, 0, zone, 0);
  }
  for (const p of state.pcps) {
    const zone = p.node * MAX_NR_ZONES + p.zone;
    const lists = p.lists ?? [{ order: 0, mt: MIGRATE_MOVABLE, blocks: p.count }];
    for (const l of lists)
      if (l.blocks) op(OpKind.CAPTURE_PCP, p.cpu, l.order, l.mt, zone, l.blocks);
    if (p.high) op(OpKind.CAPTURE_PCP, p.cpu, CAPTURE_PCP_HIGH, 0, zone, p.high);
  }
  for (const r of state.refaults ?? [])
    op(
      OpKind.CAPTURE_LRU,
      0,
      0,
      CAPTURE_LRU_REFAULTS,
      r.node * MAX_NR_ZONES,
      (r.anon ? DEACTIVATE_ANON : 0) | (r.file ? DEACTIVATE_FILE : 0),
    );
  // the LRU lists last: they take what in-use memory the pcp lists left (reclaim/capture.c)
  const folios = (slices: CapturedFolios[]) => {
    for (const f of slices)
      op(
        OpKind.CAPTURE_LRU_FOLIOS,
        0,
        f.order,
        f.memcg * NR_LRU_LISTS + f.lru,
        f.node * MAX_NR_ZONES + f.zone,
        f.count,
      );
  };
  if (state.memcgs && state.folios) {
    // memcgs first (the root first), then each list's folios: the tails the trace shows first
    // (each op joins its list's head: lru-tail.ts), the rest their orders interleaved
    // (reclaim/memcg.c, OP_CAPTURE_LRU_FOLIOS)
    for (const m of state.memcgs) op(OpKind.MEMCG, 0, 0, 0, m.ino, m.online ? 1 : 0);
    const { tail, rest } = folioTails(state.folios, state.reclaimed ?? []);
    folios(tail);
    folios(interleavedFolios(rest));
    return ops;
  }
  // without folio sizes: the tails the trace shows as folios of the root, then single pages,
  // each node's zones spread along its lists all the same
  const { tail, rest } = pageTails(zoneLruPages(state.zones), state.reclaimed ?? []);
  folios(tail);
  for (const piece of zonePieces(rest))
    op(OpKind.CAPTURE_LRU, 0, 0, piece.lru, piece.node * MAX_NR_ZONES + piece.zone, piece.count);
  return ops;
}

/** Each zone's LRU pages (zoneinfo's nr_zone_*_anon/file) as rows of order-0 pages of the root. */
function zoneLruPages(zones: CapturedState['zones']): CapturedFolios[] {
  return zones.flatMap((z) =>
    (z.lru ?? []).map((count, lru) => ({
      node: z.node,
      zone: z.zone,
      memcg: 0,
      lru,
      order: 0,
      count,
    })),
  );
}

/** Pages of a whole block of the largest order: pieces of lists stay whole blocks (LRU extents). */
const BLOCK_PAGES = 1024;
/**
 * At most this many pieces a zone's list without folio sizes: each piece's end may split a
 * captured block, whose frames then exist (a 1 TiB capture in 4096 pieces a list ran out of the
 * frame budget); 64 still mix the zones every few thousand pages, finer than a kswapd run.
 */
const ZONE_PIECES = 64;

/**
 * The zones' LRU pages as pieces in list order, each node's zones spread along its lists
 * (zoneSpread): whole blocks of BLOCK_PAGES, at most ZONE_PIECES a zone's list, so that a big
 * machine's lists still come as LRU extents in few ops.
 */
function zonePieces(rows: CapturedFolios[]): CapturedFolios[] {
  const lists = new Map<string, CapturedFolios[][]>();
  for (const row of rows) {
    const pages = row.count;
    if (pages <= 0) continue;
    const blocks = Math.ceil(pages / BLOCK_PAGES);
    const n = Math.min(ZONE_PIECES, blocks);
    // piece i ends at block floor((i + 1) * blocks / n); the last piece takes the remainder
    const end = (i: number) => Math.min(pages, Math.floor(((i + 1) * blocks) / n) * BLOCK_PAGES);
    const part = Array.from({ length: n }, (_, i) => ({
      ...row,
      count: end(i) - (i ? end(i - 1) : 0),
    }));
    const key = `${row.node}/${row.lru}`;
    lists.set(key, [...(lists.get(key) ?? []), part]);
  }
  return [...lists.values()].flatMap(zoneSpread);
}

/** At most this many slices a list: each order's folios spread over them (ops stay bounded). */
const MAX_SLICES = 4096;
/**
 * Folios of one order a readahead window holds: page_cache_ra_order (mm/readahead.c, 6.18) fills
 * a window of ra->size pages with folios of ra->order; page_cache_async_ra raises the order by 2
 * a round while get_next_ra_size quadruples a small window, so a window holds about four folios,
 * of an even order. Odd orders come one at a time, where alignment or the file's end cut a folio
 * down.
 */
const RA_WINDOW_FOLIOS = 4;

/**
 * Each captured list's folios as slices in list order, tail first (each op joins its list's head).
 * Where on its list each folio was is in no file. A memcg's list holds the page cache of many files
 * read at many times, each file's folios in a row as its readahead made them: orders mixed along
 * the list, a window's worth together. So each order but the list's commonest is spread evenly
 * over the list, even orders in clumps of RA_WINDOW_FOLIOS and odd ones alone, the commonest
 * filling between them; anonymous lists get the same spread. (The captures' kswapd freed order-1..3
 * folios among order-0 ones from its first batches on, one to four at a time.)
 *
 * The list is the node's (an lruvec per memcg and node, 6.18 mm/vmscan.c): its zones' folios
 * joined it in the order they were allocated, a zone's whenever the allocator took that zone, so
 * each zone's part is spread along the whole list too (zoneSpread). Put one zone after another,
 * kswapd met a single zone's folios for thousands of pages: it freed DMA32 pages alone, which
 * balanced DMA32 and ended the run long before the kernel's.
 */
export function interleavedFolios(folios: CapturedFolios[]): CapturedFolios[] {
  const lists = new Map<string, Map<number, CapturedFolios[]>>();
  for (const f of folios) {
    if (f.count <= 0) continue;
    const key = `${f.memcg}/${f.lru}/${f.node}`;
    const zones = lists.get(key) ?? new Map<number, CapturedFolios[]>();
    zones.set(f.zone, [...(zones.get(f.zone) ?? []), f]);
    lists.set(key, zones);
  }
  const out: CapturedFolios[] = [];
  for (const zones of lists.values()) {
    const parts = [...zones.values()].map(orderSpread);
    out.push(...zoneSpread(parts.length > 1 ? parts.map(cutSingle) : parts));
  }
  return out;
}

/** One zone's part of a list, its orders spread along it (see interleavedFolios). */
function orderSpread(list: CapturedFolios[]): CapturedFolios[] {
  list.sort((a, b) => a.order - b.order);
  const commonest = list.reduce((a, b) => (b.count > a.count ? b : a));
  const clumps = (f: CapturedFolios) =>
    f === commonest || f.order % 2 ? f.count : Math.ceil(f.count / RA_WINDOW_FOLIOS);
  // as many slices as the most clumps of an order but the commonest: one clump each at most
  const slices = Math.min(
    MAX_SLICES,
    Math.max(1, ...list.filter((f) => f !== commonest).map(clumps)),
  );
  const out: CapturedFolios[] = [];
  for (let i = 0; i < slices; i++)
    for (const f of list) {
      // the folios in the clumps before slice j: slice i holds those before i + 1, less
      const k = clumps(f);
      const before = (j: number) => Math.floor((Math.floor((j * k) / slices) * f.count) / k);
      const n = before(i + 1) - before(i);
      if (n > 0) out.push({ ...f, count: n });
    }
  return out;
}

/**
 * The zones' parts of one node's list merged into one, each spread evenly along it: a slice goes
 * where the middle of its pages falls in its zone's part, as a fraction of that part (ties: the
 * lower zone first).
 */
function zoneSpread(parts: CapturedFolios[][]): CapturedFolios[] {
  if (parts.length === 1) return parts[0] ?? [];
  const placed: { at: number; zone: number; slice: CapturedFolios }[] = [];
  for (const part of parts) {
    const pages = part.reduce((n, f) => n + (f.count << f.order), 0);
    let before = 0;
    for (const slice of part) {
      const size = slice.count << slice.order;
      placed.push({ at: (before + size / 2) / pages, zone: slice.zone, slice });
      before += size;
    }
  }
  placed.sort((a, b) => a.at - b.at || a.zone - b.zone);
  return placed.map((p) => p.slice);
}

/**
 * A zone's part that is a single slice (one order) cut into up to MAX_SLICES pieces of (nearly)
 * equal folio counts, so that it spreads along the list too; a part of several slices as it is.
 */
function cutSingle(part: CapturedFolios[]): CapturedFolios[] {
  const f = part.length === 1 ? part[0] : undefined;
  if (!f) return part;
  const n = Math.min(MAX_SLICES, f.count);
  return Array.from({ length: n }, (_, i) => ({
    ...f,
    count: Math.floor(((i + 1) * f.count) / n) - Math.floor((i * f.count) / n),
  }));
}
