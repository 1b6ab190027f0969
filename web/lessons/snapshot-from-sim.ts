/*
 * snapshot-from-sim.ts: the lesson Snapshot (snapshot.ts) built from the binding's readers
 * (web/core Sim: state(), events()). Only here do binding names (camelCase, indices) become the
 * names lessons write (kernel and /proc names, zone and migratetype names).
 */
import { KIND_NAMES } from '../core/generated/events';
import { ZONE_NAMES } from '../core/machine-config';
import type { Sim } from '../core/sim';
import { MIGRATETYPE_NAMES, type ModelState, type PcpState, type ZoneState } from '../core/state';
import { namedFields } from './event-fields';
import type {
  CpuPcpSnap,
  EventSnap,
  FreeAreaSnap,
  NodeSnap,
  PcpListSnap,
  PcpSnap,
  Snapshot,
  ZoneSnap,
} from './snapshot';

const MT_PCPTYPES = 3;
const HPAGE_PMD_ORDER = 9;
const ZONE_BELOW_HIGH = 0x1;

function zoneName(idx: number): string {
  return ZONE_NAMES[idx] ?? `zone${idx}`;
}

/** The (order, migratetype) a pcp list holds under the profile's layout, from its list count. */
export function pindexMeaning(
  nrLists: number,
  pindex: number,
  pageblockOrder: number,
): { order: number; mt: string } {
  const mtName = (mt: number): string => MIGRATETYPE_NAMES[mt] ?? 'any';
  if (nrLists === 3) return { order: 0, mt: mtName(pindex) }; // <= 5.13
  if (nrLists === 6)
    return pindex < MT_PCPTYPES
      ? { order: 0, mt: mtName(pindex) }
      : { order: pindex - 2, mt: 'any' }; // 2016
  if (pindex < 12)
    return { order: Math.floor(pindex / MT_PCPTYPES), mt: mtName(pindex % MT_PCPTYPES) };
  if (nrLists === 15) return { order: pageblockOrder, mt: mtName(pindex - 12) }; // 5.14: THP per type
  if (nrLists === 13) return { order: HPAGE_PMD_ORDER, mt: 'any' }; // ~5.19-6.9: one THP list
  return { order: HPAGE_PMD_ORDER, mt: pindex === 13 ? 'Movable' : 'Unmovable' }; // 6.10+: 12 U/R, 13 M
}

function pcpSnap(p: PcpState, nrLists: number, pageblockOrder: number): PcpSnap {
  const lists: PcpListSnap[] = [];
  const orders: Record<string, number> = {};
  for (let i = 0; i < nrLists; i++) {
    const { order, mt } = pindexMeaning(nrLists, i, pageblockOrder);
    const blocks = p.nrBlocks[i] ?? 0;
    const pages = blocks << order;
    lists.push({ pindex: i, order, mt, blocks, pages });
    orders[String(order)] = (orders[String(order)] ?? 0) + pages;
  }
  return {
    count: p.count,
    high: p.high,
    high_min: p.highMin,
    high_max: p.highMax,
    batch: p.batch,
    free_count: p.freeCount,
    alloc_factor: p.allocFactor,
    free_factor: p.freeFactor,
    lists,
    orders,
  };
}

function zoneSnap(z: ZoneState, st: ModelState): ZoneSnap {
  const freeArea: FreeAreaSnap[] = z.freeArea.map((fa) => ({
    nr_free: fa.nrFree,
    Unmovable: fa.count[0] ?? 0,
    Movable: fa.count[1] ?? 0,
    Reclaimable: fa.count[2] ?? 0,
    HighAtomic: fa.count[3] ?? 0,
    Isolate: fa.count[4] ?? 0,
  }));
  const pageblocks: Record<string, number> = Object.fromEntries(
    MIGRATETYPE_NAMES.map((n) => [n, 0]),
  );
  for (let i = 0; i < z.nrPageblocks; i++) {
    const tag = st.pageblocks[z.pageblockBase + i] ?? 0;
    const name = MIGRATETYPE_NAMES[tag & 0x7f] ?? 'Unmovable';
    pageblocks[name] = (pageblocks[name] ?? 0) + 1;
  }
  const protection: Record<string, number> = {};
  z.lowmemReserve.forEach((v, i) => (protection[zoneName(i)] = v));
  return {
    name: z.name,
    node: z.node,
    populated: z.managed > 0,
    managed: z.managed,
    present: z.present,
    spanned: z.spanned,
    start_pfn: z.startPfn,
    free: z.nrFree,
    min: z.watermark.min + z.boost,
    low: z.watermark.low + z.boost,
    high: z.watermark.high + z.boost,
    promo: z.watermark.promo + z.boost,
    boost: z.boost,
    protection,
    batch: z.batch,
    high_min: z.highMin,
    high_max: z.highMax,
    pgalloc: z.pgalloc,
    nr_reserved_highatomic: z.nrReservedHighatomic,
    below_high: (z.flags & ZONE_BELOW_HIGH) !== 0,
    free_area: freeArea,
    buddyinfo: freeArea.map((f) => f.nr_free),
    pageblocks,
    lock: {
      acquisitions: z.lock.acquisitions,
      hold_ns: z.lock.holdNs,
      wait_ns: z.lock.waitNs,
      pages_moved: z.lock.pagesMoved,
    },
  };
}

function eventsOf(sim: Sim): Record<string, EventSnap[]> {
  const byKind: Record<string, EventSnap[]> = { all: [] };
  // every kind is present (empty when it did not happen), so `count(events.KIND)` never fails
  for (const name of KIND_NAMES.slice(1)) byKind[name] = [];
  for (const e of sim.events()) {
    const kind = sim.core.eventKindName(e.kind);
    const snap: EventSnap = {
      ...namedFields(kind, e),
      seq: e.seq,
      op: e.op,
      cpu: e.cpu,
      kind,
      fn: sim.core.eventFnName(e.fn),
      node: e.node,
      zone: zoneName(e.zone),
      pfn: e.pfn,
      order: e.order,
      pages: 2 ** e.order,
      mt: MIGRATETYPE_NAMES[e.mt] ?? String(e.mt),
      a: e.a,
      b: e.b,
      c: e.c,
    };
    byKind['all']?.push(snap);
    (byKind[kind] ??= []).push(snap);
  }
  return byKind;
}

/** The whole snapshot of one Sim, with the events currently in its buffer. */
export function snapshotFromSim(sim: Sim): Snapshot {
  const st = sim.state();
  const nodes: NodeSnap[] = st.nodes.map((n) => {
    const zones: Record<string, ZoneSnap> = {};
    for (const z of n.zones) zones[z.name] = zoneSnap(z, st);
    return {
      id: n.id,
      kswapd_awake: n.kswapdAwake,
      kswapd_wakeups: n.kswapdWakeups,
      zonelist: n.zonelist.map((r) => `${r.node}:${zoneName(r.zone)}`),
      zones,
    };
  });
  const pcp: Record<string, CpuPcpSnap> = {};
  for (const p of st.pcps) {
    const key = `cpu${p.cpu}`;
    const cpuSnap = (pcp[key] ??= { nodes: [] });
    const perNode = cpuSnap['nodes'] as Record<string, PcpSnap>[];
    while (perNode.length <= p.node) perNode.push({});
    const snap = pcpSnap(p, st.nrPcpLists, st.pageblockOrder);
    const nodeMap = perNode[p.node];
    if (nodeMap) nodeMap[zoneName(p.zone)] = snap;
    if (p.node === 0) cpuSnap[zoneName(p.zone)] = snap;
  }
  const vm = st.vm;
  const counters: Record<string, number> = {
    pgfree: vm.pgfree,
    alloc_fail: vm.allocFail,
    pcp_hit: vm.pcpHit,
    pcp_refill: vm.pcpRefill,
    pcp_drain_pages: vm.pcpDrainPages,
    pcp_bulk_frees: vm.pcpBulkFrees,
    extfrag: vm.extfrag,
    pageblock_claimed: vm.pageblockClaimed,
    kswapd_wakeups: vm.kswapdWakeups,
    bad_page: vm.badPage,
  };
  vm.pgalloc.forEach((v, i) => (counters[`pgalloc_${zoneName(i).toLowerCase()}`] = v));
  return {
    machine: {
      profile: st.profile,
      nodes: st.nodes.length,
      cpus: st.nrCpus,
      max_order: st.maxOrder,
      pageblock_order: st.pageblockOrder,
      pageblock_nr_pages: st.pageblockNrPages,
      min_free_kbytes: sim
        .view()
        .getInt32(sim.address + sim.core.layout.off('sim.min_free_kbytes'), true),
      frozen: st.frozen,
      error: st.frozen ? (sim.check() ?? '') : '',
    },
    zones: nodes[0]?.zones ?? {},
    nodes,
    pcp,
    cpus: st.cpus.map((c) => ({
      id: c.id,
      node: c.node,
      online: c.online,
      clock_ns: c.clockNs,
      pcp_hits: c.pcpHits,
      pcp_refills: c.pcpRefills,
      pcp_frees: c.pcpFrees,
      pcp_drains: c.pcpDrains,
      lock_acquisitions: c.lockAcquisitions,
      lock_wait_ns: c.lockWaitNs,
    })),
    counters,
    events: eventsOf(sim),
  };
}
