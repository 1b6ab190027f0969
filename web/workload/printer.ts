/*
 * printer.ts: a Workload tree back to text in the canonical form: header lines first (machine,
 * profile, one `set` per sysctl, seed), then one op per line with `cpu N` always written and every
 * default spelled out, flags in the order given, `repeat` kept. parseWorkload(print(w)) equals w.
 */
import { printAddressSpace } from './address-space';
import { sysctlValueText } from '../core/sysctl-words';
import type { CapturedFolio, MachineSpec, OpStmt, SysctlSetting, Workload } from './ast';

const INDENT = '  ';

export function printWorkload(w: Workload): string {
  const lines: string[] = [];
  if (w.machine) lines.push(printMachine(w.machine));
  if (w.profile) lines.push(`profile ${w.profile}`);
  for (const s of w.sets) lines.push(printSetting(s));
  if (w.seed !== null) lines.push(`seed ${w.seed.toString()}`);
  for (const op of w.ops) printOp(op, '', lines);
  return lines.map((l) => l + '\n').join('');
}

export function printMachine(m: MachineSpec): string {
  if (m.kind === 'preset') return `machine ${m.name}`;
  const parts = [
    `nodes=${m.nodes}`,
    `cpus=${m.cpus}`,
    `max_order=${m.maxOrder}`,
    `pageblock_order=${m.pageblockOrder}`,
    `thp=${m.thp ? 1 : 0}`,
  ];
  if (m.batch) parts.push(`batch=${m.batch}`);
  if (m.swap) parts.push(`swap=${m.swap}`);
  // Zones without pages are left out: 0 is what an absent key means.
  if (m.dma) parts.push(`dma=${m.dma}`);
  if (m.dma32) parts.push(`dma32=${m.dma32}`);
  if (m.normal) parts.push(`normal=${m.normal}`);
  if (m.movable) parts.push(`movable=${m.movable}`);
  return `machine ${parts.join(' ')}`;
}

/** A captured block's fields, as `free_captured` and a folio batch's `captured` write them. */
function capturedFields(f: CapturedFolio): string {
  return `order=${f.order}${f.pfn !== undefined ? ` pfn=0x${f.pfn.toString(16)}` : ''}${f.type !== undefined ? ` type=${f.type}` : ''}`;
}

function printSetting(s: SysctlSetting): string {
  return `set ${s.name}=${s.values.map((v) => sysctlValueText(s.name, v)).join(',')}`;
}

/** One op statement (with its body, for repeat) as lines. */
export function printOp(op: OpStmt, indent: string, out: string[]): void {
  switch (op.kind) {
    case 'alloc':
      out.push(
        `${indent}cpu ${op.cpu} alloc ${op.group} order=${op.order} ${op.gfp.join('|')}${op.purpose ? ` for=${op.purpose}` : ''}`,
      );
      return;
    case 'touch_group':
      out.push(`${indent}cpu ${op.cpu} touch ${op.group}${op.all ? ' *' : ''}`);
      return;
    case 'free':
      out.push(
        `${indent}cpu ${op.cpu} free ${op.group}${op.all ? ' *' : ''}${op.batched ? ' batched' : ''}${op.pcpLocked ? ' pcp_locked' : ''}`,
      );
      return;
    case 'drain':
      out.push(`${indent}cpu ${op.cpu} drain`);
      return;
    case 'drain_all':
      out.push(`${indent}drain all`);
      return;
    case 'tick':
      out.push(op.cpu !== undefined ? `${indent}cpu ${op.cpu} tick` : `${indent}tick ${op.count}`);
      return;
    case 'kswapd':
    case 'offline':
    case 'online':
      out.push(`${indent}cpu ${op.cpu} ${op.kind}`);
      return;
    case 'corrupt':
      out.push(`${indent}cpu ${op.cpu} corrupt`);
      return;
    case 'random':
      out.push(
        `${indent}cpu ${op.cpu} random ${op.count} max_order=${op.maxOrder} free=${op.freePercent} ${op.gfp.join('|')}`,
      );
      return;
    case 'free_folios':
      out.push(
        `${indent}cpu ${op.cpu} free_folios ${op.folios.map((f) => (typeof f === 'string' ? f : `captured ${capturedFields(f)}`)).join(' ')}`,
      );
      return;
    case 'free_captured':
      out.push(
        `${indent}cpu ${op.cpu} free_captured ${capturedFields(op)}${op.pcpLocked ? ' pcp_locked' : ''}`,
      );
      return;
    case 'free_pfn':
      out.push(`${indent}cpu ${op.cpu} free_pfn 0x${op.pfn.toString(16)} order=${op.order}`);
      return;
    case 'percpu_alloc':
      out.push(
        `${indent}cpu ${op.cpu} percpu alloc ${op.group} size=${op.size} align=${op.align}${op.reserved ? ' reserved' : ''}${op.atomic ? ' atomic' : ''}`,
      );
      return;
    case 'percpu_free':
      out.push(`${indent}cpu ${op.cpu} percpu free ${op.group}${op.order ? ` * ${op.order}` : ''}`);
      return;
    case 'percpu_balance':
      out.push(`${indent}cpu ${op.cpu} percpu balance`);
      return;
    case 'thread':
    case 'mmap':
    case 'munmap':
    case 'mprotect':
    case 'touch':
    case 'work':
      out.push(`${indent}${printAddressSpace(op)}`);
      return;
    case 'repeat':
      out.push(`${indent}repeat ${op.count} {`);
      for (const inner of op.body) printOp(inner, indent + INDENT, out);
      out.push(`${indent}}`);
      return;
  }
}
