/*
 * seed-000.ts: high-order per-CPU page lists. Mel Gorman's 2016 series cached order-1..3 pages per
 * CPU (posted, reviewed, not merged); the idea landed in 5.14 with a per-migratetype layout. Three
 * claims from that history, each measured on the model: the zone lock is taken far less once
 * orders 1..3 have pcp lists; Joonsoo Kim's review case, where one drain never reaches order 3;
 * and the pcp->count that v5 kept in sync when a refilled page turns out corrupt.
 * The story in full: lessons/05-high-order-pcp/lesson.md.
 */
import { pcpDrainPages, runawayCountDetected, zoneLockAcquisitions } from './measures';
import type { Reproduction } from './types';

/**
 * A network-like churn on one CPU: eight rounds of eight blocks each of orders 1, 2 and 3, all
 * freed at the end of the round (192 allocations and 192 frees, 112 pages a round). Where orders
 * 1..3 bypass the pcp (5.13) every allocation and every free takes zone->lock.
 */
const CHURN = `# order-1..3 alloc/free churn on CPU 0 (classroom machine: batch 7)
machine classroom
repeat 8 {
  repeat 8 {
    cpu 0 alloc o1 order=1
    cpu 0 alloc o2 order=2
    cpu 0 alloc o3 order=3
  }
  cpu 0 free o1 *
  cpu 0 free o2 *
  cpu 0 free o3 *
}
`;

/** Joonsoo Kim's case: all six 2016 lists hold pages, then one free forces a drain of batch 7. */
const JOONSOO = `# fill the three order-0 lists and the order-1, -2, -3 lists, then free one page
machine classroom
cpu 0 alloc unmovable GFP_KERNEL
cpu 0 alloc movable GFP_HIGHUSER_MOVABLE
cpu 0 alloc reclaimable GFP_KERNEL|__GFP_RECLAIMABLE
cpu 0 alloc order1 order=1
cpu 0 alloc order2 order=2
cpu 0 alloc order3 order=3
cpu 0 free unmovable
`;

/** A refill whose first page fails the new-page check, then a drain of the CPU's lists. */
const CORRUPT_REFILL = `# the next block a refill on CPU 0 takes is bad; then drain CPU 0
machine classroom
cpu 0 corrupt
cpu 0 alloc a GFP_KERNEL
cpu 0 drain
`;

export const SEED_000: Reproduction = {
  name: 'seed-000',
  title: 'High-order per-CPU page lists (Mel Gorman, 2016; merged in 5.14)',
  source:
    'Mel Gorman, "mm: page_alloc: High-order per-cpu page allocator", linux-mm, RFC of 21 November 2016 to v7 of 7 December 2016 (v5, 2 December, is the profile 2016-v5), reviewed by Joonsoo Kim and Vlastimil Babka and not merged; the idea was merged for 5.14 as commit 44042b449872, "mm/page_alloc: allow high-order pages to be stored on the per-cpu lists".',
  notes:
    "The series measured its effect with netperf throughput, which the model does not simulate, so the churn and corrupt-page rows have no figure from the source: they show the mechanism the series changed. Lock takes on the churn: 5.13 takes zone->lock for every order-1..3 allocation and free (2 per block); the 2016 lists refill 7 blocks at a time but their high of 11 x batch (77 pages) is below the churn, so frees keep draining; 5.14 and 6.18 refill batch >> order blocks (at least 2) and their high, from the low watermark, holds the whole churn, so only the first round refills. Joonsoo Kim's figure is his own: with batch 7 one round-robin drain frees 1 + 1 + 1 order-0 pages, 2 (order 1) and 4 (order 2) = 9 pages and stops before the order-3 list. The v5 changelog says only that pcp->count now stays in sync when a page is found corrupt; before it, the leaked page still counted, and the drain loop that waits for the count to reach zero could not end. The model stops such a loop after one lap of empty lists and reports runaway_loop, which is the 1 here.",
  metrics: [
    {
      key: 'zone_lock_acquisitions',
      unit: 'acquisitions',
      label: 'zone->lock acquisitions for an order-1..3 alloc/free churn (192 blocks)',
      workload: CHURN,
      profiles: ['5.13', '2016-v5', '5.14', '6.18'],
      measure: zoneLockAcquisitions,
    },
    {
      key: 'joonsoo_drain_pages',
      unit: 'pages',
      label: "pages one drain of batch 7 frees in Joonsoo Kim's review case",
      workload: JOONSOO,
      profiles: ['2016-v5'],
      measure: pcpDrainPages,
      seed: { '2016-v5': 9 },
    },
    {
      key: 'pcp_count_out_of_sync',
      unit: '1 = runaway count detected',
      label: 'a drain found pcp->count above the pages on the lists after a corrupt refill',
      workload: CORRUPT_REFILL,
      profiles: ['2016-prefix', '2016-v5'],
      measure: runawayCountDetected,
    },
  ],
};
