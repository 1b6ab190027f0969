/*
 * snapshot-from-sim.ts: the lesson Snapshot (snapshot.ts) built from the binding's readers
 * (web/core Sim: state(), events()). Only here do the binding's camelCase names become the C
 * names lessons write, and indices the zone, migratetype and watermark names.
 */
import { KIND_NAMES } from '../core/generated/events';
import { ZONE_NAMES } from '../core/machine-config';
import { pcpListOf, profileRow, type PcpLayout } from '../core/profiles';
import type { Sim } from '../core/sim';
import {
  lockStatsRecord,
  MIGRATETYPE_NAMES,
  type ModelState,
  type PcpState,
  type ZoneState,
} from '../core/state';
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

const HPAGE_PMD_ORDER = 9;
const ZONE_BELOW_HIGH = 0x1;

function zoneName(idx: number): string {
  return ZONE_NAMES[idx] ?? `zone${idx}`;
}

/**
 * The (order, migratetype) a pcp list holds under a profile's layout. A THP list holds
 * HPAGE_PMD_ORDER blocks, or pageblock_order ones in 5.14's layout, which sized it by pageblock.
 */
export function pindexMeaning(
  layout: PcpLayout,
  pindex: number,
  pageblockOrder: number,
): { order: number; mt: string } {
  const l = pcpListOf(layout, pindex);
  const mt = MIGRATETYPE_NAMES[l.mt] ?? 'any';
  if (!l.thp) return { order: l.order, mt };
  return { order: layout === 'PCP_LAYOUT_5_14' ? pageblockOrder : HPAGE_PMD_ORDER, mt };
}

function pcpSnap(p: PcpState, st: ModelState): PcpSnap {
  const layout = profileRow(st.profileId).switches.pcp_layout;
  const lists: PcpListSnap[] = [];
  const orders: Record<string, number> = {};
  for (let i = 0; i < st.nrPcpLists; i++) {
    const { order, mt } = pindexMeaning(layout, i, st.pageblockOrder);
    const nrBlocks = p.nrBlocks[i] ?? 0;
    const pages = nrBlocks << order;
    lists.push({ pindex: i, order, mt, nr_blocks: nrBlocks, pages });
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
    count: Object.fromEntries(MIGRATETYPE_NAMES.map((n, mt) => [n, fa.count[mt] ?? 0])),
  }));
  const pageblocks: Record<string, number> = Object.fromEntries(
    MIGRATETYPE_NAMES.map((n) => [n, 0]),
  );
  for (let i = 0; i < z.nrPageblocks; i++) {
    const tag = st.pageblocks[z.pageblockBase + i] ?? 0;
    const name = MIGRATETYPE_NAMES[tag & 0x7f] ?? 'Unmovable';
    pageblocks[name] = (pageblocks[name] ?? 0) + 1;
  }
  const lowmemReserve: Record<string, number> = {};
  z.lowmemReserve.forEach((v, i) => (lowmemReserve[zoneName(i)] = v));
  return {
    name: z.name,
    node: z.node,
    populated: z.managed > 0,
    managed: z.managed,
    present: z.present,
    spanned: z.spanned,
    start_pfn: z.startPfn,
    nr_free_pages: z.nrFreePages,
    _watermark: { ...z.watermark },
    watermark_boost: z.watermarkBoost,
    lowmem_reserve: lowmemReserve,
    pageset_batch: z.pagesetBatch,
    pageset_high_min: z.pagesetHighMin,
    pageset_high_max: z.pagesetHighMax,
    pgalloc: z.pgalloc,
    nr_free_highatomic: z.nrFreeHighatomic,
    nr_reserved_highatomic: z.nrReservedHighatomic,
    below_high: (z.flags & ZONE_BELOW_HIGH) !== 0,
    free_area: freeArea,
    buddyinfo: freeArea.map((f) => f.nr_free),
    pageblocks,
    lock: lockStatsRecord(z.lock),
    lock_pages_moved: z.lockPagesMoved,
  };
}

function eventsOf(sim: Sim): Record<string, EventSnap[]> {
  const byKind: Record<string, EventSnap[]> = { all: [] };
  // every kind is present (empty when it did not happen), so `count(events.KIND)` never fails
  for (const name of KIND_NAMES.slice(1)) if (name) byKind[name] = [];
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
    const snap = pcpSnap(p, st);
    const nodeMap = perNode[p.node];
    if (nodeMap) nodeMap[zoneName(p.zone)] = snap;
    if (p.node === 0) cpuSnap[zoneName(p.zone)] = snap;
  }
  const vm = st.vm;
  const vmEvents: Record<string, number> = {
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
  vm.pgalloc.forEach((v, i) => (vmEvents[`pgalloc_${zoneName(i).toLowerCase()}`] = v));
  return {
    machine: {
      profile: st.profile,
      nr_nodes: st.nodes.length,
      nr_cpus: st.nrCpus,
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
    vm_events: vmEvents,
    events: eventsOf(sim),
  };
}
