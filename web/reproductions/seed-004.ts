/*
 * seed-004.ts: batch scaling by alloc_factor (Huang Ying, 2023, merged for 6.7). A CPU that keeps
 * emptying its order-0 pcp list refills with batch << alloc_factor pages, doubling up to
 * CONFIG_PCP_BATCH_SCALE_MAX (5): fewer, larger zone->lock holds for a bulk allocation than 6.6's
 * one batch per refill. The story in full: lessons/06-batch-scaling/lesson.md.
 */
import { maxRefillPages, zoneLockAcquisitions } from './measures';
import type { Metric, Reproduction } from './types';

/** 4000 order-0 movable pages on CPU 0 of the laptop machine (batch 63), none freed. */
const BULK = `# a bulk order-0 allocation on CPU 0 (laptop machine: batch 63)
machine laptop
repeat 4000 {
  cpu 0 alloc bulk order=0 GFP_HIGHUSER_MOVABLE
}
`;

const PROFILES: Metric['profiles'] = ['6.6', '6.18'];

export const SEED_004: Reproduction = {
  name: 'seed-004',
  title: 'Batch scaling by alloc_factor (Huang Ying, 2023; merged in 6.7)',
  source:
    'Huang Ying, "mm: PCP high auto-tuning" (linux-mm, October 2023), merged for 6.7: it added alloc_factor, which scales order-0 refills while a CPU keeps allocating, and capped the scaling with CONFIG_PCP_BATCH_SCALE_MAX, default 5 (commit 52166607ecc9, "mm: restrict the pcp batch scale factor to avoid too long latency").',
  notes:
    'The series reports throughput and lock-hold latencies for hard-coded batch sizes on its test machines, not lock takes or refill sizes for this workload, so the seed column is empty. What the kernel does here (mm/page_alloc.c, nr_pcp_alloc()): 6.6 refills one batch of 63 pages each time, so 4000 pages take 64 refills and 64 zone->lock holds; 6.18 doubles each refill while the list keeps running dry, 63, 126, 252, 504, 1008, then 63 << 5 = 2016 pages, so 3969 pages come in six refills and a seventh brings the rest. A real 6.18 kernel shows the same doubling and the same 2016-page cap (traces/touch64-cpu0.trace.gz, checked by tests/fidelity/trace-refills.test.ts).',
  metrics: [
    {
      key: 'zone_lock_acquisitions',
      unit: 'acquisitions',
      label: 'zone->lock acquisitions to allocate 4000 order-0 pages on one CPU',
      workload: BULK,
      profiles: PROFILES,
      measure: zoneLockAcquisitions,
    },
    {
      key: 'max_refill_pages',
      unit: 'pages',
      label: 'the largest single pcp refill during that allocation',
      workload: BULK,
      profiles: PROFILES,
      measure: maxRefillPages,
    },
  ],
};
