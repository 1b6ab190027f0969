/*
 * pcp-from-trace.ts: which per-CPU lists held a captured pageset's pages. zoneinfo gives only
 * each pageset's count; a trace taken right after shows the lists at work: a refill
 * (mm_page_alloc_zone_locked percpu_refill=1, and mm_page_alloc_extfrag alone for a block it stole
 * from another type's list) happens only when its list is empty, an allocation
 * of a pcp order takes a block off its type's list, a free puts one on (the list the trace shows
 * it reached, free-list-types.ts, else its allocation's type), a drain
 * (mm_page_pcpu_drain) takes one off. A list that gave out more than it got before its first
 * refill held at least that much at the start; a drain that went on from a list, or past it, shows
 * what it held exactly (listsFromDrains). Those bounds are the lists' contents; what
 * remains of the count goes to the order-0 lists the trace never saw empty, in proportion (else to
 * such lists of higher orders), and what they cannot take in whole blocks to an order-0 list the
 * trace never touched (a list a refill proved empty held no more than it gave out). Without any
 * evidence the pages stay on the order-0 MOVABLE list (capture-ops.ts). The count itself is
 * zoneinfo's, read a moment before tracing began, unless a refill's size (countFromRefill) or two
 * drains (countFromDrains) show what it was. Frees whose pcp trylock failed (pcp-locked-frees.ts)
 * reached no list and are not counted.
 */
import type { CapturedPcp, CapturedState, ExplicitMachine } from '../core/machine-config';
import { MAX_NR_ZONES, PCP_BATCH_SCALE_MAX, zoneOfPfn } from '../core/machine-config';
import { MIGRATE_PCPTYPES, pcpIndexOf, pcpListCount, pcpListOf } from '../core/pcp-index';
import { freeListTypes } from './free-list-types';
import { parseTraceLine, traceNumber } from './ftrace';
import { PcpLockWindows } from './pcp-locked-frees';
import type { ZoneinfoZone } from './zoneinfo-machine';

const MIGRATE_MOVABLE = 1;
/** The lists of the kernel the captures come from (6.18); HIGHATOMIC frees go to MOVABLE's. */
const LAYOUT = 'PCP_LAYOUT_6_10';

/** A run of refill lines on one CPU: one rmqueue_bulk. */
interface RefillRun {
  zone: number; // node * MAX_NR_ZONES + zone
  order: number;
  blocks: number;
  netBefore: number; // the pageset's pages put on less taken off since the trace began, before it
  afterRefill: boolean; // an order-0 refill of the pageset came after its last free: alloc_factor >= 1
}

/**
 * The pageset's batch and high when high is fixed (high_min == high_max: the
 * percpu_pagelist_high_fraction sysctl set) and is the captured one; null otherwise.
 */
function fixedHigh(
  pcp: CapturedPcp,
  figures: ReadonlyMap<string, number>,
): { batch: number; high: number } | null {
  const batch = figures.get('batch');
  const high = figures.get('high_min');
  if (batch === undefined || high === undefined || high !== figures.get('high_max')) return null;
  return batch >= 1 && high === pcp.high ? { batch, high } : null;
}

/**
 * The pageset's count when the trace began, if an order-0 refill tells it. zoneinfo's count
 * is read a moment before tracing starts, and the pageset moves in between. With high fixed
 * (high_min == high_max: percpu_pagelist_high_fraction set), nr_pcp_alloc asks for
 * min(batch << alloc_factor, max(high - count - batch, batch)) blocks: a refill of more than batch
 * that is not batch << k was capped by the room left, so count was high - batch - blocks then;
 * less what the trace put on the lists before it, that is the count at the start. The first such
 * refill tells it (a later one has more of what the trace does not show between). null: no such
 * evidence (a growing high would have to be followed through the trace: left to zoneinfo's count).
 */
function countFromRefill(
  pcp: CapturedPcp,
  figures: ReadonlyMap<string, number>,
  runs: readonly RefillRun[],
): number | null {
  const fixed = fixedHigh(pcp, figures);
  if (!fixed) return null;
  const { batch, high } = fixed;
  const capped = (blocks: number): boolean => {
    if (blocks <= batch) return false;
    for (let k = 0; batch << k <= blocks; k++) if (batch << k === blocks) return false;
    return true;
  };
  const run = runs.find((r) => capped(r.blocks));
  if (run) {
    const count = high - batch - run.blocks - run.netBefore;
    return count >= 0 && count <= high ? count : null;
  }
  // a refill of just batch where alloc_factor >= 1 asked for more and was held to batch by the
  // floor: high - count - batch <= batch, count at least high - 2 * batch then
  let least = pcp.count;
  for (const r of runs)
    if (r.afterRefill && r.blocks === batch)
      least = Math.max(least, high - 2 * batch - r.netBefore);
  return least > pcp.count && least <= high ? least : null;
}

/** A drain call: one pageset's consecutive mm_page_pcpu_drain lines (one free_pcppages_bulk). */
interface DrainCall {
  pages: number;
  netBefore: number; // the pageset's net pages (see RefillRun) before the call
  freedBefore: number; // pages freed to the pageset since its last allocation, before the call
  burstFree: number; // free_count after that allocation, followed from the trace's start
  allocsBefore: number; // allocations from the pageset before the call
  clean: boolean; // nothing but frees reached the pageset since its previous drain call
  trigger: number | null; // pages freed since the allocation through the first list's last page
  visits: { pindex: number; blocks: number; last: number }[]; // lists drained, in order; last pfn
  netAt: number[]; // per pindex: that list's blocks put on less taken off before the call
}

/** What the trace shows a pageset doing, for the count its drains tell (countFromDrains). */
interface PagesetTrack {
  freeCount: number; // free_count as the trace's frees and allocations move it, from 0
  freeCountCap: number; // it grows only while below batch << PCP_BATCH_SCALE_MAX
  allocs: number;
  burstFree: number;
  freed: number; // pages freed to it since its last allocation
  freedAt: Map<number, number>; // pfn -> `freed` through its free, since the last allocation
  allocSinceDrain: boolean;
  calls: DrainCall[];
}

/**
 * The pageset's count when the trace began, if two drains that frees triggered tell it. With high
 * fixed (high_min == high_max), the free that brings count to high drains
 * nr_pcp_free = clamp(free_count, batch, high - batch) pages, starting with the list it freed to
 * (free_frozen_page_commit, free_pcppages_bulk): the newest page there is the one that triggered
 * it. A drain that empties that list and goes on to the next drains its trigger last, so the
 * trace shows which free it was, although a folio batch traces all its frees before committing
 * any. After a drain of D1 pages, D1 pages of frees bring count back to high: with nothing but
 * frees between, the first drain's trigger came D1 pages before the second's, and count was high
 * then. So count at the start is high, less the pages the trace put on the lists and took off
 * them before that free. The first drain must be one a free asked for: free_count then (followed
 * from the trace's start, where it is taken as 0; 11 allocations halve any value it had away)
 * asks what it took. null: no such pair.
 */
function countFromDrains(
  pcp: CapturedPcp,
  figures: ReadonlyMap<string, number>,
  calls: readonly DrainCall[],
): number | null {
  const fixed = fixedHigh(pcp, figures);
  if (!fixed) return null;
  const { batch, high } = fixed;
  const HALVINGS = 11; // free_count < batch << PCP_BATCH_SCALE_MAX + 2^order <= 2^11
  const OVERSHOOT = 8; // a drain takes whole blocks: up to an order-3 block past its count
  for (let i = 0; i + 1 < calls.length; i++) {
    const [d1, d2] = [calls[i], calls[i + 1]];
    if (!d1 || !d2 || !d2.clean || d1.allocsBefore < HALVINGS) continue;
    if (d2.visits.length < 2 || d2.trigger === null) continue; // it went on: the first ran empty
    const freed = d2.trigger - d1.pages; // pages freed since the allocation through d1's trigger
    if (freed < 1 || freed > d1.freedBefore) continue;
    const asked = Math.max(d1.burstFree + freed, batch);
    if (d1.pages < asked || d1.pages >= asked + OVERSHOOT) continue;
    // the frees traced before the first drain but committed after its trigger were not on yet
    const count = high - (d1.netBefore - (d1.freedBefore - freed));
    return count >= 0 && count <= high ? count : null;
  }
  return null;
}

interface ListTrack {
  net: number; // blocks put on minus blocks taken off, since the trace began
  low: number; // the lowest net seen: -low blocks were there at the start
  refilled: boolean; // a refill proved it empty once
}

/** The list (pindex) an order and list type name: the THP one above order 3. */
function pindexOf(order: number, list: number): number {
  return pcpIndexOf(LAYOUT, order, list, order > 3);
}

/**
 * What the pageset's lists held at the start, where a drain shows it exactly: free_pcppages_bulk
 * drains one list until it is empty or the count is met, then goes round to the next non-empty
 * one. So a list a drain left for another was empty after it (it held what the drain took), and
 * the lists it passed over were empty then. pindex -> blocks at the start (the first drain that
 * shows it). The lists before a drain's first are not read: a free starts at its own list, the
 * vmstat worker's decay at list 0, and the trace does not say which drain is which.
 */
function listsFromDrains(calls: readonly DrainCall[], nrLists: number): Map<number, number> {
  const exact = new Map<number, number>();
  const note = (pindex: number, blocks: number) => {
    if (!exact.has(pindex)) exact.set(pindex, blocks);
  };
  for (const call of calls) {
    // a drain never comes back to a list it left (it is empty, and nothing refills it under the
    // zone lock): where one seems to, a line printed a pageblock's type that was not its list's,
    // and the drain says nothing
    const lists = call.visits.map((v) => v.pindex);
    if (new Set(lists).size !== lists.length) continue;
    for (let i = 0; i + 1 < call.visits.length; i++) {
      const [left, next] = [call.visits[i], call.visits[i + 1]];
      if (!left || !next) continue;
      note(left.pindex, left.blocks - (call.netAt[left.pindex] ?? 0));
      // once round at most (a pindex past nrLists would otherwise never be met)
      for (let k = 1; k < nrLists; k++) {
        const p = (left.pindex + k) % nrLists;
        if (p === next.pindex) break;
        note(p, -(call.netAt[p] ?? 0));
      }
    }
  }
  return exact;
}

/** The orders with pcp lists on the machine: 0..3, and the THP order when THP is configured. */
function pcpOrder(machine: ExplicitMachine, order: number): boolean {
  return order <= 3 || (machine.thp && order === machine.pageblockOrder);
}

/**
 * The captured state with each pageset's lists filled in from the trace that followed the capture
 * (machine's zone spans map a pfn to its zone). Pagesets the trace says nothing about keep the default.
 */
export function pcpListsFromTrace(
  state: CapturedState,
  machine: ExplicitMachine,
  text: string,
  zoneinfo?: readonly ZoneinfoZone[], // the pagesets' batch, high_min, high_max (countFromRefill)
): CapturedState {
  const zoneOf = (pfn: number): number => {
    const z = zoneOfPfn(machine, pfn);
    return z ? z.node * MAX_NR_ZONES + z.zone : -1;
  };
  const tracks = new Map<string, ListTrack>(); // cpu/zone/order/mt
  const nrLists = pcpListCount(LAYOUT, machine.thp);
  const net = new Map<string, number>(); // cpu/zone -> pages put on its lists less pages taken off
  const runs = new Map<number, RefillRun>(); // cpu -> the refill run it is in
  const order0Runs = new Map<string, RefillRun[]>(); // cpu/zone -> its order-0 refill runs
  const refilledLast = new Set<string>(); // cpu/zone whose last free came before an order-0 refill
  const allocMt = new Map<number, number>(); // pfn -> migratetype of its allocation in the trace
  const fromBuddy = new Set<number>(); // CPUs whose next mm_page_alloc came from the buddy
  // zoneinfo's figures of each pageset: cpu/zone -> batch, high_min, high_max, ...
  const figuresOf = new Map<string, ReadonlyMap<string, number>>();
  for (const z of zoneinfo ?? [])
    for (const p of z.pagesets)
      figuresOf.set(`${p.cpu}/${z.node * MAX_NR_ZONES + z.idx}`, p.figures);
  const pagesets = new Map<string, PagesetTrack>(); // cpu/zone -> its frees, allocations, drains
  const openCalls = new Map<number, { key: string; call: DrainCall }>(); // cpu -> drain call
  const pageset = (key: string): PagesetTrack => {
    let t = pagesets.get(key);
    if (!t)
      pagesets.set(
        key,
        (t = {
          freeCount: 0,
          freeCountCap: (figuresOf.get(key)?.get('batch') ?? 63) << PCP_BATCH_SCALE_MAX,
          allocs: 0,
          burstFree: 0,
          freed: 0,
          freedAt: new Map(),
          allocSinceDrain: true,
          calls: [],
        }),
      );
    return t;
  };
  /** What one traced event did to its pageset's free_count, bursts of frees and drain calls. */
  const follow = (cpu: number, pfn: number, order: number, mt: number, event: string) => {
    const zone = zoneOf(pfn);
    if (zone < 0 || !pcpOrder(machine, order)) return;
    const key = `${cpu}/${zone}`;
    const t = pageset(key);
    if (event === 'mm_page_pcpu_drain') {
      const pindex = pindexOf(order, mt < MIGRATE_PCPTYPES ? mt : MIGRATE_MOVABLE);
      const open = openCalls.get(cpu);
      if (open && open.key === key) {
        const { visits } = open.call;
        const visit = visits.at(-1);
        if (visit && visit.pindex === pindex) {
          visit.blocks++;
          visit.last = pfn;
        } else {
          // leaving the first list: its last page was the trigger (countFromDrains)
          const first = visits[0];
          if (visits.length === 1 && first) open.call.trigger = t.freedAt.get(first.last) ?? null;
          visits.push({ pindex, blocks: 1, last: pfn });
        }
        open.call.pages += 2 ** order;
        return;
      }
      const call: DrainCall = {
        pages: 2 ** order,
        netBefore: net.get(key) ?? 0,
        freedBefore: t.freed,
        burstFree: t.burstFree,
        allocsBefore: t.allocs,
        clean: !t.allocSinceDrain,
        trigger: null,
        visits: [{ pindex, blocks: 1, last: pfn }],
        netAt: Array.from({ length: nrLists }, (_, p) => {
          const l = pcpListOf(LAYOUT, p);
          const order = l.thp ? machine.pageblockOrder : l.order;
          return tracks.get(`${key}/${order}/${l.mt}`)?.net ?? 0;
        }),
      };
      t.calls.push(call);
      t.allocSinceDrain = false;
      openCalls.set(cpu, { key, call });
      return;
    }
    if (event === 'mm_page_alloc') {
      // rmqueue_pcplist halves it; this allocation's refill, if any, came just before
      t.freeCount >>= 1;
      t.allocs++;
      t.burstFree = t.freeCount;
      t.freed = 0;
      t.freedAt.clear();
      t.allocSinceDrain = true;
    } else if (event === 'mm_page_free') {
      if (t.freeCount < t.freeCountCap) t.freeCount += 2 ** order;
      t.freed += 2 ** order;
      t.freedAt.set(pfn, t.freed);
    }
  };
  const move = (
    cpu: number,
    pfn: number,
    order: number,
    mt: number,
    by: number,
    refill = false,
  ) => {
    const zone = zoneOf(pfn);
    if (zone < 0 || !pcpOrder(machine, order)) return;
    if (refill) {
      const run = runs.get(cpu);
      if (run && run.zone === zone && run.order === order) run.blocks++;
      else {
        endRun(cpu);
        runs.set(cpu, {
          zone,
          order,
          blocks: 1,
          netBefore: net.get(`${cpu}/${zone}`) ?? 0,
          afterRefill: refilledLast.has(`${cpu}/${zone}`),
        });
      }
    } else if (by > 0) refilledLast.delete(`${cpu}/${zone}`); // a free halves alloc_factor
    net.set(`${cpu}/${zone}`, (net.get(`${cpu}/${zone}`) ?? 0) + by * 2 ** order);
    const list = mt < MIGRATE_PCPTYPES ? mt : MIGRATE_MOVABLE;
    const key = `${cpu}/${zone}/${order}/${list}`;
    let t = tracks.get(key);
    if (!t) tracks.set(key, (t = { net: 0, low: 0, refilled: false }));
    if (refill && !t.refilled) t.refilled = true;
    t.net += by;
    t.low = Math.min(t.low, t.net);
  };
  function endRun(cpu: number): void {
    const run = runs.get(cpu);
    if (!run) return;
    runs.delete(cpu);
    const key = `${cpu}/${run.zone}`;
    if (run.order !== 0) return;
    refilledLast.add(key);
    const list = order0Runs.get(key);
    if (list) list.push(run);
    else order0Runs.set(key, [run]);
  }
  const lines = text.split('\n');
  // the list each free reached, as the trace shows it; else the type its allocation asked for
  const freeTypes = freeListTypes(lines, machine.pageblockOrder);
  const pcpLocks = new PcpLockWindows();
  const lockedPfn = new Map<number, number>(); // cpu -> pfn of its line just before, if zone_locked
  const stolen = new Map<number, { pfn: number; order: number; mt: number }[]>(); // cpu -> steals
  /**
   * The blocks a CPU stole (extfrag lines with no zone_locked line of their own), once its next
   * line says what they were for: a refill's (rmqueue_bulk), when refill lines or other steals
   * come with them, else the one block of an allocation from the buddy (rmqueue_buddy).
   */
  const settleSteals = (cpu: number, next: { event: string; fields: Map<string, string> }) => {
    const blocks = stolen.get(cpu);
    if (!blocks) return;
    stolen.delete(cpu);
    const refill =
      runs.has(cpu) ||
      blocks.length > 1 ||
      (next.event === 'mm_page_alloc_zone_locked' && next.fields.get('percpu_refill') === '1');
    if (!refill) fromBuddy.add(cpu);
    else for (const b of blocks) move(cpu, b.pfn, b.order, b.mt, 1, true);
  };
  for (let i = 0; i < lines.length; i++) {
    const p = parseTraceLine(lines[i] ?? '');
    if (p.kind !== 'record') continue;
    const r = p.record;
    if (r.event === 'mm_page_alloc_extfrag') {
      // a block stolen from another type's list (__rmqueue_steal) is traced by this line
      // alone; a claimed one (__rmqueue_claim) came off the buddy with a zone_locked line just
      // before, of the same pfn, which counted it
      const pfn = traceNumber(r.fields.get('pfn'));
      const order = traceNumber(r.fields.get('alloc_order'));
      const mt = traceNumber(r.fields.get('alloc_migratetype')) ?? MIGRATE_MOVABLE;
      if (pfn !== null && order !== null && lockedPfn.get(r.cpu) !== pfn) {
        const blocks = stolen.get(r.cpu) ?? [];
        blocks.push({ pfn, order, mt });
        stolen.set(r.cpu, blocks);
      }
      lockedPfn.delete(r.cpu);
      continue;
    }
    settleSteals(r.cpu, r);
    if (r.event === 'mm_page_alloc_zone_locked')
      lockedPfn.set(r.cpu, traceNumber(r.fields.get('pfn')) ?? 0);
    else lockedPfn.delete(r.cpu);
    // a refill run ends at anything else its CPU traces (but a steal within it), a drain call at
    // anything but a drain
    if (!(r.event === 'mm_page_alloc_zone_locked' && r.fields.get('percpu_refill') === '1'))
      endRun(r.cpu);
    if (r.event !== 'mm_page_pcpu_drain') openCalls.delete(r.cpu);
    // a free whose pcp trylock failed went to the buddy: no list saw it
    if (pcpLocks.lockedFree(r)) continue;
    const pfn = traceNumber(r.fields.get('pfn'));
    const order = traceNumber(r.fields.get('order'));
    const mt = traceNumber(r.fields.get('migratetype')) ?? MIGRATE_MOVABLE;
    if (pfn === null || order === null || pfn === 0) continue;
    switch (r.event) {
      case 'mm_page_alloc_zone_locked':
        if (r.fields.get('percpu_refill') === '1') move(r.cpu, pfn, order, mt, 1, true);
        else fromBuddy.add(r.cpu);
        break;
      case 'mm_page_alloc':
        allocMt.set(pfn, mt);
        if (fromBuddy.delete(r.cpu)) break;
        move(r.cpu, pfn, order, mt, -1);
        follow(r.cpu, pfn, order, mt, r.event);
        break;
      case 'mm_page_free':
        move(r.cpu, pfn, order, freeTypes.get(i) ?? allocMt.get(pfn) ?? MIGRATE_MOVABLE, 1);
        follow(r.cpu, pfn, order, mt, r.event);
        break;
      case 'mm_page_pcpu_drain':
        follow(r.cpu, pfn, order, mt, r.event);
        move(r.cpu, pfn, order, mt, -1);
        break;
    }
  }
  for (const cpu of [...runs.keys()]) endRun(cpu);
  const pcps = state.pcps.map((captured) => {
    const prefix = `${captured.cpu}/${captured.node * MAX_NR_ZONES + captured.zone}/`;
    const figures = figuresOf.get(prefix.slice(0, -1));
    const runs0 = order0Runs.get(prefix.slice(0, -1)) ?? [];
    const calls = pagesets.get(prefix.slice(0, -1))?.calls ?? [];
    // two drains tell the count exactly; a refill tells it, or a bound on it
    const drained = figures ? countFromDrains(captured, figures, calls) : null;
    const counted = drained ?? (figures ? countFromRefill(captured, figures, runs0) : null);
    const pcp = counted === null ? captured : { ...captured, count: counted };
    const seen = [...tracks.entries()].filter(([k]) => k.startsWith(prefix));
    // what drains show exactly; a lower bound above it is trace lines taken for the wrong list
    const exact = listsFromDrains(calls, nrLists);
    const lists = seen
      .map(([k, t]) => {
        const [, , order = 0, list = MIGRATE_MOVABLE] = k.split('/').map(Number);
        const shown = exact.get(pindexOf(order, list));
        return {
          order,
          mt: list,
          blocks: Math.max(-t.low, shown ?? 0),
          open: !t.refilled && shown === undefined,
          shown: shown !== undefined && shown >= -t.low,
        };
      })
      .filter((l) => l.blocks > 0);
    if (lists.length === 0 || pcp.count === 0) return pcp;
    let pages = lists.reduce((n, l) => n + l.blocks * 2 ** l.order, 0);
    // the bounds raise a count below them (zoneinfo's was read a moment before the lists filled)
    // by up to one refill's worth (batch << PCP_BATCH_SCALE_MAX, nr_pcp_alloc's most) and not past
    // high; bounds beyond that are trace lines taken for the wrong list (which list a free or a
    // drain touched is inferred: a drain prints the pageblock's type, which can change after the
    // free), and are scaled down to the count
    const gain = (figures?.get('batch') ?? 0) << PCP_BATCH_SCALE_MAX;
    const raised = Math.min(pages, pcp.high);
    const count =
      drained === null && raised - pcp.count <= gain ? Math.max(pcp.count, raised) : pcp.count;
    // what drains showed a list holding is exact: the bounds that only the lists' lowest points
    // give (which list each free reached is inferred) give way first
    for (const proven of [false, true]) {
      if (pages <= count) break;
      const give = lists.filter((l) => l.shown === proven);
      const theirs = give.reduce((n, l) => n + l.blocks * 2 ** l.order, 0);
      const keep = Math.max(0, theirs - (pages - count));
      for (const l of give) l.blocks = Math.floor((l.blocks * keep) / Math.max(1, theirs));
      pages = lists.reduce((n, l) => n + l.blocks * 2 ** l.order, 0);
    }
    let rest = count - pages;
    // the rest sat on lists the trace never saw empty, in proportion to what they proved to
    // hold: the order-0 ones when there are any (most frees are of order 0; a higher order's
    // list held about what the trace proves, its drains later take that), else the higher ones
    const openAll = lists.filter((l) => l.open);
    const open = openAll.some((l) => l.order === 0)
      ? openAll.filter((l) => l.order === 0)
      : openAll;
    const openPages = open.reduce((n, l) => n + l.blocks * 2 ** l.order, 0);
    for (const l of open)
      l.blocks += Math.floor((rest * (l.blocks * 2 ** l.order)) / openPages / 2 ** l.order);
    rest = count - lists.reduce((n, l) => n + l.blocks * 2 ** l.order, 0);
    // what the open lists cannot take in whole blocks goes to the open order-0 list; else to an
    // order-0 list the trace never touched (a refilled list held exactly what it gave out before
    // its refill: more there would contradict the trace); else to the order-0 MOVABLE one
    const zero = open.find((l) => l.order === 0);
    const untouched = [MIGRATE_MOVABLE, 0, 2].find(
      (mt) => !seen.some(([k]) => k === `${prefix}0/${mt}`) && !exact.has(pindexOf(0, mt)),
    );
    if (zero) zero.blocks += rest;
    else if (rest > 0 && untouched !== undefined)
      lists.push({ order: 0, mt: untouched, blocks: rest, open: true, shown: false });
    else {
      const movable = lists.find((l) => l.order === 0 && l.mt === MIGRATE_MOVABLE);
      if (movable) movable.blocks += rest;
      else if (rest > 0)
        lists.push({ order: 0, mt: MIGRATE_MOVABLE, blocks: rest, open: true, shown: false });
    }
    return {
      ...pcp,
      count,
      lists: lists.map(({ order, mt, blocks }) => ({ order, mt, blocks })),
    };
  });
  return { ...state, pcps };
}
