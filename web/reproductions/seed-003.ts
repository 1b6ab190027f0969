/*
 * seed-003.ts: page faults against mmap_lock. Laurent Dufour's speculative page faults (posted
 * 2017-2019, never merged) let a thread fault without mmap_sem while another thread changes the
 * address space; per-VMA locks (Suren Baghdasaryan, merged for 6.4) reached the same end with a
 * lock per VMA. The seed's thread (v9 cover letter and review, March-April 2018) gives ebizzy
 * +544 % on 16 x86 CPUs and +110 % on 80 POWER8 CPUs, and Laurent's answer to Jerome Glisse
 * bounding the pages a speculative fault wastes. The story in full: lessons/11-page-faults/lesson.md.
 */
import type { NamedEvent, Metric, Reproduction, RunRecord } from './types';

/** The three fault paths: classic mmap_sem (4.16), SPF v9 on 4.16, per-VMA locks (6.18). */
export const SEED_003_PROFILES: Metric['profiles'] = ['4.16', '4.16-spf-v9', '6.18'];

/** Pages a faulting thread touches per op, and faulting ops per op of the mapping thread. */
const PAGES_PER_TOUCH = 4;
const TOUCHES_PER_MAPPER_OP = 4;

/**
 * An ebizzy-like workload on cpus CPUs: threads 1..cpus-1 each map a region of their own and
 * fault it in, 4 pages at a time; thread 0 keeps mapping and unmapping a 32-page buffer it never
 * touches (the mmap/munmap churn of ebizzy -m), one mmap or munmap after every 4 faulting steps
 * in the order the ops run. Every 16th buffer goes right after a faulting thread's region, so
 * vma_merge grows that thread's VMA and the munmap splits it again: the VMA changes under the
 * faults, as ebizzy's neighbouring mappings do (the seed's spf_vma_changed).
 */
export function ebizzyLike(cpus: number, maxPages = 480): string {
  const faulters = cpus - 1;
  // a power of two per thread, at most 1024 pages, so every region fits the 32768-page window
  let stride = 1024;
  while (stride * cpus > 32768) stride /= 2;
  // a gap keeps the regions from merging with one another
  const region = Math.min(stride - 64, maxPages);
  const steps = region / PAGES_PER_TOUCH;
  const lines = [
    `# ebizzy-like: ${faulters} threads fault their regions while CPU 0 maps and unmaps`,
    cpus > 64
      ? `machine nodes=2 cpus=${cpus / 2} normal=131072`
      : `machine nodes=1 cpus=${cpus} normal=262144`,
  ];
  for (let c = 0; c < cpus; c++) lines.push(`cpu ${c} thread mm=0`);
  const base = (k: number) => k * stride;
  for (let k = 1; k <= faulters; k++) lines.push(`cpu ${k} mmap at=${base(k)} pages=${region}`);
  // buffer pair p: at page 0, or right after a faulting thread's region every 16th pair
  const bufferAt = (pair: number) =>
    pair % 16 === 15 ? base(1 + ((pair >> 4) % faulters)) + region : 0;
  let touches = 0;
  let mapperOps = 0;
  for (let step = 0; step < steps; step++)
    for (let k = 1; k <= faulters; k++) {
      lines.push(`cpu ${k} touch at=${base(k) + step * PAGES_PER_TOUCH} pages=${PAGES_PER_TOUCH}`);
      if (++touches % TOUCHES_PER_MAPPER_OP) continue;
      const at = bufferAt(mapperOps >> 1);
      lines.push(
        mapperOps++ % 2 ? `cpu 0 munmap at=${at} pages=32` : `cpu 0 mmap at=${at} pages=32`,
      );
    }
  if (mapperOps % 2) lines.push(`cpu 0 munmap at=${bufferAt(mapperOps >> 1)} pages=32`);
  return lines.join('\n') + '\n';
}

const count = (events: readonly NamedEvent[], name: string) =>
  events.reduce((n, e) => n + (e.name === name ? 1 : 0), 0);

/** Faults per virtual second: page_fault_user events over the latest clock of a faulting CPU. */
export function faultsPerVirtualSecond(run: RunRecord): number {
  const faulted = new Set<number>();
  for (const e of run.events) if (e.name === 'page_fault_user') faulted.add(e.cpu);
  const end = Math.max(0, ...[...faulted].map((c) => run.state.cpus[c]?.clockNs ?? 0));
  return end ? Math.round((count(run.events, 'page_fault_user') * 1e9) / end) : 0;
}

/**
 * mmap_lock read acquisitions asked for per 1000 faults: mmap_lock_start_locking with write=false,
 * as the kernel's tracepoint counts them (a munmap's downgrade emits no start_locking).
 */
export function mmapLockReadsPer1000Faults(run: RunRecord): number {
  let reads = 0;
  for (const e of run.events) if (e.name === 'mmap_lock_start_locking' && e.a === 0) reads++;
  const faults = count(run.events, 'page_fault_user');
  return faults ? Math.round((reads * 1000000) / faults) / 1000 : 0;
}

/** Pages allocated for a fault and freed unused (fault_page_wasted). */
export function wastedPagesTotal(run: RunRecord): number {
  return count(run.events, 'fault_page_wasted');
}

/** The most such pages allocated at one instant (fault_page_wasted's at_once, at its peak). */
export function maxWastedPagesAtOnce(run: RunRecord): number {
  let max = 0;
  for (const e of run.events) if (e.name === 'fault_page_wasted') max = Math.max(max, e.c);
  return max;
}

const AT_16 = ebizzyLike(16);

/** Pages each faulting thread faults in the sweep's runs (the 16-CPU rows fault 480). */
const SWEEP_PAGES = 128;

/** The sweep the chart draws: CPU counts of the faults-per-second rows. */
export const SEED_003_SWEEP = [2, 4, 8, 16, 32] as const;

export const SEED_003: Reproduction = {
  name: 'seed-003',
  title: 'Speculative page faults (Laurent Dufour, 2018) and per-VMA locks (6.4) against mmap_lock',
  source:
    'Laurent Dufour, "[PATCH v9 00/24] Speculative page faults", linux-mm, 13 March 2018 (on 4.16; v11 of 17 May 2018 on 4.17), never merged; ebizzy -mTRp figures from its cover letter; the wasted-pages bound from his reply to Jerome Glisse of 4 April 2018 in the same thread. Per-VMA locks: Suren Baghdasaryan, "Per-VMA locks", merged for 6.4 (CONFIG_PER_VMA_LOCK); the 6.18 profile is their refcount form.',
  notes:
    "The seed measured ebizzy records per second (base 4.16: 14902.6 on a 16-CPU x86 VM, 37240.24 on 80 POWER8 CPUs; with SPF 95905.16 and 78185.67, +543.55 % and +109.95 %); the model counts faults per virtual second of the same shape of workload, so compare ratios, not units: the seed column of faults_per_virtual_second holds the records/s. The model's gain comes from the faults no longer queuing behind the mapper's mmap_lock write holds (and sleeping and waking on the rwsem); it is smaller than the seed's because the model's costs are documented weights (wasm-core/src/fault/cost.h), not a 2018 VM, and it has no scheduler. Wasted pages: Laurent's bound is (nr_cpus - 1) pages allocated at one time, not a total: every speculative fault that aborts after allocating frees its page and the classic retry allocates another, so the total grows with the aborts while the pages wasted at one instant stay under the number of CPUs (max_wasted_pages_at_once, at most 15 here). Per-VMA locks never waste a page for a VMA change (the writer waits for the fault or the fault aborts before allocating) and take mmap_lock only for a VMA's first anonymous fault (anon_vma_prepare's trylock) and for faults refused while their VMA is write-locked.",
  metrics: [
    {
      key: 'faults_per_virtual_second',
      unit: 'faults/s (seed: ebizzy records/s)',
      label: 'faults per virtual second of the faulting CPUs, 16 CPUs, ebizzy-like workload',
      workload: AT_16,
      profiles: SEED_003_PROFILES,
      measure: faultsPerVirtualSecond,
      seed: { '4.16': 14902.6, '4.16-spf-v9': 95905.16 },
    },
    {
      key: 'mmap_lock_reads_per_1000_faults',
      unit: 'acquisitions per 1000 faults',
      label: 'mmap_lock read acquisitions (mmap_lock_start_locking write=false) per 1000 faults',
      workload: AT_16,
      profiles: SEED_003_PROFILES,
      measure: mmapLockReadsPer1000Faults,
    },
    {
      key: 'wasted_pages_total',
      unit: 'pages',
      label: 'pages allocated for a fault and freed unused over the run',
      workload: AT_16,
      profiles: SEED_003_PROFILES,
      measure: wastedPagesTotal,
    },
    {
      key: 'max_wasted_pages_at_once',
      unit: 'pages',
      label: 'the most wasted pages allocated at one instant (Laurent Dufour: at most nr_cpus - 1)',
      workload: AT_16,
      profiles: SEED_003_PROFILES,
      measure: maxWastedPagesAtOnce,
      seed: { '4.16-spf-v9': 15 },
    },
    ...SEED_003_SWEEP.filter((n) => n !== 16).map((cpus): Metric => ({
      key: `faults_per_virtual_second_${cpus}_cpus`,
      unit: 'faults/s (seed: ebizzy records/s)',
      label: `faults per virtual second of the faulting CPUs at ${cpus} CPUs, 128 pages a thread (the sweep's chart)`,
      workload: ebizzyLike(cpus, SWEEP_PAGES),
      profiles: SEED_003_PROFILES,
      measure: faultsPerVirtualSecond,
    })),
  ],
};
