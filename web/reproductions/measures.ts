/*
 * measures.ts: the figures reproductions read from a finished run, each from the core's own
 * counters or events (never recomputed from the workload), so the model answers for itself.
 */
import type { RunRecord } from './types';

/** zone->lock acquisitions over every zone of every node (the core's lock statistics). */
export function zoneLockAcquisitions(run: RunRecord): number {
  return run.state.nodes.reduce(
    (n, node) => n + node.zones.reduce((m, z) => m + z.lock.acquisitions, 0),
    0,
  );
}

/** The largest pcp refill in pages: blocks got (pcp_refill's b) times 2^order. */
export function maxRefillPages(run: RunRecord): number {
  let max = 0;
  for (const e of run.events) if (e.name === 'pcp_refill') max = Math.max(max, e.b << e.order);
  return max;
}

/** Pages the pcp drains handed back to the buddy: one mm_page_pcpu_drain per block. */
export function pcpDrainPages(run: RunRecord): number {
  let pages = 0;
  for (const e of run.events) if (e.name === 'mm_page_pcpu_drain') pages += 1 << e.order;
  return pages;
}

/**
 * 1 when the core caught a drain loop that could not end (runaway_loop: pcp->count said pages
 * remained while every list was empty), else 0.
 */
export function runawayCountDetected(run: RunRecord): number {
  return run.events.some((e) => e.name === 'runaway_loop') ? 1 : 0;
}

/** Pages direct reclaim and zone_reclaim/node_reclaim scanned (pgscan_direct: 3.0 counts both there). */
export function directPagesScanned(run: RunRecord): number {
  return run.state.vm.pgscanDirect;
}

/** Pages kswapd scanned (pgscan_kswapd). */
export function kswapdPagesScanned(run: RunRecord): number {
  return run.state.vm.pgscanKswapd;
}

/** zone_reclaim/node_reclaim calls, whatever they returned (the core's own count). */
export function zoneReclaimCalls(run: RunRecord): number {
  return run.state.vm.nodeReclaimCalls;
}

/** Allocations served from another node than the allocating CPU's: other_node over every node. */
export function remoteAllocations(run: RunRecord): number {
  return run.state.nodes.reduce(
    (n, node) => n + node.zones.reduce((m, z) => m + z.numa.other, 0),
    0,
  );
}

/** The latest CPU clock at the end of the run, in virtual milliseconds. */
export function elapsedVirtualMs(run: RunRecord): number {
  return Math.round(Math.max(...run.state.cpus.map((c) => c.clockNs)) / 1e3) / 1e3;
}
