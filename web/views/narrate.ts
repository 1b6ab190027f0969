/*
 * narrate.ts: each event in plain words, naming the kernel function that made the decision. The
 * event log shows these, the aria-live region reads the current one aloud, and lessons quote them.
 * One sentence per event, most important fact first; numbers keep the kernel's units (pages).
 * Sentences are keyed by the kind names of the events.def files (web/core/generated/events.ts):
 * a kind without a sentence, or a sentence for a kind that does not exist, fails tsc and
 * narrate.test.ts.
 */
import { showGfpFlags } from '../core/gfp';
import { BAD_REASONS, type EventKindName } from '../core/generated/events';
import type { SimEvent } from '../player/engine';
import { FAULT_NARRATIONS } from './fault/narrate-fault';
import { fnName, kindName, LRU_NAMES, sysctlLabel, sysctlName, zoneName } from './names';
import { sysctlValueText } from '../core/sysctl-words';
import { NUMA_NARRATIONS } from './numa/narrate-numa';
import { PERCPU_NARRATIONS } from './percpu/narrate-percpu';
import { migratetypeName } from './palette';

const ZF_REASONS: Record<number, string> = {
  1: 'its free pages are below the watermark this request must keep',
  2: 'the watermark passed but it had no free block of that order',
  3: 'a walk that avoids fragmentation reached another node, so it restarts allowing fragmentation locally first',
  4: 'no zone could serve without fragmenting a pageblock, so the walk is retried allowing it',
  5: "this node's kswapd is already reclaiming, so idle nodes are tried first",
  6: 'only nodes with a busy kswapd were left, so they are walked too',
  7: 'it is below the watermark and node reclaim did not scan it (NOSCAN)',
  8: 'it is below the watermark and node reclaim found nothing worth scanning (FULL)',
  9: 'node reclaim scanned it and it is still below the watermark',
};

const PURPOSES = [
  '',
  'anonymous memory',
  'page cache (read)',
  'dirty page cache (written)',
  'mapped page cache',
];
const OOM_DECISIONS: Record<number, string> = {
  1: 'out_of_memory would kill the task with the highest badness (the model has no tasks to kill, so the request fails)',
  2: 'without __GFP_FS the OOM killer is not used; the kernel counts it as progress and retries (the model fails the request)',
  3: 'the order is above 3, so the OOM killer is not used and the request fails',
  4: '__GFP_RETRY_MAYFAIL or __GFP_THISNODE asks not to kill, so the request fails',
  5: 'only the low zones may serve it, and killing a task would not free them, so the request fails',
};

/**
 * Which mark a watermark_check compared against, and why it was checked: its mt field, enum
 * wmark_check of wasm-core/src/page_alloc/watermark.h (narrate.test.ts holds the numbers to the
 * events the core emits).
 */
export const CHECKED_MARKS: Record<number, string> = {
  0: "the min watermark, the request's own mark (the slow path's, or an atomic request's)",
  1: "the low watermark, the request's own mark (the fast path's)",
  2: "the high watermark, the request's own mark (the last try before the OOM killer)",
  4: 'the min watermark without its boost (a __GFP_HIGH order-0 request may ignore the boost)',
  5: "the high watermark, the 6.7+ pre-check before the request's own mark",
  6: 'the high watermark, checked after a free spilled a per-CPU list back to the zone while it is ZONE_BELOW_HIGH',
};
/** The marks of enum wmark_check that are not a request's own (pseudocode.ts reads them too). */
export const WMARK_CHECK = { MIN_UNBOOSTED: 4, BELOW_HIGH: 5, FREE_HIGH: 6, OTHER: 7 } as const;

function checkedMark(e: SimEvent, z: string): string {
  const head = `${z}: ${pages(e.a)} free against ${CHECKED_MARKS[e.mt] ?? 'a mark'}: more than ${e.b} (mark plus lowmem reserve) must stay free for order ${e.order}`;
  if (e.mt === WMARK_CHECK.BELOW_HIGH)
    return e.c
      ? `${head}. Above it: the zone is used at once, without checking the lower mark.`
      : `${head}. Below it: the zone is marked ZONE_BELOW_HIGH (frees to per-CPU lists then shrink them sooner) and the request's own mark is checked next.`;
  if (e.mt === WMARK_CHECK.FREE_HIGH)
    return e.c
      ? `${head}. Above it again: ZONE_BELOW_HIGH is cleared.`
      : `${head}. Still below: the zone stays ZONE_BELOW_HIGH.`;
  return `${head}: ${e.c ? 'enough, the zone may be used.' : 'too few, the zone is skipped.'}`;
}

function lru(mt: number): string {
  return `${LRU_NAMES[mt] ?? `list ${mt}`} list`;
}

function pages(n: number): string {
  return n === 1 ? '1 page' : `${n} pages`;
}

function blocks(n: number): string {
  return n === 1 ? '1 block' : `${n} blocks`;
}

function block(e: SimEvent): string {
  return `pfn ${e.pfn} (order ${e.order}, ${pages(1 << e.order)})`;
}

function where(e: SimEvent, nodes: number): string {
  return nodes > 1 ? `node ${e.node} ${zoneName(e.zone)}` : zoneName(e.zone);
}

export interface Narration {
  text: string; // one sentence
  fn: string; // kernel function ("" when none)
  kind: string; // event kind name
}

/** Where an event happened and its migratetype's name, worked out once for every sentence. */
interface Context {
  z: string; // the zone (with its node on a NUMA machine)
  mt: string; // the migratetype's name
}

/** One sentence for an event of a kind. */
type Say = (e: SimEvent, c: Context) => string;

/** The sentence of every event kind, by its name. */
export const NARRATIONS: Readonly<Record<EventKindName, Say>> = {
  none: () => 'No event: nothing was decided here.',
  mm_page_alloc: (e, { z, mt }) =>
    e.b === 1
      ? `CPU ${e.cpu} got ${block(e)} from ${z} for a ${mt} request (${showGfpFlags(e.a)}).`
      : `CPU ${e.cpu}'s order-${e.order} ${mt} request (${showGfpFlags(e.a)}) failed.`,
  mm_page_free: (e, { z }) => `CPU ${e.cpu} frees ${block(e)} in ${z}.`,
  mm_page_free_batched: (e, { z }) =>
    `${fnName(e.fn)}: ${block(e)} of a freed batch goes onto CPU ${e.cpu}'s per-CPU list in ${z}, under one hold of the pcp lock for the whole batch.`,
  mm_page_alloc_zone_locked: (e, { z, mt }) =>
    `Under ${z}'s zone lock, ${block(e)} comes off the ${mt} free list${e.a ? ' to refill a per-CPU list' : ''}.`,
  mm_page_pcpu_drain: (e, { z, mt }) =>
    `${block(e)} goes from CPU ${e.cpu}'s ${mt} per-CPU list back to the ${z} buddy lists.`,
  mm_page_alloc_extfrag: (e, { mt }) =>
    `No free ${mt} block was left, so an order-${e.order} request falls back to a ${migratetypeName(e.b)} ` +
    `block of order ${e.a}${e.c & 1 ? ', fragmenting memory' : ''}${e.c & 2 ? ' and claiming the pageblock' : ''}.`,
  pcp_hit: (e) =>
    `CPU ${e.cpu} takes ${block(e)} from its per-CPU list ${e.a} without the zone lock; ${pages(e.b)} left there.`,
  pcp_refill: (e, { z }) =>
    `CPU ${e.cpu}'s per-CPU list was empty: it takes the zone lock of ${z} and asks for ${blocks(e.a)}, gets ${e.b} (alloc_factor now ${e.c}).`,
  pcp_free: (e) =>
    `CPU ${e.cpu} puts ${block(e)} on its per-CPU list ${e.a}: ${pages(e.b)} there, high is ${e.c}.`,
  pcp_bulk_free: (e, { z }) =>
    `CPU ${e.cpu}'s per-CPU lists hold ${pages(e.b)} (high ${e.c}): ${pages(e.a)} go back to the ${z} buddy lists under the zone lock.`,
  pcp_high: (e, { z }) =>
    `CPU ${e.cpu}'s per-CPU high for ${z} changes from ${e.a} to ${e.b} pages.`,
  buddy_split: (e, { mt }) =>
    `The block is split: its upper half, ${block(e)}, goes on the ${mt} free list.`,
  buddy_merge: (e) =>
    `The freed block's buddy at pfn ${e.a} was free too: they merge into ${block(e)}.`,
  buddy_enqueue: (e, { z, mt }) =>
    `${block(e)} joins the ${e.a ? 'tail' : 'head'} of ${z}'s ${mt} free list.`,
  watermark_check: (e, { z }) => checkedMark(e, z),
  zone_fallback: (e, { z }) => `The walk leaves ${z}: ${ZF_REASONS[e.a] ?? `reason ${e.a}`}.`,
  pageblock_claim: (e, { mt }) =>
    e.c
      ? `The pageblock at pfn ${e.pfn} changes from ${migratetypeName(e.b)} to ${mt} (${pages(e.a)} free or alike).`
      : e.a < 0
        ? `The pageblock at pfn ${e.pfn} runs past the zone's edge: it cannot be claimed and stays ${migratetypeName(e.b)}.`
        : `The pageblock at pfn ${e.pfn} stays ${migratetypeName(e.b)}: only ${pages(e.a)} free or alike, under half of it.`,
  move_freepages_block: (e, { mt }) =>
    `The free ${blocks(e.b)} (${pages(e.a)}) of the pageblock at pfn ${e.pfn} move to the ${mt} free lists before the pageblock's owner is decided${e.c >= 0 ? `; ${pages(e.c)} in it are movable` : ''}.`,
  highatomic_reserve: (e) =>
    `The pageblock at pfn ${e.pfn} is reserved for high-order atomic allocations (${pages(e.a)} reserved now).`,
  highatomic_unreserve: (e) =>
    `The high-order atomic reserve at pfn ${e.pfn} is given back to ordinary use.`,
  watermark_boost: (e, { z }) =>
    `${z}'s watermark is boosted from ${pages(e.a)} to ${pages(e.b)} after a fallback, so kswapd will reclaim a little ahead.`,
  kswapd_wake: (e) =>
    `kswapd of node ${e.node} is woken for order ${e.order}: it will reclaim in the background until a zone is above its high watermark.`,
  // drain_all_pages spans every zone: its event names no zone, and b counts the CPUs drained
  drain: (e, { z }) =>
    fnName(e.fn) === 'drain_all_pages'
      ? `drain_all_pages: ${pages(e.a)} drained from the per-CPU lists of ${e.b} CPU${e.b === 1 ? '' : 's'} back to the buddy.`
      : `${pages(e.a)} drained from CPU ${e.cpu}'s per-CPU lists of ${z} back to the buddy.`,
  vmstat_tick: (e) =>
    `A vmstat interval passes on CPU ${e.cpu}: per-CPU high decays and remote pages age.`,
  cpu_hotplug: (e) =>
    e.a
      ? `CPU ${e.cpu} comes online; its per-CPU lists start empty.`
      : `CPU ${e.cpu} goes offline; its per-CPU lists are drained.`,
  zone_lock: (e, { z }) =>
    `CPU ${e.cpu} takes ${z}'s zone lock: waited ${e.a} ns, holds it ${e.b} ns to move ${pages(e.c)}.`,
  alloc_fail: (e) =>
    `Page allocation failure: order ${e.order}, ${showGfpFlags(e.a)}. Nothing could satisfy it.`,
  bad_page: (e) => `Bad page state at ${block(e)}: ${BAD_REASONS[e.a] ?? `reason ${e.a}`}.`,
  page_leak: (e) =>
    `The refilled block ${block(e)} failed the new-page check; the kernel leaks it rather than hand it out.`,
  runaway_loop: (e) =>
    `A loop ran ${e.a} times without ending: the state is corrupted (count ${e.b}, ${pages(e.c)} on the lists). The model stops here.`,
  sysctl: (e) =>
    `vm.${sysctlLabel(e.a) ?? `sysctl ${e.a}`} is set to ${sysctlValueText(sysctlName(e.a), e.b)}.`,
  out_of_memory: (e) =>
    `Reclaim cannot free enough for order ${e.order}: ${OOM_DECISIONS[e.a] ?? `decision ${e.a}`}.`,
  reclaim_retry: (e) =>
    e.a
      ? `should_reclaim_retry: free plus reclaimable pages could still pass MIN, so the request retries (${e.b} fruitless tries so far).`
      : `should_reclaim_retry: even with every reclaimable page freed no zone would pass MIN (${e.b} fruitless tries): give up on reclaim.`,
  mm_vmscan_kswapd_wake: (e, { z }) =>
    `kswapd of node ${e.node} starts balance_pgdat for ${z} at priority 12: each round aims to reclaim ${pages(e.a)} (the high watermarks)${e.b ? `, first ${pages(e.b)} for a watermark boost` : ''}; the per-CPU lists are capped while it runs.`,
  kswapd_round: (e) =>
    `kswapd round at priority ${e.a}: scanned ${pages(e.c)} (1/${2 ** e.a} of each list), reclaimed ${pages(e.b)}.`,
  mm_vmscan_kswapd_sleep: (e) =>
    e.a === 2
      ? `kswapd of node ${e.node} is done: ${pages(e.b)} reclaimed, the node is balanced (or hopeless after ${e.c} failures); it naps a tenth of a second before it sleeps, and runs again if the node is unbalanced by then.`
      : e.a
        ? `kswapd of node ${e.node} wakes from its nap with the node still balanced (or hopeless after ${e.c} failures), and sleeps until woken.`
        : `kswapd of node ${e.node} ran its priority loop out with ${pages(e.b)} reclaimed and the node still unbalanced: it starts again.`,
  mm_vmscan_lru_shrink_inactive: (e) =>
    `shrink_inactive_list scanned ${pages(e.a)} from the tail of the ${lru(e.mt)} at priority ${e.c} and freed ${pages(e.b)}.`,
  mm_vmscan_lru_shrink_active: (e) =>
    `shrink_active_list moved ${pages(e.b)} of ${pages(e.a)} from the ${lru(e.mt)} to the inactive list (priority ${e.c}).`,
  mm_vmscan_direct_reclaim_begin: (e) =>
    `CPU ${e.cpu} stalls in direct reclaim for an order-${e.order} request (${showGfpFlags(e.a)}): it will free up to 32 pages itself.`,
  mm_vmscan_direct_reclaim_end: (e) =>
    `Direct reclaim on CPU ${e.cpu} ends with ${pages(e.a)} reclaimed (priority ${e.b}).`,
  mm_lru_insertion: (e) =>
    `${block(e)} holds ${PURPOSES[e.a] ?? 'memory'} and joins the ${lru(e.mt)} of node ${e.node}.`,
  mm_lru_activate: (e) =>
    `${block(e)} is used again while referenced: folio_mark_accessed moves it from the ${lru(e.mt)} to the active list.`,
  writeback: (e) =>
    `The flusher writes back ${pages(e.a)} of dirty page cache on node ${e.node}${e.b ? `; ${pages(e.b)} that reclaim had marked go to the inactive tail` : ''}.`,
  ...PERCPU_NARRATIONS,
  ...FAULT_NARRATIONS,
  ...NUMA_NARRATIONS,
};

/** Say what an event means. `nodes` is the machine's node count (to name zones unambiguously). */
export function narrate(e: SimEvent, nodes = 1): Narration {
  const kind = kindName(e.kind);
  const say: Say | undefined = (NARRATIONS as Readonly<Record<string, Say>>)[kind];
  const text = say ? say(e, { z: where(e, nodes), mt: migratetypeName(e.mt) }) : `${kind}.`;
  return { text, fn: fnName(e.fn), kind };
}
