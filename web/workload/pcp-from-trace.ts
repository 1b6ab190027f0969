/*
 * pcp-from-trace.ts: which per-CPU lists held a captured pageset's pages. zoneinfo gives only
 * each pageset's count; a trace taken right after shows the lists at work: a refill
 * (mm_page_alloc_zone_locked percpu_refill=1) happens only when its list is empty, an allocation
 * of a pcp order takes a block off its type's list, a free puts one on (the list the trace shows
 * it reached, free-list-types.ts, else its allocation's type), a drain
 * (mm_page_pcpu_drain) takes one off. A list that gave out more than it got before its first
 * refill held at least that much at the start. Those lower bounds are the lists' contents; what
 * remains of the count goes to the lists the trace never saw empty, in proportion, and what they
 * cannot take in whole blocks to an order-0 one of them, else to an order-0 list the trace never
 * touched (a list a refill proved empty held no more than it gave out). Without any evidence the
 * pages stay on the order-0 MOVABLE list (capture-ops.ts).
 */
import type { CapturedState, ExplicitMachine } from '../core/machine-config';
import { MAX_NR_ZONES } from '../core/machine-config';
import { freeListTypes } from './free-list-types';
import { parseTraceLine, traceNumber } from './ftrace';

const MIGRATE_MOVABLE = 1;
const PCP_TYPES = 3; // UNMOVABLE, MOVABLE, RECLAIMABLE have lists; HIGHATOMIC frees go to MOVABLE

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
): CapturedState {
  const zoneOf = (pfn: number): number => {
    for (let node = 0; node < machine.zones.length; node++) {
      const row = machine.zones[node] ?? [];
      for (let zone = 0; zone < row.length; zone++) {
        const z = row[zone];
        if (z && z.managed && pfn >= z.startPfn && pfn < z.startPfn + z.spanned)
          return node * MAX_NR_ZONES + zone;
      }
    }
    return -1;
  };
  const tracks = new Map<string, ListTrack>(); // cpu/zone/order/mt
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
    const list = mt < PCP_TYPES ? mt : MIGRATE_MOVABLE;
    const key = `${cpu}/${zone}/${order}/${list}`;
    let t = tracks.get(key);
    if (!t) tracks.set(key, (t = { net: 0, low: 0, refilled: false }));
    if (refill && !t.refilled) t.refilled = true;
    t.net += by;
    t.low = Math.min(t.low, t.net);
  };
  const lines = text.split('\n');
  // the list each free reached, as the trace shows it; else the type its allocation asked for
  const freeTypes = freeListTypes(lines, machine.pageblockOrder);
  for (let i = 0; i < lines.length; i++) {
    const p = parseTraceLine(lines[i] ?? '');
    if (p.kind !== 'record') continue;
    const r = p.record;
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
  const pcps = state.pcps.map((pcp) => {
    const prefix = `${pcp.cpu}/${pcp.node * MAX_NR_ZONES + pcp.zone}/`;
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
    if (pages > pcp.count) {
      // the bounds claim more than zoneinfo counted (frees that went straight to the buddy,
      // a pageset read a moment earlier): keep their proportions within the count
      const scale = pcp.count / pages;
      for (const l of lists) l.blocks = Math.floor(l.blocks * scale);
      pages = lists.reduce((n, l) => n + l.blocks * 2 ** l.order, 0);
    }
    let rest = pcp.count - pages;
    const open = lists.filter((l) => l.open);
    const openPages = open.reduce((n, l) => n + l.blocks * 2 ** l.order, 0);
    for (const l of open) {
      const add = Math.floor((rest * (l.blocks * 2 ** l.order)) / openPages / 2 ** l.order);
      l.blocks += add;
    }
    rest = pcp.count - lists.reduce((n, l) => n + l.blocks * 2 ** l.order, 0);
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
    return { ...pcp, lists: lists.map(({ order, mt, blocks }) => ({ order, mt, blocks })) };
  });
  return { ...state, pcps };
}
