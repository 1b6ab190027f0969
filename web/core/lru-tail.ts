/*
 * lru-tail.ts: the tails of a captured machine's LRU lists, as its trace shows them.
 *
 * No /proc file says where on its list a folio sits, and reclaim takes from the tail: which
 * folios kswapd meets first decides what it frees to its CPU's pcp lists (order 0..3) or straight
 * to the buddy (larger folios). The trace does say it: every block the kernel's reclaim freed
 * that was in use before the trace began was at a list's tail, in the order freed. So the replay
 * puts those folios at the tails, first freed nearest the tail, and spreads the rest as
 * capture-ops.ts does. Which memcg's list held each is not in the trace: it goes to the list of
 * its zone that holds the most folios of its order not yet placed (inactive file first, then
 * active file, then anonymous), which shares a run of equal memcgs out among them. A block no
 * list of its zone has a folio of its order for was not an LRU folio and is left out.
 * **Simplified:** reclaim also frees what its shrinkers freed (slab pages: in 6.18 about seven
 * single pages per order-8 folio of a large file's page cache); an order-0 one of those cannot be
 * told from an LRU page here and joins the tail as one, so the model's kswapd frees it with its
 * folio batch where the kernel freed it alone (docs/model-notes.md).
 */
import type { CapturedFolios, ReclaimedFolio } from './machine-config';

/** enum lru_list, in the order a reclaimed block is looked for on them. */
const LRU_INACTIVE_ANON = 0;
const LRU_ACTIVE_ANON = 1;
const LRU_INACTIVE_FILE = 2;
const LRU_ACTIVE_FILE = 3;
const LIST_PREFERENCE = [LRU_INACTIVE_FILE, LRU_ACTIVE_FILE, LRU_INACTIVE_ANON, LRU_ACTIVE_ANON];

/** A captured list's folios (or pages) split into the tail the trace shows and the rest. */
export interface LruTail {
  tail: CapturedFolios[]; // in list order, tail first: each list's slices in the order reclaimed
  rest: CapturedFolios[]; // what is left of the captured rows, for the even spread
}

/**
 * The tails of the lists of folios that an lru-state gave (rows of folios of one order each):
 * each reclaimed block takes one folio of its order (see pick).
 */
export function folioTails(folios: CapturedFolios[], reclaimed: ReclaimedFolio[]): LruTail {
  const rest = folios.map((f) => ({ ...f }));
  // a row holds a block of its own order while it has a folio left
  const tail = tailsOf(
    rest,
    reclaimed,
    (at, order) => `${at}/${order}`,
    () => 1,
  );
  return { tail, rest: rest.filter((f) => f.count > 0) };
}

/**
 * The tails of the lists of a capture without folio sizes (rows of order-0 pages, memcg 0):
 * each reclaimed block takes its pages from a list of its zone, as a folio of its order.
 */
export function pageTails(pages: CapturedFolios[], reclaimed: ReclaimedFolio[]): LruTail {
  const rest = pages.map((p) => ({ ...p }));
  // a row holds a block while it has the block's pages left
  const tail = tailsOf(
    rest,
    reclaimed,
    (at) => at,
    (r) => 2 ** r.order,
  );
  return { tail, rest: rest.filter((p) => p.count > 0) };
}

/**
 * The tail slices, in reclaim order: each block takes size(r) from the row pick finds among the
 * rows filed under key(node/zone/lru, order) (the lists that could hold it; a row holds it while
 * it has size(r) left) and joins its list's last slice when that is of the same zone and order.
 */
function tailsOf(
  rows: CapturedFolios[],
  reclaimed: ReclaimedFolio[],
  key: (at: string, order: number) => string,
  size: (r: ReclaimedFolio) => number,
): CapturedFolios[] {
  const filed = new Map<string, CapturedFolios[]>();
  for (const row of rows) {
    const k = key(`${row.node}/${row.zone}/${row.lru}`, row.order);
    const had = filed.get(k);
    if (had) had.push(row);
    else filed.set(k, [row]);
  }
  const tail: CapturedFolios[] = [];
  const last = new Map<string, CapturedFolios>(); // memcg/lru/node (an lruvec's list) -> its last slice
  for (const r of reclaimed) {
    const n = size(r);
    const row = pick((lru) => filed.get(key(`${r.node}/${r.zone}/${lru}`, r.order)), n);
    if (!row) continue;
    row.count -= n;
    const list = `${row.memcg}/${row.lru}/${row.node}`;
    const prev = last.get(list);
    if (prev && prev.zone === r.zone && prev.order === r.order) {
      prev.count++;
      continue;
    }
    const slice = { ...row, order: r.order, count: 1 };
    tail.push(slice);
    last.set(list, slice);
  }
  return tail;
}

/**
 * The row a reclaimed block comes from: of the first list type (LIST_PREFERENCE) with a row
 * that has at least `least` left, the one with the most left (ties: the first, the lower memcg).
 * rowsOn(lru): the rows of the block's zone that could hold it on lists of that type.
 */
function pick(
  rowsOn: (lru: number) => CapturedFolios[] | undefined,
  least: number,
): CapturedFolios | undefined {
  for (const lru of LIST_PREFERENCE) {
    let best: CapturedFolios | undefined;
    for (const row of rowsOn(lru) ?? [])
      if (row.count >= least && (!best || row.count > best.count)) best = row;
    if (best) return best;
  }
  return undefined;
}
