/*
 * capture-ops.ts: a captured state (machine-config.ts) as the core ops that put a booted machine
 * into it (page_alloc/capture.c): per zone, its free blocks and pageblocks recorded, then laid
 * out; then every pageset's pages and high; then each zone's LRU lists (reclaim/capture.c). The
 * Sim applies them before any workload op.
 */
import { MAX_NR_ZONES, type CapturedState } from './machine-config';
import { OpKind, type SimOp } from './ops';

/** enum capture_what (page_alloc/capture.h): OP_CAPTURE_ZONE's order beyond the orders. */
export const CAPTURE_BOOST = 252; // arg: the zone's watermark_boost
export const CAPTURE_FREE = 253; // free a captured in-use block of order arg on the CPU
export const CAPTURE_PAGEBLOCKS = 254;
export const CAPTURE_LAYOUT = 255;
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
  // the LRU lists last: they take what in-use memory the pcp lists left (reclaim/capture.c)
  if (state.memcgs && state.folios) {
    // memcgs first (the root first), then the folios, smallest first: each joins its list's
    // head, so the small ones end nearest the tail, as readahead's growing folios leave a file
    // read in order (reclaim/memcg.c, OP_CAPTURE_LRU_FOLIOS)
    for (const m of state.memcgs) op(OpKind.MEMCG, 0, 0, 0, m.ino, m.online ? 1 : 0);
    const folios = [...state.folios].sort((a, b) => a.order - b.order);
    for (const f of folios)
      if (f.count > 0)
        op(
          OpKind.CAPTURE_LRU_FOLIOS,
          0,
          f.order,
          f.memcg * NR_LRU_LISTS + f.lru,
          f.node * MAX_NR_ZONES + f.zone,
          f.count,
        );
    return ops;
  }
  for (const z of state.zones)
    z.lru?.forEach((pages, lru) => {
      if (pages > 0) op(OpKind.CAPTURE_LRU, 0, 0, lru, z.node * MAX_NR_ZONES + z.zone, pages);
    });
  return ops;
}
