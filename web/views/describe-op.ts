/*
 * describe-op.ts: one op in the workload language's words, for the event log's heading and the
 * timeline's tooltip ("cpu 0 alloc order=2 GFP_KERNEL").
 */
import { showGfpFlags } from '../core/gfp';
import { OpKind, type SimOp } from '../core/ops';
import { sysctlLabel } from './names';

/** VM_READ | VM_WRITE | VM_EXEC as the workload language writes it (r, w, x in order, or none). */
function protText(flags: number): string {
  const s = (flags & 1 ? 'r' : '') + (flags & 2 ? 'w' : '') + (flags & 4 ? 'x' : '');
  return s || 'none';
}

export function describeOp(op: SimOp | undefined): string {
  if (!op) return '';
  const cpu = `cpu ${op.cpu}`;
  switch (op.kind) {
    case OpKind.ALLOC:
      return `${cpu} alloc order=${op.order} ${showGfpFlags(op.gfp)} (handle ${op.handle})`;
    case OpKind.FREE:
      return `${cpu} free handle ${op.handle}`;
    case OpKind.FREE_PFN:
      return `${cpu} free_pfn ${op.handle} order=${op.order}`;
    case OpKind.DRAIN_CPU:
      return `${cpu} drain`;
    case OpKind.DRAIN_ALL:
      return 'drain all';
    case OpKind.TICK:
      return `tick ${op.arg}`;
    case OpKind.CPU_OFFLINE:
      return `${cpu} offline`;
    case OpKind.CPU_ONLINE:
      return `${cpu} online`;
    case OpKind.SYSCTL:
      return `set ${sysctlLabel(op.handle) ?? op.handle}=${op.arg}`;
    case OpKind.CORRUPT:
      return `${cpu} corrupt`;
    case OpKind.RANDOM:
      return `${cpu} random step (max_order=${op.order}, free=${op.arg & 0x7f}%)`;
    case OpKind.SEED:
      return `seed ${op.arg}`;
    case OpKind.THREAD:
      return `${cpu} thread mm=${op.order}`;
    case OpKind.MMAP:
      return `${cpu} mmap mm=${op.order} at=${op.handle} pages=${op.arg} prot=${protText(op.gfp)}${op.gfp & 0x80000000 ? ' file' : ''}`;
    case OpKind.MUNMAP:
      return `${cpu} munmap mm=${op.order} at=${op.handle} pages=${op.arg}`;
    case OpKind.MPROTECT:
      return `${cpu} mprotect mm=${op.order} at=${op.handle} pages=${op.arg} prot=${protText(op.gfp)}`;
    case OpKind.TOUCH:
      return `${cpu} touch mm=${op.order} at=${op.handle} pages=${op.arg} ${op.gfp & 1 ? 'write' : 'read'}`;
    case OpKind.WORK:
      return `${cpu} work ns=${op.arg}`;
    default:
      return 'nop';
  }
}
