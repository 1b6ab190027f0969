/*
 * ftrace.ts: lines of kernel trace text (/sys/kernel/tracing/trace, `trace-cmd report`) split into
 * their parts: `TASK-PID [CPU] FLAGS TIMESTAMP: EVENT: key=value ...`. Used by the trace importer
 * and the refill/drain comparison; knows nothing about what an event means.
 */

export interface TraceRecord {
  task: string;
  pid: number;
  cpu: number;
  flags?: string; // the irq-info column ("d..3."), when the trace has it
  timestamp: string; // as printed ("192.073750"): kept exact
  event: string; // "mm_page_alloc"
  fields: Map<string, string>; // key=value pairs of the event, in order
}

export type TraceLine =
  | { kind: 'record'; record: TraceRecord }
  | { kind: 'skip' } // header, comment or blank line
  | { kind: 'lost'; count: number } // "CPU:1 [LOST 42 EVENTS]"
  | { kind: 'malformed'; expected: string };

/*
 * TASK may contain spaces and dashes; the last "-PID" before "[CPU]" ends it. An optional "(TGID)"
 * column (options/record-tgid) and the flags column (irq-info) may or may not be there.
 */
const LINE =
  /^\s*(.*?)-(\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[(\d{1,5})\]\s+(?:([.a-zA-Z0-9]{4,6})\s+)?(\d+\.\d+):\s+([A-Za-z_][\w]*):\s?(.*)$/;
const LOST = /^\s*CPU:\s*\d+\s+\[LOST (\d+) EVENTS\]\s*$/;

/** Split the key=value text of an event. Values end at a space (the mm_page events print no spaces in values). */
export function parseFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const part of text.trim().split(/\s+/)) {
    const eq = part.indexOf('=');
    if (eq > 0) fields.set(part.slice(0, eq), part.slice(eq + 1));
  }
  return fields;
}

/** One line of trace text. */
export function parseTraceLine(line: string): TraceLine {
  if (line.trim() === '' || line.trimStart().startsWith('#')) return { kind: 'skip' };
  const lost = LOST.exec(line);
  if (lost) return { kind: 'lost', count: Number(lost[1]) };
  const m = LINE.exec(line);
  if (!m)
    return {
      kind: 'malformed',
      expected: 'a trace line "TASK-PID [CPU] FLAGS TIMESTAMP: EVENT: FIELDS"',
    };
  return {
    kind: 'record',
    record: {
      task: m[1] ?? '',
      pid: Number(m[2]),
      cpu: Number(m[3]),
      ...(m[4] !== undefined ? { flags: m[4] } : {}),
      timestamp: m[5] ?? '',
      event: m[6] ?? '',
      fields: parseFields(m[7] ?? ''),
    },
  };
}

/** A number as the kmem events print it: `0x1961b8` (5.14+) or decimal (older kernels). */
export function traceNumber(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (/^0x[0-9a-fA-F]{1,16}$/.test(text)) {
    const v = Number.parseInt(text.slice(2), 16);
    return Number.isSafeInteger(v) ? v : null;
  }
  if (/^\d{1,16}$/.test(text)) return Number(text);
  return null;
}
