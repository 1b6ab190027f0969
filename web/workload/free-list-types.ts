/*
 * free-list-types.ts: which migratetype's list each freed block of a trace went to. 6.18's
 * free_frozen_pages puts a block on the pcp list of its pageblock's type (get_pfnblock_migratetype),
 * and mm_page_free does not print it; the trace shows it later: the next line naming the same
 * pfn takes the block off that list (mm_page_alloc prints the list's type, the request's, when it
 * comes off a pcp list; mm_page_pcpu_drain and mm_page_alloc_zone_locked the pageblock's). A
 * block the trace never names again takes its pageblock's type from the nearest
 * mm_page_pcpu_drain of a block in the same pageblock (free_pcppages_bulk re-reads the pageblock's
 * type), the next one first. A replay of a free of memory allocated before the trace (the
 * captured state knows only how many pageblocks each type has, not which) uses this to free a
 * block of that type, so it reaches the list the kernel's reached.
 */
import { parseTraceLine, traceNumber } from './ftrace';

/** Events that free a block. */
const FREES = new Set(['mm_page_free', 'mm_page_free_batched']);
/** Events whose migratetype= is the type of the list (or pageblock) the named block came from. */
const TAKES = new Set(['mm_page_alloc', 'mm_page_pcpu_drain', 'mm_page_alloc_zone_locked']);

/**
 * For each line (by index into lines) that frees a block, the migratetype of the list it went to,
 * where the trace tells it. pageblockOrder: the machine's (9 on x86-64).
 */
export function freeListTypes(
  lines: readonly string[],
  pageblockOrder: number,
): Map<number, number> {
  const out = new Map<number, number>();
  const pending = new Map<number, number>(); // pfn -> line index of its free, type still unknown
  // pageblock -> the drains seen in it: [line index, migratetype], in trace order
  const drains = new Map<number, [number, number][]>();
  for (let i = 0; i < lines.length; i++) {
    const p = parseTraceLine(lines[i] ?? '');
    if (p.kind !== 'record') continue;
    const r = p.record;
    const pfn = traceNumber(r.fields.get('pfn'));
    if (pfn === null || pfn === 0) continue;
    if (FREES.has(r.event)) {
      pending.set(pfn, i);
      continue;
    }
    if (!TAKES.has(r.event)) continue;
    const mt = traceNumber(r.fields.get('migratetype'));
    if (mt === null) continue;
    const freed = pending.get(pfn);
    if (freed !== undefined) {
      out.set(freed, mt);
      pending.delete(pfn);
    }
    if (r.event === 'mm_page_pcpu_drain') {
      const pb = Math.floor(pfn / 2 ** pageblockOrder);
      let seen = drains.get(pb);
      if (!seen) drains.set(pb, (seen = []));
      seen.push([i, mt]);
    }
  }
  for (const [pfn, at] of pending) {
    const seen = drains.get(Math.floor(pfn / 2 ** pageblockOrder));
    if (!seen) continue;
    const next = seen.find(([i]) => i > at) ?? seen[seen.length - 1];
    if (next) out.set(at, next[1]);
  }
  return out;
}
