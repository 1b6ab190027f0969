/*
 * pcp-from-trace.ts: which per-CPU lists held a captured pageset's pages. zoneinfo gives only
 * each pageset's count; a trace taken right after shows the lists at work: a refill
 * (mm_page_alloc_zone_locked percpu_refill=1) happens only when its list is empty, an allocation
 * of a pcp order takes a block off its type's list, a free puts one on (the list the trace shows
 * it reached, free-list-types.ts, else its allocation's type), a drain
 * (mm_page_pcpu_drain) takes one off. A list that gave out more than it got before its first
 * refill held at least that much at the start. Those lower bounds are the lists' contents; what
 * remains of the count goes to the order-0 lists the trace never saw empty, in proportion (else to
 * such lists of higher orders), and what they cannot take in whole blocks to an order-0 list the
 * trace never touched (a list a refill proved empty held no more than it gave out). Without any evidence the
 * pages stay on the order-0 MOVABLE list (capture-ops.ts). The count itself is zoneinfo's, read a
 * moment before tracing began, unless a refill's size shows what it was (countFromRefill). Frees
 * whose pcp trylock failed (pcp-locked-frees.ts) reached no list and are not counted.
 */
import type { CapturedPcp, CapturedState, ExplicitMachine } from '../core/machine-config';
import { MAX_NR_ZONES, zoneOfPfn } from '../core/machine-config';
import { freeListTypes } from './free-list-types';
import { parseTraceLine, traceNumber } from './ftrace';
import { PcpLockWindows } from './pcp-locked-frees';
import type { ZoneinfoZone } from './zoneinfo-machine';

const MIGRATE_MOVABLE = 1;
const PCP_TYPES = 3;
const PCP_BATCH_SCALE_MAX = 5; // CONFIG_PCP_BATCH_SCALE_MAX: a refill asks batch << 5 at most // UNMOVABLE, MOVABLE, RECLAIMABLE have lists; HIGHATOMIC frees go to MOVABLE

/** A run of refill lines on one CPU: one rmqueue_bulk. */
interface RefillRun {
  zone: number; // node * MAX_NR_ZONES + zone
  order: number;
  blocks: number;
  netBefore: number; // the pageset's pages put on less taken off since the trace began, before it
  afterRefill: boolean; // an order-0 refill of the pageset came after its last free: alloc_factor >= 1
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
  const batch = figures.get('batch');
  const high = figures.get('high_min');
  if (batch === undefined || high === undefined || high !== figures.get('high_max')) return null;
  if (batch < 1 || high !== pcp.high) return null;
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

interface ListTrack {
  net: number; // blocks put on minus blocks taken off, since the trace began
  low: number; // the lowest net seen: -low blocks were there at the start
  refilled: boolean; // a refill proved it empty once
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
  const net = new Map<string, number>(); // cpu/zone -> pages put on its lists less pages taken off
  const runs = new Map<number, RefillRun>(); // cpu -> the refill run it is in
  const order0Runs = new Map<string, RefillRun[]>(); // cpu/zone -> its order-0 refill runs
  const refilledLast = new Set<string>(); // cpu/zone whose last free came before an order-0 refill
  const allocMt = new Map<number, number>(); // pfn -> migratetype of its allocation in the trace
  const fromBuddy = new Set<number>(); // CPUs whose next mm_page_alloc came from the buddy
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
    const list = mt < PCP_TYPES ? mt : MIGRATE_MOVABLE;
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
  for (let i = 0; i < lines.length; i++) {
    const p = parseTraceLine(lines[i] ?? '');
    if (p.kind !== 'record') continue;
    const r = p.record;
    // a refill run ends at anything else its CPU traces
    if (!(r.event === 'mm_page_alloc_zone_locked' && r.fields.get('percpu_refill') === '1'))
      endRun(r.cpu);
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
        break;
      case 'mm_page_free':
        move(r.cpu, pfn, order, freeTypes.get(i) ?? allocMt.get(pfn) ?? MIGRATE_MOVABLE, 1);
        break;
      case 'mm_page_pcpu_drain':
        move(r.cpu, pfn, order, mt, -1);
        break;
    }
  }
  for (const cpu of [...runs.keys()]) endRun(cpu);
  const pcps = state.pcps.map((captured) => {
    const prefix = `${captured.cpu}/${captured.node * MAX_NR_ZONES + captured.zone}/`;
    const figures = zoneinfo
      ?.find((z) => z.node === captured.node && z.idx === captured.zone)
      ?.pagesets.find((p) => p.cpu === captured.cpu)?.figures;
    const runs0 = order0Runs.get(prefix.slice(0, -1)) ?? [];
    const counted = figures ? countFromRefill(captured, figures, runs0) : null;
    const pcp = counted === null ? captured : { ...captured, count: counted };
    const seen = [...tracks.entries()].filter(([k]) => k.startsWith(prefix));
    const lists = seen
      .map(([k, t]) => {
        const [, , order, list] = k.split('/').map(Number);
        return {
          order: order ?? 0,
          mt: list ?? MIGRATE_MOVABLE,
          blocks: -t.low,
          open: !t.refilled,
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
    const count = raised - pcp.count <= gain ? Math.max(pcp.count, raised) : pcp.count;
    if (pages > count) {
      const scale = count / pages;
      for (const l of lists) l.blocks = Math.floor(l.blocks * scale);
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
      (mt) => !seen.some(([k]) => k === `${prefix}0/${mt}`),
    );
    if (zero) zero.blocks += rest;
    else if (rest > 0 && untouched !== undefined)
      lists.push({ order: 0, mt: untouched, blocks: rest, open: true });
    else {
      const movable = lists.find((l) => l.order === 0 && l.mt === MIGRATE_MOVABLE);
      if (movable) movable.blocks += rest;
      else if (rest > 0) lists.push({ order: 0, mt: MIGRATE_MOVABLE, blocks: rest, open: true });
    }
    return {
      ...pcp,
      count,
      lists: lists.map(({ order, mt, blocks }) => ({ order, mt, blocks })),
    };
  });
  return { ...state, pcps };
}
