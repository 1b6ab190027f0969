/*
 * memory-map-paint.ts: the memory map's geometry and colours, and paintFrames, a second painter of
 * its pixels written apart from the core's (wasm-core/src/page_alloc/frame_class.c): the map draws from the
 * core; tests, the end-to-end pixel check and the bench hold the core against this one. One pixel
 * per page frame, pfn-ordered, rows of `cols` frames (a power of two, so naturally aligned blocks
 * and pageblocks never straddle a row boundary). Only block heads say what a block is, so one pass
 * from head to head fills each block's 2^order frames with its head's colour.
 */
import { FC, PG, type ModelState, type ZoneState } from './model';
import {
  ALLOCATED_COLOR,
  CORRUPT_COLOR,
  MIGRATETYPE_COLORS,
  PCP_COLORS,
  rgb,
  type Theme,
} from './palette';

/** The pfn window drawn: [start, start + count), count a multiple of cols. */
export interface MapWindow {
  start: number;
  count: number;
  cols: number;
}

/** pfns the machine's managed memory covers (or node's alone): [lo, hi). */
export function pfnExtent(s: ModelState, node?: number): { lo: number; hi: number } {
  let lo = Infinity;
  let hi = 0;
  for (const n of s.nodes) {
    if (node !== undefined && n.id !== node) continue;
    for (const z of n.zones) {
      if (z.managed === 0) continue;
      lo = Math.min(lo, z.memPfn);
      hi = Math.max(hi, z.memPfn + z.managed);
    }
  }
  return lo === Infinity ? { lo: 0, hi: 0 } : { lo, hi };
}

/** The zone managing pfn, if any. */
export function zoneOfPfn(s: ModelState, pfn: number): ZoneState | undefined {
  for (const n of s.nodes)
    for (const z of n.zones) if (pfn >= z.memPfn && pfn < z.memPfn + z.managed) return z;
  return undefined;
}

/** Packed colours (ABGR, as a Uint32Array over ImageData reads them on little-endian machines). */
function pack(hex: string): number {
  const [r, g, b] = rgb(hex);
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

export interface MapColors {
  hole: number;
  buddy: number[]; // by migratetype
  pcp: number[]; // by cpu % 2
  allocated: number;
  corrupt: number;
  /** The same colours by enum frame_class (FC), the table the core's class map goes through. */
  lut: Uint32Array;
}

export function mapColors(theme: Theme): MapColors {
  const hole = pack(theme === 'dark' ? '#1F2329' : '#EEF0F3');
  const buddy = MIGRATETYPE_COLORS.map(pack);
  const pcp = PCP_COLORS.map(pack);
  const allocated = pack(ALLOCATED_COLOR[theme]);
  const corrupt = pack(CORRUPT_COLOR);
  const lut = new Uint32Array(FC.COUNT);
  lut[FC.HOLE] = hole;
  for (let mt = 0; mt < FC.PCP_EVEN - FC.BUDDY; mt++) lut[FC.BUDDY + mt] = buddy[mt] ?? hole;
  lut[FC.PCP_EVEN] = pcp[0] ?? hole;
  lut[FC.PCP_ODD] = pcp[1] ?? hole;
  lut[FC.ALLOCATED] = allocated;
  lut[FC.CORRUPT] = corrupt;
  return { hole, buddy, pcp, allocated, corrupt, lut };
}

/**
 * Hand every managed frame of [lo, hi) to emit as (from, to, class) pieces, in pfn order: block
 * heads only, as the core's frame_class.c walks them. Frames outside managed memory are not
 * handed on (the caller's holes). Blocks are naturally aligned and at most 2^maxOrder pages, so a
 * max-order boundary (or the zone's first frame) is always a head: from there, head to head, each
 * head's order says how far its block reaches, and the tail frames are never read. A whole
 * max-order block is one step, so a 1 TiB machine free is 262,144 steps, not 268M.
 */
export function walkClasses(
  s: ModelState,
  lo: number,
  hi: number,
  emit: (from: number, to: number, cls: number) => void,
): void {
  const f = s.frames;
  const bytes = f.heap(); // (not f.bytes: a heap grown since the state was read detaches it)
  const oState = f.off.state;
  const oOrder = f.off.order;
  const oList = f.off.list;
  const oCpu = f.off.cpu;
  const maxBlock = 2 ** s.maxOrder;
  for (const n of s.nodes) {
    for (const z of n.zones) {
      const zEnd = z.memPfn + z.managed;
      if (z.managed === 0 || zEnd <= lo || z.memPfn >= hi) continue;
      const from = Math.max(lo, z.memPfn);
      const to = Math.min(hi, zEnd);
      let p = Math.max(z.memPfn, from - (from % maxBlock));
      while (p < to) {
        const at = f.at(p);
        const state = bytes[at + oState] ?? 0;
        if (state === PG.TAIL) {
          p++; // a frame no head covers (a corrupted state): left as a hole
          continue;
        }
        const size = 2 ** (bytes[at + oOrder] ?? 0);
        let cls: number;
        switch (state) {
          case PG.BUDDY: {
            const mt = bytes[at + oList] ?? 0;
            cls = mt < FC.PCP_EVEN - FC.BUDDY ? FC.BUDDY + mt : FC.HOLE;
            break;
          }
          case PG.PCP:
            cls = (bytes[at + oCpu] ?? 0) & 1 ? FC.PCP_ODD : FC.PCP_EVEN;
            break;
          case PG.ALLOCATED:
            cls = FC.ALLOCATED;
            break;
          default:
            cls = FC.CORRUPT;
        }
        // (blocks of the first max-order block may end before the window starts)
        if (p + size > from) emit(Math.max(p, from), Math.min(p + size, to), cls);
        p += size;
      }
    }
  }
}

/** Paint window w into out (length w.count). Frames outside managed memory get the hole colour. */
export function paintFrames(
  s: ModelState,
  w: MapWindow,
  colors: MapColors,
  out: Uint32Array,
): void {
  out.fill(colors.hole);
  const { lut } = colors;
  walkClasses(s, w.start, w.start + w.count, (a, b, cls) =>
    out.fill(lut[cls] ?? colors.hole, a - w.start, b - w.start),
  );
}

/**
 * Add the frames of [lo, hi) per class to counts[offset + class] (FC.COUNT entries), holes
 * included: what one overview cell holds.
 */
export function countClasses(
  s: ModelState,
  lo: number,
  hi: number,
  counts: Float64Array,
  offset = 0,
): void {
  let managed = 0;
  walkClasses(s, lo, hi, (a, b, cls) => {
    counts[offset + cls] = (counts[offset + cls] ?? 0) + (b - a);
    managed += b - a;
  });
  counts[offset + FC.HOLE] = (counts[offset + FC.HOLE] ?? 0) + (hi - lo - managed);
}

/** What one frame is, in words (the map's inspector and its tooltip). */
export interface FrameInfo {
  pfn: number;
  zone: ZoneState;
  head: number; // pfn of the block it belongs to
  order: number;
  state: number; // enum page_state of the head
  list: number; // migratetype list or pindex
  cpu: number;
  pageblockMt: number;
}

/** The state, list and CPU of the frame record at pfn (a block's head says what the block is). */
export function frameFields(s: ModelState, pfn: number) {
  const f = s.frames;
  const at = f.at(pfn);
  return {
    state: f.bytes[at + f.off.state] ?? 0,
    list: f.bytes[at + f.off.list] ?? 0,
    cpu: (f.bytes[at + f.off.cpu] ?? 0) | ((f.bytes[at + f.off.cpu + 1] ?? 0) << 8),
  };
}

export function frameInfo(s: ModelState, pfn: number): FrameInfo | null {
  const z = zoneOfPfn(s, pfn);
  if (!z) return null;
  const f = s.frames;
  // Walk back to the head: the nearest head whose block covers pfn.
  for (let o = 0; o <= s.maxOrder; o++) {
    const q = pfn - (pfn % (1 << o));
    if (q < z.memPfn) break;
    const head = frameFields(s, q);
    const order = f.bytes[f.at(q) + f.off.order] ?? 0;
    if (head.state !== PG.TAIL && q + (1 << order) > pfn) {
      const pb = pageblockIndex(s, z, pfn);
      return {
        pfn,
        zone: z,
        head: q,
        order,
        ...head,
        pageblockMt: (s.pageblocks[pb] ?? 0) & 0x7f,
      };
    }
  }
  return null;
}

/** Index of pfn's pageblock in the tag array (the zone's first tag covers memPfn's pageblock). */
export function pageblockIndex(s: ModelState, z: ZoneState, pfn: number): number {
  const n = s.pageblockNrPages;
  return z.pageblockBase + Math.floor(pfn / n) - Math.floor(z.memPfn / n);
}
