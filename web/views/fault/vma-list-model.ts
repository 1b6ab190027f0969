/*
 * vma-list-model.ts: what the VMA list says, as plain data: the fault path the profile takes, the
 * VMA and process the current event is about, and each VMA's protection and lock state in words.
 */
import { EV } from '../../core/events';
import type { FaultState, MmState, VmaState } from '../../core/fault-reader';
import { profileRow } from '../../core/profiles';
import type { FaultLockRule } from '../../core/generated/profiles';
import type { SimEvent } from '../model';
import { formatNs } from './lanes-model';

/** vm_flags bits (fault/mm.h): the include/linux/mm.h values and the model's file mark. */
const VM_READ = 0x1;
const VM_WRITE = 0x2;
const VM_EXEC = 0x4;
const VM_SHARED = 0x8;
const VM_GROWSDOWN = 0x100;
const VMA_FILE = 0x80000000;
/** vm_lock_seq of a VMA never write-locked (the kernel's initial UINT_MAX). */
const NEVER = 0xffffffff;

/** How a profile's faults find and lock their VMA. */
export interface FaultPath {
  rule: FaultLockRule;
  refcount: boolean; // 6.15+: vm_refcnt stands for the per-VMA lock
  words: string;
}

export function faultPath(profileId: number): FaultPath {
  const sw = profileRow(profileId).switches;
  const rule = sw.fault_lock;
  const words =
    rule === 'FAULT_LOCK_PER_VMA'
      ? `faults read-lock their VMA (per-VMA locks${sw.vma_lock_refcount ? ', the 6.15+ refcount form' : ', an rw_semaphore per VMA'}); mmap_lock only when that fails`
      : rule === 'FAULT_LOCK_SPF'
        ? 'faults try speculatively against each VMA’s vm_sequence, and take mmap_sem for read when they abort'
        : 'every fault takes mmap_lock for read; mmap, munmap and mprotect take it for write';
  return { rule, refcount: sw.vma_lock_refcount, words };
}

/** "rw-p"-style protection as /proc/PID/maps prints it. */
export function protWords(flags: number): string {
  return `${flags & VM_READ ? 'r' : '-'}${flags & VM_WRITE ? 'w' : '-'}${flags & VM_EXEC ? 'x' : '-'}${flags & VM_SHARED ? 's' : 'p'}`;
}

/** anon or file, and whether the anon_vma exists yet. */
export function kindWords(v: VmaState): string {
  if (v.flags & VMA_FILE) return 'file';
  const stack = v.flags & VM_GROWSDOWN ? ' (stack)' : '';
  return v.anonVma ? `anon${stack}` : `anon${stack}, no anon_vma yet`;
}

/** The per-VMA lock's state between ops, against its process's mm_lock_seq. */
export function vmaLockWords(v: VmaState, mm: MmState, path: FaultPath): string {
  const seq = `vm_lock_seq ${v.vmLockSeq === NEVER ? 'never set' : v.vmLockSeq} · mm_lock_seq ${mm.mmLockSeq}`;
  const marked =
    v.vmLockSeq === NEVER
      ? 'never write-locked'
      : v.vmLockSeq === mm.mmLockSeq
        ? 'write-locked'
        : `unlocked (last write-locked ${formatNs(v.writeLockedFromNs)}–${formatNs(v.writeLockedUntilNs)})`;
  const readers = path.refcount
    ? `vm_refcnt ${v.vmRefcnt}${v.vmRefcnt === 1 ? ' (attached, no reader)' : ''}`
    : `vm_lock ${v.vmLock.readers ? `held by ${v.vmLock.readers} readers` : 'free'}, read-locked ${v.vmLock.read.acquisitions} times`;
  return `${marked}; ${seq}; ${readers}`;
}

/** The VMA and process the event is about (null where it names none). */
export function eventTarget(
  fault: FaultState,
  event: SimEvent | null,
): { mm: number | null; vma: number | null; lock: boolean } {
  if (!event) return { mm: null, vma: null, lock: false };
  const threadMm = fault.cpus.find((c) => c.cpu === event.cpu)?.threadMm ?? null;
  switch (event.kind) {
    case EV.VMA_LOCK:
    case EV.VMA_MAP:
    case EV.VMA_UNMAP:
    case EV.VMA_CHANGE:
    case EV.VMA_START_WRITE:
      return { mm: threadMm, vma: event.c, lock: false };
    case EV.MMAP_LOCK_START_LOCKING:
    case EV.MMAP_LOCK_ACQUIRE_RETURNED:
    case EV.MMAP_LOCK_RELEASED:
      return { mm: event.c, vma: null, lock: true };
    case EV.PAGE_FAULT_USER:
    case EV.FAULT_DONE:
    case EV.SPF_VMA_CHANGED:
    case EV.SPF_VMA_NOANON:
    case EV.SPF_VMA_NOTSUP:
    case EV.SPF_VMA_ACCESS:
    case EV.SPF_PMD_CHANGED:
    case EV.SPF_PTE_LOCK:
    case EV.FAULT_PAGE_WASTED: {
      const mm = event.kind === EV.PAGE_FAULT_USER ? event.c : threadMm;
      const page = event.a >>> 12;
      const v = fault.mms
        .find((m) => m.index === mm)
        ?.vmas.find((x) => page >= x.start && page < x.end);
      return { mm, vma: v ? v.index : null, lock: false };
    }
    default:
      return { mm: null, vma: null, lock: false };
  }
}
