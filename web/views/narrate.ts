/*
 * narrate.ts: each event in plain words, naming the kernel function that made the decision. The
 * event log shows these, the aria-live region reads the current one aloud, and lessons quote them.
 * One sentence per event, most important fact first; numbers keep the kernel's units (pages).
 */
import { showGfpFlags } from '../core/gfp';
import { EV } from '../player/markers';
import type { SimEvent } from '../player/engine';
import { BAD_REASONS, fnName, kindName, SYSCTL_LABELS, zoneName } from './names';
import { migratetypeName } from './palette';

const ZF_REASONS: Record<number, string> = {
  1: 'its free pages are below the watermark this request must keep',
  2: 'the watermark passed but it had no free block of that order',
  3: 'a walk that avoids fragmentation reached another node, so it restarts allowing fragmentation locally first',
  4: 'no zone could serve without fragmenting a pageblock, so the walk is retried allowing it',
  5: "this node's kswapd is already reclaiming, so idle nodes are tried first",
  6: 'only nodes with a busy kswapd were left, so they are walked too',
};

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

/** Say what an event means. `nodes` is the machine's node count (to name zones unambiguously). */
export function narrate(e: SimEvent, nodes = 1): Narration {
  const z = where(e, nodes);
  const mt = migratetypeName(e.mt);
  let text: string;
  switch (e.kind) {
    case EV.MM_PAGE_ALLOC:
      text =
        e.b === 1
          ? `CPU ${e.cpu} got ${block(e)} from ${z} for a ${mt} request (${showGfpFlags(e.a)}).`
          : `CPU ${e.cpu}'s order-${e.order} ${mt} request (${showGfpFlags(e.a)}) failed.`;
      break;
    case EV.MM_PAGE_FREE:
      text = `CPU ${e.cpu} frees ${block(e)} in ${z}.`;
      break;
    case EV.MM_PAGE_ALLOC_ZONE_LOCKED:
      text = `Under ${z}'s zone lock, ${block(e)} comes off the ${mt} free list${e.a ? ' to refill a per-CPU list' : ''}.`;
      break;
    case EV.MM_PAGE_PCPU_DRAIN:
      text = `${block(e)} goes from CPU ${e.cpu}'s ${mt} per-CPU list back to the ${z} buddy lists.`;
      break;
    case EV.MM_PAGE_ALLOC_EXTFRAG:
      text =
        `No free ${mt} block was left, so an order-${e.order} request falls back to a ${migratetypeName(e.b)} ` +
        `block of order ${e.a}${e.c & 1 ? ', fragmenting memory' : ''}${e.c & 2 ? ' and claiming the pageblock' : ''}.`;
      break;
    case EV.PCP_HIT:
      text = `CPU ${e.cpu} takes ${block(e)} from its per-CPU list ${e.a} without the zone lock; ${pages(e.b)} left there.`;
      break;
    case EV.PCP_REFILL:
      text = `CPU ${e.cpu}'s per-CPU list was empty: it takes the zone lock of ${z} and asks for ${blocks(e.a)}, gets ${e.b} (alloc_factor now ${e.c}).`;
      break;
    case EV.PCP_FREE:
      text = `CPU ${e.cpu} puts ${block(e)} on its per-CPU list ${e.a}: ${pages(e.b)} there, high is ${e.c}.`;
      break;
    case EV.PCP_BULK_FREE:
      text = `CPU ${e.cpu}'s per-CPU lists hold ${pages(e.b)} (high ${e.c}): ${pages(e.a)} go back to the ${z} buddy lists under the zone lock.`;
      break;
    case EV.PCP_HIGH:
      text = `CPU ${e.cpu}'s per-CPU high for ${z} changes from ${e.a} to ${e.b} pages.`;
      break;
    case EV.BUDDY_SPLIT:
      text = `The block is split: its upper half, ${block(e)}, goes on the ${mt} free list.`;
      break;
    case EV.BUDDY_MERGE:
      text = `The freed block's buddy at pfn ${e.a} was free too: they merge into ${block(e)}.`;
      break;
    case EV.BUDDY_ENQUEUE:
      text = `${block(e)} joins the ${e.a ? 'tail' : 'head'} of ${z}'s ${mt} free list.`;
      break;
    case EV.WMARK_CHECK:
      text =
        `${z}: ${pages(e.a)} free against a mark of ${e.b} (watermark plus reserve) for order ${e.order}: ` +
        (e.c ? 'enough, the zone may be used.' : 'too few, the zone is skipped.');
      break;
    case EV.ZONE_FALLBACK:
      text = `The walk leaves ${z}: ${ZF_REASONS[e.a] ?? `reason ${e.a}`}.`;
      break;
    case EV.PAGEBLOCK_CLAIM:
      text = e.c
        ? `The pageblock at pfn ${e.pfn} changes from ${migratetypeName(e.b)} to ${mt} (${pages(e.a)} free or alike).`
        : `The pageblock at pfn ${e.pfn} stays ${migratetypeName(e.b)}: only ${pages(e.a)} free or alike, a single block is stolen.`;
      break;
    case EV.HIGHATOMIC_RESERVE:
      text = `The pageblock at pfn ${e.pfn} is reserved for high-order atomic allocations (${pages(e.a)} reserved now).`;
      break;
    case EV.HIGHATOMIC_UNRESERVE:
      text = `The high-order atomic reserve at pfn ${e.pfn} is given back to ordinary use.`;
      break;
    case EV.WMARK_BOOST:
      text = `${z}'s watermark is boosted from ${pages(e.a)} to ${pages(e.b)} after a fallback, so kswapd will reclaim a little ahead.`;
      break;
    case EV.KSWAPD_WAKE:
      text = `kswapd of node ${e.node} is woken for order ${e.order} (it reclaims in the background; the model reclaims nothing).`;
      break;
    case EV.DRAIN:
      // drain_all_pages spans every zone: its event names no zone, and b counts the CPUs drained
      text =
        fnName(e.fn) === 'drain_all_pages'
          ? `drain_all_pages: ${pages(e.a)} drained from the per-CPU lists of ${e.b} CPU${e.b === 1 ? '' : 's'} back to the buddy.`
          : `${pages(e.a)} drained from CPU ${e.cpu}'s per-CPU lists of ${z} back to the buddy.`;
      break;
    case EV.VMSTAT_TICK:
      text = `A vmstat interval passes on CPU ${e.cpu}: per-CPU high decays and remote pages age.`;
      break;
    case EV.CPU_HOTPLUG:
      text = e.a
        ? `CPU ${e.cpu} comes online; its per-CPU lists start empty.`
        : `CPU ${e.cpu} goes offline; its per-CPU lists are drained.`;
      break;
    case EV.ZONE_LOCK:
      text = `CPU ${e.cpu} takes ${z}'s zone lock: waited ${e.a} ns, holds it ${e.b} ns to move ${pages(e.c)}.`;
      break;
    case EV.ALLOC_FAIL:
      text = `Page allocation failure: order ${e.order}, ${showGfpFlags(e.a)}. Nothing could satisfy it.`;
      break;
    case EV.BAD_PAGE:
      text = `Bad page state at ${block(e)}: ${BAD_REASONS[e.a] ?? `reason ${e.a}`}.`;
      break;
    case EV.PAGE_LEAK:
      text = `The refilled block ${block(e)} failed the new-page check; the kernel leaks it rather than hand it out.`;
      break;
    case EV.RUNAWAY_LOOP:
      text = `A loop ran ${e.a} times without ending: the state is corrupted (count ${e.b}, ${pages(e.c)} on the lists). The model stops here.`;
      break;
    case EV.SYSCTL:
      text = `vm.${SYSCTL_LABELS[e.a] ?? `sysctl ${e.a}`} is set to ${e.b}.`;
      break;
    default:
      text = `${kindName(e.kind)}.`;
  }
  return { text, fn: fnName(e.fn), kind: kindName(e.kind) };
}
