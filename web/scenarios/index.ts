/*
 * index.ts: the scenario library: named workloads (one .workload file each, beside this file)
 * with the one-line story each tells. The story is a claim about what the model does; the test
 * beside this file runs every scenario through the real core and checks it, so a story cannot
 * quietly stop being true when the model changes.
 */
import type { ProfileName } from '../core/machine-config';
import batchScaling from './batch-scaling.workload?raw';
import corruptRunaway from './corrupt-runaway.workload?raw';
import drainStorm from './drain-storm.workload?raw';
import fairness2016 from './fairness-2016.workload?raw';
import fallbackSteal from './fallback-steal.workload?raw';
import fragmentation from './fragmentation.workload?raw';
import lockContention from './lock-contention.workload?raw';

export interface Scenario {
  id: string; // in links: #/playground?scenario=ID
  title: string;
  story: string; // one line: what happens, and so what the test checks
  text: string;
  compare?: ProfileName; // open the side-by-side comparison with this profile
}

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'fragmentation',
    title: 'Half the memory free, and no room for 8 pages',
    story:
      'Interleaved single pages are freed: 128 of 256 pages are free, yet an order-3 allocation fails because no two free pages are buddies.',
    text: fragmentation,
  },
  {
    id: 'drain-storm',
    title: 'Out of memory with nothing to reclaim',
    story:
      'Kernel memory runs out: every failing allocation stalls in direct reclaim, which frees nothing, so the kernel skips its drain of the per-CPU lists (it drains only after progress) and reaches the OOM decision.',
    text: drainStorm,
  },
  {
    id: 'fallback-steal',
    title: 'Migratetype fallback and pageblock stealing',
    story:
      'The first unmovable and reclaimable requests find only Movable pageblocks, fall back to them and claim whole pageblocks for their own type (mm_page_alloc_extfrag).',
    text: fallbackSteal,
  },
  {
    id: 'batch-scaling',
    title: 'Batch scaling: 6.18 against 6.6',
    story:
      '4000 pages in a row: 6.18 doubles each refill of the per-CPU list (alloc_factor) and takes the zone lock a handful of times; 6.6 refills one batch of 63 pages every time.',
    text: batchScaling,
    compare: '6.6',
  },
  {
    id: 'lock-contention',
    title: 'Two CPUs fight over the zone lock',
    story:
      'Two CPUs refill from the same zone in turn: each often finds the zone lock held by the other and waits for it.',
    text: lockContention,
  },
  {
    id: 'fairness-2016',
    title: 'The 2016 fairness case',
    story:
      'In the 2016 high-order per-CPU series, a drain of batch pages stops after the order-0, -1 and -2 lists: the order-3 list is never drained.',
    text: fairness2016,
    compare: '5.14',
  },
  {
    id: 'corrupt-runaway',
    title: 'The corrupted-page runaway (before v5 of the 2016 series)',
    story:
      'A corrupt page is leaked at refill but still counted; the next drain searches forever for the missing page, and the model stops it (runaway_loop) and freezes.',
    text: corruptRunaway,
    compare: '2016-v5',
  },
];

export function scenarioById(id: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.id === id);
}
