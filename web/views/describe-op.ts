/*
 * describe-op.ts: one op in the workload language's words, for the event log's heading and the
 * timeline's tooltip. An op that a statement compiles to is written as that statement, with
 * "handle N" where the statement names its group (ops keep handles, not group names): `cpu 0
 * alloc handle 3 order=2 GFP_KERNEL` is `cpu 0 alloc a order=2 GFP_KERNEL` for the block it put
 * in handle 3. The ops that put a machine into a captured state have no statement: they are said
 * in words.
 */
import {
  CAPTURE_BOOST,
  CAPTURE_LRU_REFAULTS,
  CAPTURE_FREE,
  CAPTURE_LAYOUT,
  CAPTURE_PAGEBLOCKS,
  CAPTURE_PCP_HIGH,
} from '../core/capture-ops';
import { gfpValue, showGfpFlags } from '../core/gfp';
import { MAX_NR_ZONES, ZONE_NAMES } from '../core/machine-config';
import { FREE_PCP_LOCKED, HANDLE_NONE, OpKind, type SimOp } from '../core/ops';
import { PCP_TYPES, PURPOSES } from '../workload/ast';
import { LRU_NAMES, sysctlLabel } from './names';
import { migratetypeName } from './palette';

/** VM_READ | VM_WRITE | VM_EXEC as the workload language writes it (r, w, x in order, or none). */
function protText(flags: number): string {
  const s = (flags & 1 ? 'r' : '') + (flags & 2 ? 'w' : '') + (flags & 4 ? 'x' : '');
  return s || 'none';
}

/** A captured free's fields as the workload language writes them: its order, pfn (handle) and type (gfp). */
function capturedFields(op: Pick<SimOp, 'order' | 'gfp' | 'handle'>): string {
  return `order=${op.order}${op.handle !== HANDLE_NONE ? ` pfn=0x${op.handle.toString(16)}` : ''}${op.gfp ? ` type=${PCP_TYPES[op.gfp - 1] ?? op.gfp - 1}` : ''}`;
}

/** A capture op's node * MAX_NR_ZONES + zone as "Normal" (or "node 1 Normal"). */
function zoneText(z: number): string {
  const node = Math.floor(z / MAX_NR_ZONES);
  const name = ZONE_NAMES[z % MAX_NR_ZONES] ?? `zone ${z % MAX_NR_ZONES}`;
  return node ? `node ${node} ${name}` : name;
}

/** GFP_NOWAIT: what an atomic percpu request asks with (the compiler's choice). */
const GFP_NOWAIT = gfpValue('GFP_NOWAIT');

export function describeOp(op: SimOp | undefined): string {
  if (!op) return '';
  const cpu = `cpu ${op.cpu}`;
  switch (op.kind) {
    case OpKind.ALLOC:
      return `${cpu} alloc handle ${op.handle} order=${op.order} ${showGfpFlags(op.gfp)}`;
    case OpKind.LRU_ALLOC:
      return `${cpu} alloc handle ${op.handle} order=${op.order} ${showGfpFlags(op.gfp)} for=${PURPOSES[op.arg - 1] ?? op.arg}`;
    case OpKind.MARK_ACCESSED:
      return `${cpu} touch handle ${op.handle}`;
    case OpKind.FREE:
      return `${cpu} free handle ${op.handle}${op.arg === FREE_PCP_LOCKED ? ' pcp_locked' : ''}`;
    case OpKind.FREE_BATCH:
      return `${cpu} free handles ${op.handle}-${op.handle + op.arg - 1} batched`;
    case OpKind.FREE_PFN:
      return `${cpu} free_pfn 0x${op.handle.toString(16)} order=${op.order}`;
    case OpKind.DRAIN_CPU:
      return `${cpu} drain`;
    case OpKind.DRAIN_ALL:
      return 'drain all';
    case OpKind.TICK:
      return `tick ${op.arg}`;
    case OpKind.TICK_CPU:
      return `${cpu} tick`;
    case OpKind.CPU_OFFLINE:
      return `${cpu} offline`;
    case OpKind.CPU_ONLINE:
      return `${cpu} online`;
    case OpKind.SYSCTL:
      return `set ${sysctlLabel(op.handle) ?? op.handle}=${op.arg}`;
    case OpKind.CORRUPT:
      return `${cpu} corrupt`;
    case OpKind.RANDOM:
      return `${cpu} random 1 max_order=${op.order} free=${op.arg & 0x7f} ${showGfpFlags(op.gfp)}`;
    case OpKind.SEED:
      return `seed ${op.arg}`;
    case OpKind.CAPTURE_ZONE:
      if (op.order === CAPTURE_FREE)
        return `${cpu} free_captured ${capturedFields({ ...op, order: op.arg & ~FREE_PCP_LOCKED })}${op.arg & FREE_PCP_LOCKED ? ' pcp_locked' : ''}`;
      if (op.order === CAPTURE_BOOST)
        return `capture: ${zoneText(op.handle)}'s watermark_boost=${op.arg}`;
      if (op.order === CAPTURE_LAYOUT)
        return `capture: lay out ${zoneText(op.handle)} from the recorded blocks`;
      if (op.order === CAPTURE_PAGEBLOCKS)
        return `capture: ${op.arg} ${migratetypeName(op.gfp)} pageblocks in ${zoneText(op.handle)}`;
      return `capture: ${op.arg} free order-${op.order} ${migratetypeName(op.gfp)} blocks in ${zoneText(op.handle)}`;
    case OpKind.CAPTURE_LRU:
      if (op.gfp === CAPTURE_LRU_REFAULTS)
        return `capture: node ${Math.floor(op.handle / MAX_NR_ZONES)}'s refaults moved since reclaim last ran (${['none', 'anon', 'file', 'anon and file'][op.arg] ?? op.arg})`;
      return `capture: ${op.arg} pages of ${zoneText(op.handle)} on the ${LRU_NAMES[op.gfp] ?? `list ${op.gfp}`} list`;
    case OpKind.MEMCG:
      return `capture: memory cgroup ${op.handle ? `inode ${op.handle}` : '(deleted)'}, ${op.arg ? 'online' : 'offline'}`;
    case OpKind.CAPTURE_LRU_FOLIOS:
      return `capture: ${op.arg} order-${op.order} folios of ${zoneText(op.handle)} on memcg ${Math.floor(op.gfp / 4)}'s ${LRU_NAMES[op.gfp % 4] ?? `list ${op.gfp % 4}`} list`;
    case OpKind.KSWAPD_CPU:
      return `${cpu} kswapd`;
    case OpKind.CLOCK:
      return `trace clock: ${(op.arg / 1000).toFixed(3)} ms`;
    case OpKind.FREE_FOLIOS:
      // one op per block of the batch; the last (arg 1) frees the batch
      return `${cpu} free_folios handle ${op.handle}`;
    case OpKind.FREE_FOLIOS_CAPTURED:
      return `${cpu} free_folios captured ${capturedFields(op)}`;
    case OpKind.CAPTURE_PCP:
      if (op.order === CAPTURE_PCP_HIGH)
        return `capture: ${cpu}'s ${zoneText(op.handle)} pcp high=${op.arg}`;
      return `capture: ${cpu}'s ${zoneText(op.handle)} pcp gets ${op.arg} order-${op.order} ${migratetypeName(op.gfp)} blocks`;
    case OpKind.PERCPU_ALLOC:
      return `${cpu} percpu alloc handle ${op.handle} size=${op.arg & 0xffff} align=${op.arg >>> 16}${op.order & 1 ? ' reserved' : ''}${op.gfp === GFP_NOWAIT ? ' atomic' : ''}`;
    case OpKind.PERCPU_FREE:
      return `${cpu} percpu free handle ${op.handle}`;
    case OpKind.PERCPU_BALANCE:
      return `${cpu} percpu balance`;
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
    case OpKind.NOP:
      return 'nop';
    default:
      return `op kind ${String(op.kind)}`;
  }
}
