/*
 * stats.ts: `--print stats`: the counters of a finished run as JSON, per zone (pgalloc, free
 * pages, zone->lock figures), per CPU (pcp hits, refills, frees, drains, lock figures) and
 * machine-wide (the vm events), plus what the run refused. Fields keep their C names
 * (wasm-core/src/types.h), as lesson snapshots do (web/lessons/snapshot.ts).
 */
import { ZONE_NAMES } from '../../web/core/machine-config';
import type { Sim } from '../../web/core/sim';
import { lockStatsRecord } from '../../web/core/state';

export interface RunSummary {
  ops: number;
  refused: Map<string, number>; // enum sim_err name -> ops
  events: number;
  eventsDropped: number;
}

export function statsJson(sim: Sim, run: RunSummary): string {
  const state = sim.state();
  const stats = {
    profile: state.profile,
    ops: run.ops,
    refused: Object.fromEntries(run.refused),
    events: run.events,
    events_dropped: run.eventsDropped,
    zones: state.nodes.flatMap((n) =>
      n.zones.map((z) => ({
        node: n.id,
        name: z.name,
        managed: z.managed,
        nr_free_pages: z.nrFreePages,
        pgalloc: z.pgalloc,
        lock: lockStatsRecord(z.lock),
        lock_pages_moved: z.lockPagesMoved,
      })),
    ),
    cpus: state.cpus.map((c) => ({
      id: c.id,
      node: c.node,
      online: c.online,
      pcp_hits: c.pcpHits,
      pcp_refills: c.pcpRefills,
      pcp_frees: c.pcpFrees,
      pcp_drains: c.pcpDrains,
      lock_acquisitions: c.lockAcquisitions,
      lock_wait_ns: c.lockWaitNs,
      // derived: the pages on every pcp list of this CPU
      pcp_pages: state.pcps.filter((p) => p.cpu === c.id).reduce((sum, p) => sum + p.count, 0),
    })),
    vm_events: {
      ...Object.fromEntries(
        state.vm.pgalloc.map((v, z) => [
          `pgalloc_${(ZONE_NAMES[z] ?? String(z)).toLowerCase()}`,
          v,
        ]),
      ),
      pgfree: state.vm.pgfree,
      alloc_fail: state.vm.allocFail,
      pcp_hit: state.vm.pcpHit,
      pcp_refill: state.vm.pcpRefill,
      pcp_drain_pages: state.vm.pcpDrainPages,
      pcp_bulk_frees: state.vm.pcpBulkFrees,
      extfrag: state.vm.extfrag,
      pageblock_claimed: state.vm.pageblockClaimed,
      kswapd_wakeups: state.vm.kswapdWakeups,
      bad_page: state.vm.badPage,
    },
  };
  return JSON.stringify(stats, null, 2) + '\n';
}
