/*
 * answer.ts: marking a learner's answer against a question's key, and finding the explanation of
 * a wrong one (`wrong.KEY`: an option key, or a likely wrong number written with `_` for a dot).
 */
import type { QuestionBlock } from '../types';

export type Marked = { right: true } | { right: false; why: string | null };

/** Parse a number as people type it ("1,024", " 77 ", "0.5"). */
export function readNumber(text: string): number | null {
  const t = text.trim().replace(/[,_\s]/g, '');
  if (t === '' || !/^-?(\d+\.?\d*|\.\d+)$/.test(t)) return null;
  return Number(t);
}

export function mark(q: QuestionBlock, given: string): Marked {
  if (q.type === 'choice') {
    if (given === q.answer) return { right: true };
    return { right: false, why: q.wrong[given] ?? null };
  }
  const n = readNumber(given);
  if (n !== null && Math.abs(n - q.answer) <= q.tolerance) return { right: true };
  const key = n === null ? null : String(n).replace('.', '_');
  return { right: false, why: key !== null ? (q.wrong[key] ?? null) : null };
}
