/*
 * seed-001.ts: the zonelist cache and zone_reclaim (Mel Gorman, July 2011, merged for 3.1). With
 * zone_reclaim_mode on, 3.0 set its zonelist cache up only after the first zone had been tried,
 * so a preferred zone below its watermark and full of mapped page cache was zone_reclaimed on
 * every allocation; "initialise ZLC for first zone eligible for zone_reclaim" (cd38b115d5ad) sets
 * it up first and skips a zone that failed zone_reclaim within the last second; "reconsider zones
 * for allocation after direct reclaim" clears the marks when direct reclaim made progress.
 * The story in full: lessons/09-numa-zone-reclaim/lesson.md.
 */
import {
  directPagesScanned,
  elapsedVirtualMs,
  kswapdPagesScanned,
  remoteAllocations,
  zoneReclaimCalls,
} from './measures';
import type { Metric, Reproduction } from './types';

/** Node 0's 12 CPUs each write one page of a file: the page cache page, then 10 ms of filesystem work and fsync. */
const WRITERS = Array.from(
  { length: 12 },
  (_, c) => `    cpu ${c} alloc f for=file\n    cpu ${c} work ns=10000000`,
).join('\n');

/**
 * The seed's shape, scaled down: two nodes of 12 CPUs and 128 MiB each; the tasks run on node 0's
 * CPUs only. Node 0 holds a large mapped file (on the inactive list: zone_reclaim_mode 1 may scan
 * it but not unmap it) and a little hot page cache (on the active list), more than
 * min_unmapped_pages, so zone_reclaim does scan. Then 12 writers stream fsynced page cache at
 * fs_mark's pace (10 ms a page a writer, about 4.8 MB/s in all) for 40 virtual seconds: 48,000
 * pages, more than both nodes have free, so node 1 fills too.
 */
export const SEED_001_WORKLOAD = `# seed 001, scaled: node 0 full of a mapped file, writers bound to node 0
machine nodes=2 cpus=12 normal=32768
set zone_reclaim_mode=1
repeat 600 {
  cpu 0 alloc hot for=file
  cpu 0 touch hot
}
repeat 24000 {
  cpu 0 alloc map for=file-mapped
}
repeat 4000 {
${WRITERS}
}
`;

const PROFILES: Metric['profiles'] = ['3.0', '3.1-zlcfirst', '3.1-zlcreconsider'];

/** The seed's fs_mark figures (docs/kernel/page_alloc/walk.md (D.7)): vanilla, +patch 1, +patches 1 and 2. */
const FS_MARK_DIRECT = { '3.0': 13091697, '3.1-zlcfirst': 8966863, '3.1-zlcreconsider': 8971790 };
const FS_MARK_KSWAPD = { '3.0': 0, '3.1-zlcfirst': 1830011, '3.1-zlcreconsider': 1831116 };
const FS_MARK_ELAPSED_MS = {
  '3.0': 2451570,
  '3.1-zlcfirst': 2257480,
  '3.1-zlcreconsider': 2215920,
};

export const SEED_001: Reproduction = {
  name: 'seed-001',
  title: 'The zonelist cache and zone_reclaim (Mel Gorman, 2011; merged in 3.1)',
  source:
    'Mel Gorman, "mm: page allocator: initialise ZLC for first zone eligible for zone_reclaim" (commit cd38b115d5ad) and "mm: page allocator: reconsider zones for allocation after direct reclaim", linux-mm, July 2011, both merged for 3.1-rc1; measured on a 24-thread two-node x86-64 with the tasks bound to node 0, on 3.0-rc6.',
  notes:
    "The seed ran fs_mark, a large dd and a streaming mapped writer for minutes to hours on a machine with gigabytes a node; the model runs the same shape on two 128 MiB nodes for 40 virtual seconds, so its page counts are thousands where the seed has millions: compare directions, not figures. The seed columns are its fs_mark figures (direct pages scanned, kswapd pages scanned, elapsed time). What the kernels do here: 3.0 tries the preferred zone first on every allocation, and with zone_reclaim_mode 1 runs zone_reclaim on it whenever it is below its watermark: it scans the mapped file (1/16, then 1/8 ... of the list) without being allowed to unmap it, and finds the writer's pages dirty until the flusher has written them; 3.1-zlcfirst marks the zone full after one such failure and sends the next second's allocations to node 1 without scanning; 3.1-zlcreconsider also clears the marks when direct reclaim makes progress. Elapsed time is each writer's 10 ms a page plus what the kernel spends for it: the allocation and, for the allocating CPU, reclaim's scanning at 250 ns a page (a documented weight). A failing zone_reclaim of a 128 MiB node costs milliseconds, not the seconds a node of gigabytes costs, and the model has no IO stalls or page-ins, so 3.1 finishes sooner by a sliver where the seed saw 8% (fs_mark) to 40% (dd).",
  metrics: [
    {
      key: 'direct_pages_scanned',
      unit: 'pages',
      label: 'pages scanned by zone_reclaim and direct reclaim (pgscan_direct)',
      workload: SEED_001_WORKLOAD,
      profiles: PROFILES,
      measure: directPagesScanned,
      events: false,
      seed: FS_MARK_DIRECT,
    },
    {
      key: 'kswapd_pages_scanned',
      unit: 'pages',
      label: 'pages scanned by kswapd (pgscan_kswapd)',
      workload: SEED_001_WORKLOAD,
      profiles: PROFILES,
      measure: kswapdPagesScanned,
      events: false,
      seed: FS_MARK_KSWAPD,
    },
    {
      key: 'zone_reclaim_calls',
      unit: 'calls',
      label: 'zone_reclaim calls, whatever they returned',
      workload: SEED_001_WORKLOAD,
      profiles: PROFILES,
      measure: zoneReclaimCalls,
      events: false,
    },
    {
      key: 'remote_allocations',
      unit: 'allocations',
      label: 'allocations served by node 1 for node 0’s CPUs (other_node)',
      workload: SEED_001_WORKLOAD,
      profiles: PROFILES,
      measure: remoteAllocations,
      events: false,
    },
    {
      key: 'elapsed_virtual_ms',
      unit: 'ms',
      label: 'virtual time when the last CPU finishes',
      workload: SEED_001_WORKLOAD,
      profiles: PROFILES,
      measure: elapsedVirtualMs,
      events: false,
      seed: FS_MARK_ELAPSED_MS,
    },
  ],
};
