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
