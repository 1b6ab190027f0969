/*
 * trace-import-percpu.ts: the percpu tracepoints of a kernel trace (include/trace/events/percpu.h)
 * as workload statements. percpu_alloc_percpu becomes `cpu N percpu alloc pPTR size=S align=A
 * [reserved] [atomic]`; percpu_free_percpu of an area the trace allocated becomes
 * `cpu N percpu free pPTR`. Areas are matched by ptr=, the percpu pointer alloc_percpu returned
 * (hashed by %p, but the same hash for the same pointer within one boot), so a group holds the
 * areas the kernel put at one address. The trace's base_addr= and off= say where the kernel put
 * the area; the model decides that for itself, so they are read only to check the line.
 *
 * Formats read, as docs/kernel/percpu.md (K.6) gives them: 4.14 to 5.x print `reserved= is_atomic= size= align=
 * base_addr= off= ptr=`; about 5.19 on add `call_site=` first and `bytes_alloc= gfp_flags=` last.
 * size= is already rounded up by pcpu_alloc (to 4 bytes in 4.14+) and align= is the effective
 * alignment, so both go into the workload as printed.
 */
import type { PercpuAllocStmt, PercpuFreeStmt } from './ast';
import type { TraceRecord } from './ftrace';
import { PCPU_MAX_ALIGN, PCPU_MAX_SIZE } from './parser';

/** The percpu events the importer reads; the other percpu tracepoints are counted as skipped. */
export const PERCPU_TRACE_EVENTS = new Set(['percpu_alloc_percpu', 'percpu_free_percpu']);

/** The handle group of a percpu pointer: `p` and its hex digits without leading zeros. */
export function ptrGroup(ptr: string): string {
  return 'p' + (ptr.replace(/^0+/, '') || '0');
}

/** What one percpu line says: an op, or why the line cannot be read (the field at fault). */
export type PercpuLine =
  | { kind: 'alloc'; stmt: PercpuAllocStmt; ptr: string }
  | { kind: 'free'; ptr: string; stmt: PercpuFreeStmt }
  | { kind: 'bad'; field: string; message: string };

const HEX_PTR = /^(?:0x)?([0-9a-fA-F]{1,16})$/;

/** A decimal field of at most 10 digits, or null. */
function decimal(text: string | undefined): number | null {
  return text !== undefined && /^\d{1,10}$/.test(text) ? Number(text) : null;
}

/** The ptr= field as lower-case hex digits, or null for a missing, NULL or unreadable pointer. */
function readPtr(text: string | undefined): string | null {
  const m = text === undefined ? null : HEX_PTR.exec(text);
  if (!m?.[1] || /^0+$/.test(m[1])) return null;
  return m[1].toLowerCase();
}

/** A 0/1 flag field (reserved=, is_atomic=). */
function flag(r: TraceRecord, key: string): boolean | PercpuLine {
  const v = r.fields.get(key);
  if (v === '0' || v === '1') return v === '1';
  return {
    kind: 'bad',
    field: key,
    message: `expected ${key}=0 or 1 in ${r.event}, found ${v ?? 'none'}`,
  };
}

/** One percpu_alloc_percpu or percpu_free_percpu record as a statement on the record's CPU. */
export function percpuLine(r: TraceRecord): PercpuLine {
  const ptr = readPtr(r.fields.get('ptr'));
  if (ptr === null) {
    return {
      kind: 'bad',
      field: 'ptr',
      message: `expected ptr= a non-NULL pointer in hex in ${r.event}, found ${r.fields.get('ptr') ?? 'none'}`,
    };
  }
  const off = r.fields.get('off');
  if (off === undefined || !/^-?\d{1,10}$/.test(off)) {
    return {
      kind: 'bad',
      field: 'off',
      message: `expected off= a byte offset in ${r.event}, found ${off ?? 'none'}`,
    };
  }
  const group = ptrGroup(ptr);
  if (r.event === 'percpu_free_percpu') {
    return { kind: 'free', ptr, stmt: { kind: 'percpu_free', cpu: r.cpu, group, order: null } };
  }
  const size = decimal(r.fields.get('size'));
  if (size === null || size < 1 || size > PCPU_MAX_SIZE) {
    return {
      kind: 'bad',
      field: 'size',
      message: `expected size=1..${PCPU_MAX_SIZE} (PCPU_MIN_UNIT_SIZE) in ${r.event}, found ${r.fields.get('size') ?? 'none'}`,
    };
  }
  const align = decimal(r.fields.get('align'));
  if (align === null || align < 1 || align > PCPU_MAX_ALIGN || (align & (align - 1)) !== 0) {
    return {
      kind: 'bad',
      field: 'align',
      message: `expected align= a power of two 1..${PCPU_MAX_ALIGN} (PAGE_SIZE) in ${r.event}, found ${r.fields.get('align') ?? 'none'}`,
    };
  }
  const reserved = flag(r, 'reserved');
  if (typeof reserved !== 'boolean') return reserved;
  const atomic = flag(r, 'is_atomic');
  if (typeof atomic !== 'boolean') return atomic;
  return {
    kind: 'alloc',
    ptr,
    stmt: { kind: 'percpu_alloc', cpu: r.cpu, group, size, align, reserved, atomic },
  };
}

/** The 1-based column of `key=` in a trace line (past the event name), or 1 when it is not there. */
export function fieldColumn(line: string, event: string, key: string): number {
  const from = line.indexOf(`${event}:`);
  const at = from < 0 ? -1 : line.indexOf(` ${key}=`, from);
  return at < 0 ? 1 : at + 2;
}
