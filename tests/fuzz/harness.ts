/*
 * harness.ts: what every text fuzzer checks, and how it runs. A target turns an input into a
 * verdict: accepted (null) or a rejection that says where (line and column, or byte offset) and
 * why. Anything else is a failure: an exception (the modules return their positioned errors as
 * values, so any throw is a crash), an input that takes over HANG_MS, or a rejection that does not
 * say where or why. fast-check generates the inputs and shrinks a failing one to a minimal
 * reproducer.
 */
import fc from 'fast-check';

/** Longest an input may take (the better of two runs) before it counts as a hang. */
export const HANG_MS = 2000;

/**
 * Where and why an input was refused: a line and column (1-based) in text, when given, the text
 * they must fall inside; or a byte offset (0-based).
 */
export type Rejection =
  { line: number; col: number; reason: string; text?: string } | { offset: number; reason: string };

export interface FuzzTarget<T> {
  kind: string;
  /** What it fuzzes, for the summary. */
  what: string;
  arbitrary: fc.Arbitrary<T>;
  /** Run one input: null when accepted; throws only on a bug. */
  run(input: T): Promise<Rejection | null> | Rejection | null;
}

export interface FuzzStats {
  inputs: number;
  rejections: number;
  crashes: number;
  hangs: number;
  /** Rejections without a position or a reason. */
  unpositioned: number;
}

export const emptyStats = (): FuzzStats => ({
  inputs: 0,
  rejections: 0,
  crashes: 0,
  hangs: 0,
  unpositioned: 0,
});

/** What is wrong with a rejection's position or reason, or '' when it says where and why. */
export function rejectionProblem(r: Rejection): string {
  if (typeof r.reason !== 'string' || r.reason.trim() === '') return 'a rejection without a reason';
  if ('offset' in r) {
    return Number.isSafeInteger(r.offset) && r.offset >= 0
      ? ''
      : `a rejection at byte offset ${String(r.offset)}: ${r.reason}`;
  }
  const ok = (n: number) => Number.isSafeInteger(n) && n >= 1;
  if (!ok(r.line) || !ok(r.col))
    return `a rejection at line ${String(r.line)} column ${String(r.col)}: ${r.reason}`;
  const outside = r.text === undefined ? '' : outsideText(r.text, r.line, r.col);
  return outside ? `a rejection outside the text (${outside}): ${r.reason}` : '';
}

/** A line and column that must fall inside text (or just past its end): '' when they do. */
export function outsideText(text: string, line: number, col: number): string {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) return `line ${line} is past the text's last line (${l})`;
    start = nl + 1;
  }
  const end = text.indexOf('\n', start);
  const length = (end < 0 ? text.length : end) - start;
  return col <= length + 1 ? '' : `column ${col} is past the end of line ${line} (${length} chars)`;
}

/** Thrown by the property: the failure kinds the summary counts. */
class FuzzFailure extends Error {}

/**
 * The property a target's inputs must satisfy, counting into stats. onInput runs before each
 * input (the CLI's watchdog heartbeat); onFailure when the first failing input is seen.
 */
export function fuzzProperty<T>(
  target: FuzzTarget<T>,
  stats: FuzzStats,
  hooks: { onInput?: () => void; onFailure?: () => void } = {},
  hangMs = HANG_MS,
): fc.IAsyncProperty<[T]> {
  return fc.asyncProperty(target.arbitrary, async (input) => {
    hooks.onInput?.();
    stats.inputs++;
    const start = performance.now();
    let verdict: Rejection | null;
    try {
      verdict = await target.run(input);
    } catch (e) {
      if (e instanceof FuzzFailure) throw e;
      stats.crashes++;
      hooks.onFailure?.();
      throw new FuzzFailure(`crash: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
    let ms = performance.now() - start;
    if (ms > hangMs) {
      // once more, warm: a cold JIT or a busy shared machine must not pass for a hang
      const again = performance.now();
      await target.run(input);
      ms = Math.min(ms, performance.now() - again);
    }
    if (ms > hangMs) {
      stats.hangs++;
      hooks.onFailure?.();
      throw new FuzzFailure(`hang: the input took ${Math.round(ms)} ms (limit ${hangMs} ms)`);
    }
    if (verdict) {
      stats.rejections++;
      const problem = rejectionProblem(verdict);
      if (problem) {
        stats.unpositioned++;
        hooks.onFailure?.();
        throw new FuzzFailure(problem);
      }
    }
  });
}

/**
 * A printed input, readable however big: runs of one line repeated (fast-check cannot shrink a
 * run's length below what found the failure) are shown once with their count, and the rest is cut
 * at 4000 characters. The seed and path in the report replay the exact input.
 */
export function abbreviate(printed: string): string {
  const lines = printed.split('\\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    let j = i + 1;
    while (j < lines.length && lines[j] === lines[i]) j++;
    out.push(j - i >= 4 ? `${lines[i] ?? ''}\\n[…${j - i} times…]` : lines.slice(i, j).join('\\n'));
    i = j;
  }
  const short = out.join('\\n');
  return short.length > 4000 ? short.slice(0, 4000) + '…' : short;
}

/** A failing target's report: its shrunk input, the seed and path that replay it, and why. */
export function describeFailure<T>(kind: string, details: fc.RunDetails<[T]>): string {
  if (!details.failed) return '';
  const input = details.counterexample ? fc.stringify(details.counterexample[0]) : '(none)';
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : '';
  return [
    `fuzz: ${kind}: FAILED after ${details.numRuns} inputs (${details.numShrinks} shrinks): ${error}`,
    `  minimal input: ${abbreviate(input)}`,
    `  replay: seed ${details.seed}, path "${details.counterexamplePath ?? ''}"`,
  ].join('\n');
}

export interface FuzzRun {
  stats: FuzzStats;
  /** '' when every input passed, else describeFailure's report. */
  failure: string;
  seed: number;
}

/** Run a target: numRuns inputs, or as many as fit in timeLimitMs; hangMs for the harness's own tests. */
export async function runTarget<T>(
  target: FuzzTarget<T>,
  options: { seed: number; numRuns?: number; timeLimitMs?: number; hangMs?: number },
  hooks: { onInput?: () => void; onFailure?: () => void } = {},
): Promise<FuzzRun> {
  const stats = emptyStats();
  const details = await fc.check(fuzzProperty(target, stats, hooks, options.hangMs), {
    seed: options.seed,
    numRuns: options.numRuns ?? Number.MAX_SAFE_INTEGER,
    ...(options.timeLimitMs !== undefined
      ? { interruptAfterTimeLimit: options.timeLimitMs, markInterruptAsFailure: false }
      : {}),
  });
  return { stats, failure: describeFailure(target.kind, details), seed: options.seed };
}

/** The closing summary line of a target's run. */
export function summaryLine(kind: string, run: FuzzRun): string {
  const s = run.stats;
  return `fuzz: ${kind}: ${s.inputs} inputs, ${s.rejections} rejections, ${s.crashes} crashes, ${s.hangs} hangs, ${s.unpositioned} rejections without a position${run.failure ? ' [FAILED]' : ''}`;
}
