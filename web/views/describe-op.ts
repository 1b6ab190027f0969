/*
 * describe-op.ts: one op in the workload language's words, for the event log's heading and the
 * timeline's tooltip ("cpu 0 alloc order=2 GFP_KERNEL").
 */
import { showGfpFlags } from '../core/gfp';
import { OpKind, type SimOp } from '../core/ops';
import { sysctlLabel } from './names';

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
    default:
      return 'nop';
  }
}
