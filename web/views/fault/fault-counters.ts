/*
 * fault-counters.ts: the page-fault figures the Counters view lists once a workload uses an
 * address space: /proc/vmstat's pgfault, speculative_pgfault and vma_lock_* (the names of
 * CONFIG_PER_VMA_LOCK_STATS), which path finished the faults, mmap_lock's acquisitions and
 * waits, and the pages speculative aborts wasted.
 */
import type { ModelState } from '../model';

/** Whether the state's workload started a thread in some process. */
export function faultUsed(s: ModelState | null | undefined): boolean {
  return (s?.fault?.mms.length ?? 0) > 0;
}

type Row = [label: string, value: (s: ModelState) => number, help: string];

const sumLocks = (
  s: ModelState,
  get: (m: NonNullable<ModelState['fault']>['mms'][number]) => number,
) => (s.fault?.mms ?? []).reduce((n, m) => n + get(m), 0);

export const FAULT_ROWS: Row[] = [
  ['pgfault', (s) => s.fault?.counters.pgfault ?? 0, 'user page faults (every path)'],
  [
    'under mmap_lock',
    (s) => s.fault?.counters.byPath[3] ?? 0,
    'faults finished under mmap_lock for read (the classic path, or a fall back)',
  ],
  [
    'speculative_pgfault',
    (s) => s.fault?.counters.speculativePgfault ?? 0,
    'faults handled speculatively, without mmap_sem (SPF v9/v11)',
  ],
  [
    'under a VMA lock',
    (s) => s.fault?.counters.byPath[1] ?? 0,
    'faults finished under their VMA lock (6.4+)',
  ],
  [
    'vma_lock_success',
    (s) => s.fault?.counters.vmaLockSuccess ?? 0,
    'per-VMA faults that finished',
  ],
  [
    'vma_lock_abort',
    (s) => s.fault?.counters.vmaLockAbort ?? 0,
    'lock_vma_under_rcu could not lock the VMA: mmap_lock instead',
  ],
  [
    'vma_lock_retry',
    (s) => s.fault?.counters.vmaLockRetry ?? 0,
    'the handler under the VMA lock asked to retry under mmap_lock',
  ],
  ['vma_lock_miss', (s) => s.fault?.counters.vmaLockMiss ?? 0, 'the VMA found was detached'],
  [
    'SPF aborts',
    (s) => (s.fault?.counters.spfAbort ?? []).reduce((a, b) => a + b, 0),
    'speculative attempts that gave up (the pagefault:spf_* events)',
  ],
  [
    'mmap_lock reads by faults',
    (s) => s.fault?.counters.faultMmapReads ?? 0,
    'mmap_lock read acquisitions made by faults, trylocks included',
  ],
  [
    'mmap_lock acquisitions',
    (s) => sumLocks(s, (m) => m.mmapLock.read.acquisitions + m.mmapLock.write.acquisitions),
    'every mmap_lock taken, for read or write, by every process',
  ],
  [
    'mmap_lock waits',
    (s) => sumLocks(s, (m) => m.mmapLock.read.contended + m.mmapLock.write.contended),
    'acquisitions of mmap_lock that had to wait',
  ],
  [
    'mmap_lock wait ns',
    (s) => sumLocks(s, (m) => m.mmapLock.read.waitNs + m.mmapLock.write.waitNs),
    'virtual time spent waiting for mmap_lock',
  ],
  [
    'wasted pages',
    (s) => s.fault?.counters.wastedPages ?? 0,
    'pages allocated for a speculative fault and freed unused after it aborted',
  ],
  [
    'wasted at once (most)',
    (s) => s.fault?.counters.wastedAtOnceMax ?? 0,
    'the most such pages allocated at one instant (at most nr_cpus - 1)',
  ],
  ['SIGSEGV', (s) => s.fault?.counters.sigsegv ?? 0, 'faults with no VMA or a forbidden access'],
];
