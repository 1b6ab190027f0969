/*
 * pseudocode.ts: the kernel engineer in plain words. For each event kind of the page allocator
 * (and the base events it emits alongside), the kernel function that decided it as a few lines of
 * our own pseudocode, the line that decided this event marked, and the call path that led there
 * (rmqueue_pcplist → __rmqueue_pcplist → rmqueue_bulk for a refill). It restates docs/kernel in
 * our words and never quotes kernel source. One table, keyed by the kind names of the events.def
 * files: tsc fails until a new page_alloc or base kind has an entry, and so does
 * pseudocode.test.ts. The Code view shows it above the model's C; it loads with that view.
 */
import type { EventKindInfo } from '../../core/generated/events';
import { KIND_NAMES } from '../../core/generated/events';
import type { SimEvent } from '../../player/engine';
import { fnName } from '../names';
import { WMARK_CHECK } from '../narrate';

/** One function in our words. */
export interface Pseudo {
  /** The calls that led here, outermost first; the last is the function the lines describe. */
  path: readonly string[];
  /** Its steps, indented two spaces per level; `x` names the kernel's variables where it helps. */
  lines: readonly string[];
  /** Indexes into lines: what decided this event (more than one where the event cannot say). */
  decided: readonly number[];
}

/** The kinds this table covers: every kind of page_alloc/events.def and base/events.def. */
export type PseudoKindName = Extract<EventKindInfo, { subsystem: 'page_alloc' | 'base' }>['name'];

type Entry = Pseudo | ((e: SimEvent) => Pseudo);

/** The line index of the first line that starts with `text` (after its indent). */
function at(lines: readonly string[], text: string): number {
  const i = lines.findIndex((l) => l.trimStart().startsWith(text));
  if (i < 0) throw new Error(`pseudocode: no line starts with ${text}`);
  return i;
}

function pseudo(path: readonly string[], lines: readonly string[], ...decided: string[]): Pseudo {
  return { path, lines, decided: decided.map((d) => at(lines, d)) };
}

// ---- the functions several kinds share ---------------------------------------------------------

const ALLOC_PAGES = [
  'alloc_flags = ALLOC_WMARK_LOW          (the fast path keeps the low watermark)',
  'page = get_page_from_freelist(gfp, order, alloc_flags)',
  'if no page:',
  '  page = __alloc_pages_slowpath(...)   (wake kswapd, min watermark, reclaim, OOM)',
  'trace mm_page_alloc(page, order, gfp)',
  'return page                            (NULL: the request failed)',
];

const PCPLIST = [
  "pcp = this CPU's lists for the zone (trylock; busy: use the buddy instead)",
  'list = pcp->lists[order_to_pindex(migratetype, order)]',
  'if list is empty:',
  '  n = nr_pcp_alloc(pcp, zone, order)   (6.7+: batch << alloc_factor; before: batch)',
  '  rmqueue_bulk(zone, order, n, list)   (one zone->lock hold for the batch)',
  '  if list is still empty: return NULL  (the buddy has nothing)',
  'page = head of list; pcp->count -= 2^order',
  'return page',
];

const RMQUEUE_BULK = [
  'spin_lock(zone->lock)                  (once for the whole batch)',
  'for i in 0 .. n-1:',
  '  page = __rmqueue(zone, order, migratetype)',
  '  if no page: stop early',
  '  trace mm_page_alloc_zone_locked(page, percpu_refill=1)',
  '  append page to the tail of list',
  'spin_unlock(zone->lock); return the blocks taken',
];

const RMQUEUE_BUDDY = [
  'spin_lock(zone->lock)',
  'if ALLOC_HIGHATOMIC: page = __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC)',
  'if no page: page = __rmqueue(zone, order, migratetype)',
  'trace mm_page_alloc_zone_locked(page, percpu_refill=0)',
  'spin_unlock(zone->lock)',
];

const EXPAND = [
  'size = 2^high',
  'while high > low:',
  '  high -= 1; size /= 2',
  '  upper half = block + size           (its buddy: pfn XOR size)',
  '  put the upper half on free_area[high][migratetype]',
  'the lower half, of order low, goes to the caller',
];

const FREE_ONE_PAGE = [
  'while order < MAX_PAGE_ORDER:',
  '  buddy = pfn XOR 2^order',
  '  if buddy is not free at this order: stop',
  '  take buddy off its list; pfn = min(pfn, buddy)',
  '  order += 1                           (the pair is one block now)',
  'tail = the next order up could merge soon (buddy_merge_likely)',
  'add the block at the head (or tail) of free_area[order][migratetype]',
];

const FREE_PCPPAGES_BULK = [
  'count = min(pcp->count, to_free)',
  'spin_lock(zone->lock)',
  'while count > 0:',
  '  list = next non-empty list, round robin from pindex',
  '  page = tail of list                  (the coldest page)',
  '  trace mm_page_pcpu_drain(page, order, migratetype)',
  '  __free_one_page(page, ...)           (merging with free buddies)',
  '  count -= 2^order',
  'spin_unlock(zone->lock)',
];

const PCP_COMMIT = [
  'pcp->alloc_factor >>= 1                (6.7+: a free halves the refill scaling)',
  'add page at the head of lists[pindex]; pcp->count += 2^order',
  'high = nr_pcp_high(pcp, zone, batch, free_high)',
  'if pcp->count >= high:',
  '  free_pcppages_bulk(zone, nr_pcp_free(...), pcp, pindex)',
  '  if ZONE_BELOW_HIGH and the zone is over its high watermark: clear ZONE_BELOW_HIGH',
];

const FREELIST_WALK = [
  'for each zone of the zonelist, preferred first, up to highest_zoneidx:',
  '  if a NOFRAGMENT walk reaches a remote node: restart allowing fragmentation',
  '  6.18, several nodes: skip nodes whose kswapd runs (retry them if all else fails)',
  '  6.7+: if ZONE_BELOW_HIGH is clear:',
  '    if zone_watermark_fast(zone, order, high watermark): use this zone',
  '    else: set ZONE_BELOW_HIGH           (the free path shrinks pcp lists sooner)',
  '  mark = the watermark alloc_flags name (min, low or high)',
  '  if not zone_watermark_fast(zone, order, mark): next zone',
  '  page = rmqueue(zone, order, migratetype)',
  '  if page: return page',
  '  next zone                            (the watermark passed, no block of that order)',
  'after the walk: if it avoided fragmentation, walk again allowing it',
  'no zone had a page: return NULL',
];

const FALLBACK = [
  'page = __rmqueue_smallest(zone, order, migratetype)',
  'if no page:',
  '  for o from MAX_PAGE_ORDER down to order:   (take the largest, to limit mixing)',
  '    find a block of a fallback migratetype at order o',
  '    try_to_claim_block: claim the whole pageblock if enough of it is free or alike',
  '    else steal just the block          (the pageblock keeps its type)',
  'return page',
];

const CLAIM_BLOCK = [
  'if the block is at least pageblock_order: claim the pageblock(s) outright',
  'count free pages and pages of a compatible type in the pageblock',
  'if free + alike >= half a pageblock (or page_group_by_mobility is off):',
  "  set the pageblock's migratetype to the request's",
  "  move its free blocks to the request's lists",
  'else: leave the pageblock as it is',
];

const SLOWPATH = [
  'wake_all_kswapds(order, gfp)           (background reclaim starts)',
  'alloc_flags = ALLOC_WMARK_MIN, plus reserves for __GFP_HIGH / atomic',
  'page = get_page_from_freelist(...); if page: done',
  'try direct reclaim (and compaction), then the freelists again',
  'if should_reclaim_retry(...): go round again',
  'if nothing can help: __alloc_pages_may_oom(...)',
  'fail: warn_alloc(gfp, "page allocation failure")',
];

const RECLAIM_RETRY = [
  'if no_progress_loops > MAX_RECLAIM_RETRIES (16): give up',
  'for each zone the request may use:',
  '  available = reclaimable pages + free pages (less with each no-progress loop)',
  '  if __zone_watermark_ok(zone, order, min watermark, available): retry',
  'nothing could lift a zone over min: give up',
];

const ZLC_WALK = [
  'for each zone of the zonelist:',
  '  if the cache is active and not zlc_zone_worth_trying(zone): skip it',
  '  (3.1: zlc_setup before the first zone_reclaim; 3.0: after the first zone failed)',
  '  zlc_setup: more than HZ jiffies since last_full_zap: clear every fullzones bit',
  '  if the zone fails its watermark:',
  '    zone_reclaim (when zone_reclaim_mode allows): NOSCAN, FULL, SOME or SUCCESS',
  '    still below the mark: zlc_mark_zone_full(zone), try the next zone',
  'no page and the cache was active: walk the zonelist again without it',
  '3.1, after direct reclaim: zlc_clear_zones_full (every zone worth trying again)',
];

const MAY_OOM = [
  'take oom_lock (someone else is killing already: back off)',
  'one last get_page_from_freelist(ALLOC_WMARK_HIGH)',
  'order > PAGE_ALLOC_COSTLY_ORDER, __GFP_RETRY_MAYFAIL, __GFP_THISNODE or no __GFP_FS:',
  '  do not kill: fail (or count as progress)',
  'low zones only: a kill would not free them, fail',
  'out_of_memory(...): kill the task with the highest badness',
];

const WATERMARK_OK = [
  'free = free pages - (2^order - 1) - the highatomic reserve it may not use',
  'min = mark; __GFP_HIGH: min -= min/2; atomic: min -= min/4; OOM victim: min -= min/2',
  'if free <= min + lowmem_reserve[highest_zoneidx]: fail',
  'if order == 0: pass',
  'for o in order .. MAX_PAGE_ORDER:',
  '  if a usable migratetype has a free block at o: pass',
  'fail                                   (free pages, but none large enough)',
];

const DRAIN = [
  'for each CPU (or the one named):',
  '  for each zone (or the one named):',
  "    if the CPU's pcp holds pages:",
  '      free_pcppages_bulk(zone, pcp->count, pcp)   (all of them back to the buddy)',
];

const HIGH = [
  'high = pcp->high = clamp(pcp->high, high_min, high_max)',
  'if free_high: pcp->high = max(high - (batch << 5), high_min)',
  'if ZONE_RECLAIM_ACTIVE: pcp->high = max(high - max(free_count, batch), high_min)',
  'if high_min == high_max: return high   (auto-tuning off)',
  'if ZONE_BELOW_HIGH: pcp->high = max(high - max(free_count, batch), high_min)',
  'else if count >= high: pcp->high = clamp(free_count + batch, high_min, high_max)',
];

const NR_PCP_ALLOC = [
  'base = batch; high = pcp->high = clamp(pcp->high, high_min, high_max)',
  'b = order ? base : base << alloc_factor',
  'if ZONE_BELOW_HIGH is clear: pcp->high = min(high + b, high_max)   (grow on demand)',
  'if order == 0 and b fits under high: alloc_factor += 1 (up to 5)',
  'return max(b >> order, 2) blocks',
];

const DECAY = [
  'every vmstat interval, on each CPU, for each zone:',
  '  if pcp->high > high_min:',
  '    pcp->high = max(count - (batch << 5), high - high/8, high_min)',
  '    if count > high: free_pcppages_bulk(count - high)',
];

// ---- the table --------------------------------------------------------------------------------

export const PSEUDOCODE: Readonly<Record<PseudoKindName, Entry>> = {
  none: pseudo(['(none)'], ['nothing happened'], 'nothing'),
  vmstat_tick: pseudo(
    ['vmstat_update', 'refresh_cpu_vm_stats'],
    [
      'for each populated zone:',
      "  fold this CPU's counter deltas into the zone (NR_FREE_PAGES catches up)",
      '  decay_pcp_high(zone, pcp)            (6.7+: high drifts back towards high_min)',
      "  NUMA: a remote zone's idle pcp expires and drains a batch",
    ],
    'fold',
  ),
  cpu_hotplug: (e) =>
    e.a
      ? pseudo(
          ['page_alloc_cpu_online'],
          [
            'for each populated zone:',
            '  zone_pcp_update(zone, cpu_online=1)   (batch and high with one more CPU)',
          ],
          'zone_pcp_update',
        )
      : pseudo(
          ['page_alloc_cpu_dead'],
          [
            'drain_pages(cpu)                       (its lists go back to the buddy)',
            'fold its counter deltas into the zones',
            'for each zone: zone_pcp_update(zone, 0)',
          ],
          'drain_pages',
        ),
  zone_lock: pseudo(
    ['spin_lock'],
    [
      'if the lock is free: take it',
      'else: spin until the holder releases it   (wait_ns)',
      '... the critical section: pages move (hold_ns) ...',
      'spin_unlock',
    ],
    'if the lock',
    'else',
  ),
  bad_page: pseudo(
    ['bad_page'],
    [
      "a page's state contradicts what the caller claims (double free, wrong order, ...)",
      'report it ("BUG: Bad page state"), taint the kernel',
      'leave the page out of every list      (leaked rather than corrupting more)',
    ],
    'report',
  ),
  runaway_loop: pseudo(
    ['(the model)'],
    [
      'every list walk is bounded by the number of frames',
      'a walk that runs out: the lists are corrupted',
      'report it and freeze the machine      (the kernel would hang or crash)',
    ],
    'report',
  ),
  mm_page_alloc: (e) =>
    pseudo(['__alloc_pages'], ALLOC_PAGES, e.b ? 'trace' : 'page = __alloc_pages_slowpath'),
  mm_page_free: pseudo(
    ['__free_pages', 'free_pages_prepare'],
    [
      'check the page: not free already, the right order, no stray flags',
      'trace mm_page_free(page, order)',
      'clear its state; then to a pcp list (free_frozen_page_commit) or the buddy (free_one_page)',
    ],
    'trace',
  ),
  mm_page_alloc_zone_locked: (e) =>
    e.a
      ? pseudo(['rmqueue_pcplist', '__rmqueue_pcplist', 'rmqueue_bulk'], RMQUEUE_BULK, 'trace')
      : pseudo(['rmqueue', 'rmqueue_buddy'], RMQUEUE_BUDDY, 'trace'),
  mm_page_pcpu_drain: pseudo(['free_pcppages_bulk'], FREE_PCPPAGES_BULK, 'trace'),
  mm_page_alloc_extfrag: pseudo(
    ['__rmqueue', '__rmqueue_fallback'],
    FALLBACK,
    'try_to_claim_block',
    'else steal',
  ),
  pcp_hit: pseudo(['rmqueue_pcplist', '__rmqueue_pcplist'], PCPLIST, 'page = head'),
  pcp_refill: pseudo(['rmqueue_pcplist', '__rmqueue_pcplist'], PCPLIST, 'rmqueue_bulk'),
  pcp_free: (e) => pseudo([fnName(e.fn) || 'free_frozen_page_commit'], PCP_COMMIT, 'add page'),
  pcp_bulk_free: pseudo(['free_pcppages_bulk'], FREE_PCPPAGES_BULK, 'count = min'),
  pcp_high: (e) => {
    const fn = fnName(e.fn);
    if (fn === 'decay_pcp_high') return pseudo(['vmstat_update', fn], DECAY, 'pcp->high = max');
    if (fn === 'nr_pcp_alloc')
      return pseudo(
        ['rmqueue_pcplist', '__rmqueue_pcplist', fn],
        NR_PCP_ALLOC,
        'base = batch',
        'if ZONE_BELOW',
      );
    // nr_pcp_high: a rise is the "count reached high" growth; a fall one of the three shrinks
    return e.b > e.a
      ? pseudo(['free_frozen_page_commit', 'nr_pcp_high'], HIGH, 'else if count')
      : pseudo(
          ['free_frozen_page_commit', 'nr_pcp_high'],
          HIGH,
          'if free_high',
          'if ZONE_RECLAIM',
          'if ZONE_BELOW',
        );
  },
  buddy_split: pseudo(['__rmqueue_smallest', 'expand'], EXPAND, 'put the upper half'),
  buddy_merge: pseudo(['free_one_page', '__free_one_page'], FREE_ONE_PAGE, 'take buddy'),
  buddy_enqueue: pseudo(['free_one_page', '__free_one_page'], FREE_ONE_PAGE, 'add the block'),
  watermark_check: (e) => {
    // which mark and why: enum wmark_check in the event's mt
    if (e.mt === WMARK_CHECK.FREE_HIGH)
      return pseudo(['free_frozen_page_commit'], PCP_COMMIT, 'if ZONE_BELOW');
    if (e.mt === WMARK_CHECK.OTHER)
      return pseudo(['__zone_watermark_ok'], WATERMARK_OK, 'if free <=');
    return pseudo(
      ['get_page_from_freelist', 'zone_watermark_fast'],
      FREELIST_WALK,
      e.mt === WMARK_CHECK.BELOW_HIGH ? 'if zone_watermark_fast' : 'if not zone_watermark_fast',
    );
  },
  zone_fallback: (e) =>
    pseudo(
      ['__alloc_pages', 'get_page_from_freelist'],
      FREELIST_WALK,
      e.a === 1
        ? 'if not zone_watermark_fast'
        : e.a === 2
          ? 'next zone'
          : e.a === 3
            ? 'if a NOFRAGMENT'
            : e.a === 4
              ? 'after the walk'
              : '6.18, several nodes',
    ),
  pageblock_claim: (e) =>
    pseudo(
      ['__rmqueue_fallback', 'try_to_claim_block'],
      CLAIM_BLOCK,
      e.c ? 'set the pageblock' : 'else: leave',
    ),
  highatomic_reserve: pseudo(
    ['get_page_from_freelist', 'reserve_highatomic_pageblock'],
    [
      'limit = about 1% of the zone (plus a pageblock)',
      'if the zone already reserves that much: return',
      "if the page's pageblock is not highatomic (or isolated, CMA):",
      '  set it MIGRATE_HIGHATOMIC and move its free blocks there',
      '  nr_reserved_highatomic += pageblock_nr_pages',
    ],
    'set it',
  ),
  highatomic_unreserve: pseudo(
    ['__alloc_pages_slowpath', 'unreserve_highatomic_pageblock'],
    [
      'for each zone of the zonelist:',
      '  if it keeps no highatomic reserve (or has a pageblock or less and not forced): next',
      '  find a free block on its HIGHATOMIC list',
      '  nr_reserved_highatomic -= pageblock_nr_pages',
      "  give its pageblock back to the request's migratetype and move its free blocks",
    ],
    'give',
  ),
  watermark_boost: pseudo(
    ['__rmqueue_fallback', 'boost_watermark'],
    [
      'if watermark_boost_factor is 0 or the zone is too small: return',
      'max_boost = high watermark × watermark_boost_factor / 10000 (at least a pageblock)',
      'watermark_boost = min(watermark_boost + pageblock_nr_pages, max_boost)',
      '(the caller then wakes kswapd to reclaim the boost)',
    ],
    'watermark_boost = min',
  ),
  kswapd_wake: pseudo(
    ['__alloc_pages_slowpath', 'wake_all_kswapds', 'wakeup_kswapd'],
    [
      "raise the node's kswapd_order and highest_zoneidx to the request's",
      'if kswapd is not sleeping: return',
      'if the node is hopeless or already balanced: maybe wake kcompactd; return',
      'wake kswapd                            (it reclaims until the high watermark)',
    ],
    'wake kswapd',
  ),
  drain: (e) => pseudo([fnName(e.fn) || 'drain_all_pages'], DRAIN, 'free_pcppages_bulk'),
  alloc_fail: pseudo(['__alloc_pages_slowpath', 'warn_alloc'], SLOWPATH, 'fail'),
  page_leak: pseudo(
    ['rmqueue_bulk', 'check_new_pages'],
    [
      'for each page of the block just taken off a free list:',
      '  if its state is not that of a free page: bad_page(...)',
      'a bad block is left out (leaked); the refill carries on without it',
    ],
    'a bad block',
  ),
  sysctl: pseudo(
    ['proc_dointvec_minmax'],
    [
      "parse the value; refuse it outside the sysctl's range",
      'store it',
      'its handler recomputes what depends on it (watermarks, pcp high and batch, ...)',
    ],
    'store',
  ),
  mm_page_free_batched: (e) =>
    pseudo(
      [fnName(e.fn) || 'free_unref_folios'],
      [
        'for each folio of the batch:',
        '  prepare it; a block too large for a pcp list goes to the buddy at once',
        '  lock the pcp of its zone (re-lock when the zone changes)',
        '  trace mm_page_free_batched(page)',
        '  free_frozen_page_commit(zone, pcp, page, migratetype, order)',
      ],
      'trace',
    ),
  move_freepages_block: pseudo(
    ['__rmqueue_fallback', 'steal_suitable_fallback', 'move_freepages_block'],
    [
      'for each pfn of the pageblock:',
      "  if a free block starts here: move it to the new migratetype's list; skip its pages",
      '  else if the page is movable (LRU): count it as alike',
      "return the pages moved                 (the caller then decides the pageblock's type)",
    ],
    'if a free block',
  ),
  out_of_memory: (e) =>
    pseudo(
      ['__alloc_pages_slowpath', '__alloc_pages_may_oom'],
      MAY_OOM,
      e.a === 1 ? 'out_of_memory' : e.a === 5 ? 'low zones' : 'order >',
    ),
  zlc_skip: pseudo(['get_page_from_freelist', 'zlc_zone_worth_trying'], ZLC_WALK, 'if the cache'),
  zlc_mark_full: pseudo(['get_page_from_freelist', 'zlc_mark_zone_full'], ZLC_WALK, 'still below'),
  zlc_zap: pseudo(['get_page_from_freelist', 'zlc_setup'], ZLC_WALK, 'zlc_setup: more'),
  zlc_clear_zones_full: pseudo(
    ['__alloc_pages_direct_reclaim', 'zlc_clear_zones_full'],
    ZLC_WALK,
    '3.1, after',
  ),
  zlc_rescan: pseudo(['get_page_from_freelist'], ZLC_WALK, 'no page and'),
  build_all_zonelists: pseudo(
    ['numa_zonelist_order_handler', 'build_all_zonelists'],
    [
      'parse the word: d(efault), n(ode) or z(one); anything else is EINVAL',
      '(4.14+: zone is EINVAL too, and default or node change nothing)',
      'if the order asked for changed: build_all_zonelists',
      '  for each node: build_zonelists in the current order, then its zonelist cache',
      '  node order: each node in distance order, its zones highest first',
      '  zone order: each zone type highest first, over the nodes in distance order',
    ],
    'for each node',
  ),
  reclaim_retry: (e) =>
    pseudo(
      ['__alloc_pages_slowpath', 'should_reclaim_retry'],
      RECLAIM_RETRY,
      e.a ? 'if __zone_watermark_ok' : e.b > 16 ? 'if no_progress' : 'nothing could',
    ),
};

/** Our pseudocode of the kernel function that decided event e; null for kinds not covered. */
export function pseudocodeFor(e: SimEvent): Pseudo | null {
  const name = KIND_NAMES[e.kind];
  if (!name || !Object.hasOwn(PSEUDOCODE, name)) return null;
  const entry = PSEUDOCODE[name as PseudoKindName];
  return typeof entry === 'function' ? entry(e) : entry;
}
