/*
 * narrate-fault.ts: the page-fault subsystem's events in plain words (wasm-core/src/fault/events.def),
 * spread into NARRATIONS by ../narrate.ts. Addresses are bytes inside the process's window; a
 * process is named by its number (mm 0..3).
 */
import type { EventKindName } from '../../core/generated/events';
import type { SimEvent } from '../../player/engine';

/** The fault subsystem's kinds (a name that is not a kind fails the Extract and tsc). */
export type FaultKindName = Extract<
  EventKindName,
  | 'page_fault_user'
  | 'fault_done'
  | 'mmap_lock_start_locking'
  | 'mmap_lock_acquire_returned'
  | 'mmap_lock_released'
  | 'spf_vma_changed'
  | 'spf_vma_noanon'
  | 'spf_vma_notsup'
  | 'spf_vma_access'
  | 'spf_pmd_changed'
  | 'spf_pte_lock'
  | 'vma_lock'
  | 'fault_page_wasted'
  | 'vma_map'
  | 'vma_unmap'
  | 'vma_change'
  | 'vma_start_write'
  | 'pte_alloc'
  | 'pte_free'
  | 'thread_start'
  | 'fault_op_refused'
>;

/** enum fault_path (fault_done's b, bits 0..3). */
export const FAULT_PATHS: Readonly<Record<number, string>> = {
  1: 'under its VMA lock',
  2: 'speculatively, without mmap_sem',
  3: 'under mmap_lock',
};

/** enum fault_result (fault_done's b, bits 4..7). */
const RESULTS: Readonly<Record<number, string>> = {
  0: 'mapped a new page',
  1: 'found no VMA allowing the access: SIGSEGV',
  2: 'found the PTE already there',
  3: 'found no free page (VM_FAULT_OOM)',
};

/** enum vma_lock_outcome. */
const VMA_LOCK: Readonly<Record<number, string>> = {
  1: 'vma_lock_success: the fault finished under the VMA lock',
  2: 'vma_lock_abort: lock_vma_under_rcu could not read-lock the VMA, so the fault takes mmap_lock',
  3: 'vma_lock_retry: the handler asked to retry, so the fault takes mmap_lock',
  4: 'vma_lock_miss: the VMA was detached; the walk is repeated',
};

/** enum fault_refusal. */
const REFUSALS: Readonly<Record<number, string>> = {
  1: 'the range is outside the 128 MiB window or has no pages',
  2: 'the range overlaps a mapping',
  3: 'this CPU runs no thread of that process (or already runs one)',
  4: 'every VMA slot of the model is in use',
  5: 'every PTE table slot of the model is in use',
  6: 'part of the range is not mapped',
};

const hex = (n: number) => `0x${(n >>> 0).toString(16)}`;
const range = (a: number, b: number) => `[${hex(a)}, ${hex(b)})`;
const lock = (e: SimEvent) => (e.a ? 'for write' : 'for read');

function spf(e: SimEvent, why: string): string {
  return `CPU ${e.cpu}'s speculative fault at ${hex(e.a)} (VMA ${range(e.b, e.c)}) aborts: ${why}.`;
}

/** One sentence per fault event kind. */
export const FAULT_NARRATIONS: Readonly<Record<FaultKindName, (e: SimEvent) => string>> = {
  page_fault_user: (e) =>
    `CPU ${e.cpu} takes a page fault at ${hex(e.a)} in process ${e.c} (${e.b & 2 ? 'write' : 'read'}, error code ${hex(e.b)}).`,
  fault_done: (e) =>
    `CPU ${e.cpu}'s fault at ${hex(e.a)} ${RESULTS[(e.b >> 4) & 15] ?? 'ended'} ${FAULT_PATHS[e.b & 15] ?? ''}${e.b & 256 ? ' after the lockless attempt failed' : ''}${e.c ? `, after waiting ${e.c} ns for locks` : ''}.`,
  mmap_lock_start_locking: (e) => `CPU ${e.cpu} asks for process ${e.c}'s mmap_lock ${lock(e)}.`,
  mmap_lock_acquire_returned: (e) =>
    e.b
      ? `CPU ${e.cpu} holds process ${e.c}'s mmap_lock ${lock(e)}.`
      : `CPU ${e.cpu}'s trylock of mmap_lock failed: a writer holds it or waits for it.`,
  mmap_lock_released: (e) => `CPU ${e.cpu} releases process ${e.c}'s mmap_lock (${lock(e)}).`,
  spf_vma_changed: (e) => spf(e, 'the VMA changed under it (its sequence count moved)'),
  spf_vma_noanon: (e) => spf(e, 'the VMA has no anon_vma yet'),
  spf_vma_notsup: (e) =>
    spf(
      e,
      'the VMA or its page table cannot be handled speculatively (file, no anon_vma, no PTE table)',
    ),
  spf_vma_access: (e) => spf(e, "the VMA's flags do not allow this access"),
  spf_pmd_changed: (e) => spf(e, 'the PMD no longer points at the PTE table it walked'),
  spf_pte_lock: (e) => spf(e, 'the PTE lock was busy (v9 gives up instead of spinning)'),
  vma_lock: (e) => `CPU ${e.cpu}, fault at ${hex(e.a)}: ${VMA_LOCK[e.b] ?? 'a VMA lock outcome'}.`,
  fault_page_wasted: (e) =>
    `CPU ${e.cpu} frees pfn ${e.pfn} unused: its speculative fault aborted after allocating it (${e.c} such pages allocated at that instant).`,
  vma_map: (e) => `CPU ${e.cpu} maps ${range(e.a, e.b)} (VMA ${e.c}).`,
  vma_unmap: (e) =>
    `CPU ${e.cpu} detaches VMA ${e.c} ${range(e.a, e.b)}; its pages will be zapped.`,
  vma_change: (e) =>
    `VMA ${e.c} becomes ${range(e.a, e.b)} or changes its flags: lockless faults on it must notice.`,
  vma_start_write: (e) =>
    `CPU ${e.cpu} write-locks VMA ${e.c} (vm_lock_seq ${e.a})${e.b > 0 ? ` after waiting ${e.b} ns for its readers` : ''}; it stays locked until mmap_write_unlock.`,
  pte_alloc: (e) => `The first fault under PMD ${e.a} allocates its PTE table (pfn ${e.pfn}).`,
  pte_free: (e) => `No VMA covers PMD ${e.a} any more: its PTE table (pfn ${e.pfn}) is freed.`,
  thread_start: (e) => `A thread of process ${e.a} starts on CPU ${e.cpu} (mm_users ${e.b}).`,
  fault_op_refused: (e) => `Refused at ${hex(e.b)}: ${REFUSALS[e.a] ?? 'bad address-space input'}.`,
};
