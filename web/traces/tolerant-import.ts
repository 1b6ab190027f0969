/*
 * tolerant-import.ts: a kernel trace pasted or dropped in the browser, imported as far as it
 * can be. The importer (workload/trace-import.ts) stops at the first line it cannot read; here
 * lines that are not trace lines at all (a cut-off last line, a line from an editor, an overlong
 * line) are set aside with their line numbers and the rest is imported, so a truncated capture
 * still replays. A text with no page or percpu allocation in it is refused: it is not a trace we
 * can use.
 */
import { parseTraceLine } from '../workload/ftrace';
import { importTrace, type TraceImportStats } from '../workload/trace-import';
import type { Workload } from '../workload/ast';
import type { WorkloadError } from '../workload/errors';

/** Longer lines are not trace lines (the mm_page events print under 200 characters). */
const MAX_LINE = 4096;
/** Malformed lines listed by number; past this they are only counted. */
const LISTED = 20;

export interface TolerantStats extends TraceImportStats {
  malformed: number;
  malformedLines: number[]; // the first LISTED of them, 1-based
}

export type TolerantResult =
  { ok: true; workload: Workload; stats: TolerantStats } | { ok: false; error: WorkloadError };

export function importTraceTolerant(text: string): TolerantResult {
  const lines = text.split('\n');
  const malformedLines: number[] = [];
  let malformed = 0;
  let records = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const parsed = line.length > MAX_LINE ? { kind: 'malformed' as const } : parseTraceLine(line);
    if (parsed.kind === 'malformed') {
      malformed++;
      if (malformedLines.length < LISTED) malformedLines.push(i + 1);
      lines[i] = ''; // keeps the numbering of every later line
    } else if (parsed.kind === 'record') {
      records++;
    }
  }
  if (records === 0) {
    const first = malformedLines[0] ?? 1;
    return {
      ok: false,
      error: {
        line: first,
        col: 1,
        message: malformed
          ? 'no trace line here: expected "TASK-PID [CPU] FLAGS TIMESTAMP: EVENT: FIELDS" (the text of /sys/kernel/tracing/trace or trace-cmd report)'
          : 'the trace has no events (only headers or blank lines)',
      },
    };
  }
  const r = importTrace(malformed ? lines.join('\n') : text);
  if (!r.ok) return r;
  if (r.stats.allocs === 0 && r.stats.percpuAllocs === 0) {
    return {
      ok: false,
      error: {
        line: 1,
        col: 1,
        message:
          'the trace has no mm_page_alloc or percpu_alloc_percpu events to replay: enable kmem:mm_page_alloc and kmem:mm_page_free (or percpu:percpu_alloc_percpu and percpu:percpu_free_percpu) when capturing',
      },
    };
  }
  return { ok: true, workload: r.workload, stats: { ...r.stats, malformed, malformedLines } };
}
