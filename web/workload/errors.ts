/*
 * errors.ts: what is wrong with a workload and where: a 1-based line and column and a message
 * that says what was expected, e.g. `3:14: unknown gfp flag "GFP_KERNAL" (did you mean GFP_KERNEL?)`.
 */
import type { SourcePos } from './ast';

export interface WorkloadError {
  line: number;
  col: number;
  message: string;
}

/** `line:col: message` */
export function formatError(e: WorkloadError): string {
  return `${e.line}:${e.col}: ${e.message}`;
}

/** Thrown inside the parser and compiler only; their public functions return it as a value. */
export class WorkloadFailure extends Error {
  constructor(readonly error: WorkloadError) {
    super(formatError(error));
  }
}

export function fail(at: SourcePos, message: string): never {
  throw new WorkloadFailure({ line: at.line, col: at.col, message });
}

/** Edit distance, for "did you mean" (bounded: names here are short). */
function distance(a: string, b: string): number {
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] ?? 0;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      prev[j] = Math.min(up + 1, (prev[j - 1] ?? 0) + 1, diag + cost);
      diag = up;
    }
  }
  return prev[b.length] ?? 0;
}

/** ` (did you mean X?)` when a known word is close to what was written, else ``. */
export function didYouMean(word: string, known: Iterable<string>): string {
  if (word.length > 64) return '';
  let best = '';
  let bestD = Infinity;
  const upper = word.toUpperCase();
  for (const k of known) {
    // A word that extends a known one ("allocate" for alloc) is as good as a near miss.
    const ku = k.toUpperCase();
    const d =
      ku === upper ? 0 : upper.startsWith(ku) || ku.startsWith(upper) ? 1 : distance(word, k);
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  const allowed = Math.max(1, Math.floor(word.length / 3));
  return best && bestD <= allowed ? ` (did you mean ${best}?)` : '';
}
