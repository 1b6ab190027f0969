/*
 * lint.ts: errors inline as you type, from the real parser and compiler (run off the main thread
 * by the caller's check function). A WorkloadError's 1-based line and column become a range over
 * the word that starts there.
 */
import type { Text } from '@codemirror/state';
import type { Diagnostic } from '@codemirror/lint';
import type { WorkloadError } from '../workload/errors';

/** The document range an error points at: from its column to the end of the word there. */
export function errorRange(doc: Text, e: WorkloadError): { from: number; to: number } {
  const line = doc.line(Math.max(1, Math.min(doc.lines, e.line)));
  const from = Math.min(line.to, line.from + Math.max(0, e.col - 1));
  const rest = doc.sliceString(from, line.to);
  const word = /^[A-Za-z0-9_.\-=|*,{}]+/.exec(rest);
  const to = Math.min(line.to, from + (word ? word[0].length : 1));
  return { from, to: Math.max(to, from) };
}

export function diagnosticOf(doc: Text, e: WorkloadError): Diagnostic {
  const { from, to } = errorRange(doc, e);
  return {
    from,
    to,
    severity: 'error',
    message: `${e.line}:${e.col}: ${e.message}`,
    source: 'workload',
  };
}
