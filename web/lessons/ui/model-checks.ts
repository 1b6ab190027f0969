/*
 * model-checks.ts: the lesson's check expressions evaluated on the model at a point of the lesson,
 * exactly as the replay test does: boot the session's machine(s), run the ops before the events
 * window, clear the events, run the window, read the snapshot. The player's own machines cannot be
 * used for this: its timeline keeps only the current op's events, and a check reads all the
 * events of the block that ran (`count(events.pcp_refill)` over a whole step).
 *
 * Goals run the learner's ops after the goal's point the same way, composed with the session's
 * text so their handle groups (`free a`) know what the lesson allocated.
 */
import type { Core } from '../../core/module';
import { compileWorkload, type CompiledProgram } from '../../workload/compiler';
import type { LessonMachine } from '../engine';
import { wasmLessonEngine } from '../engine-wasm';
import { evaluateText, type EvalResult } from '../expr-eval';
import { opsWithin, withProfile } from '../replay';
import { composeSession } from '../session';
import { expressionRoot } from '../snapshot';
import type { LessonPlan, LessonPoint, PlanSession } from './plan';

/** Boot a session's machines and run ops [0, start), clear, [start, end) of `program`. */
function runWindow(
  core: Core,
  s: PlanSession,
  program: CompiledProgram,
  start: number,
  end: number,
): LessonMachine[] {
  const engine = wasmLessonEngine(core);
  const profiles = s.compare ? [null, s.compare] : [null];
  return profiles.map((p) => {
    const m = engine.boot(withProfile(program.config, p));
    m.apply(program.ops, 0, start);
    m.clearEvents();
    m.apply(program.ops, start, end);
    return m;
  });
}

function evaluateOn(machines: LessonMachine[], expr: string): EvalResult {
  try {
    const snaps = machines.map((m) => m.snapshot());
    const a = snaps[0];
    if (!a) return { ok: false, message: 'no machine' };
    return evaluateText(expr, expressionRoot(a, snaps[1] ?? null));
  } finally {
    for (const m of machines) m.dispose();
  }
}

/** Evaluate a check at a point of the lesson. */
export function evaluateAt(
  core: Core,
  plan: LessonPlan,
  point: LessonPoint,
  expr: string,
): EvalResult {
  const s = plan.sessions[point.session];
  if (!s) return { ok: false, message: 'nothing is running at this point' };
  return evaluateOn(runWindow(core, s, s.program, point.windowStart, point.opsEnd), expr);
}

/** The learner's sandbox ops after a goal's point: compiled, or the error at a line of their text. */
export type SandboxProgram =
  | { ok: true; program: CompiledProgram; start: number; session: PlanSession }
  | { ok: false; line: number; message: string };

export function compileSandbox(plan: LessonPlan, point: LessonPoint, text: string): SandboxProgram {
  const s = plan.sessions[point.session];
  if (!s) return { ok: false, line: 1, message: 'nothing is running at this point' };
  // fileLine 1 for the learner's part: errors then name the line of their own text.
  const parts = [
    ...s.parts.slice(0, point.partCount),
    { kind: 'goal' as const, field: 'solution' as const, text, fileLine: 1 },
  ];
  const composed = composeSession(plan.lesson.meta, parts);
  if (!composed.ok)
    return {
      ok: false,
      line: composed.error.kind === 'goal' ? composed.error.fileLine : 1,
      message: composed.error.message,
    };
  const compiled = compileWorkload(composed.workload, { positions: composed.positions });
  if (!compiled.ok) {
    const at = composed.lineMap[compiled.error.line - 1];
    return {
      ok: false,
      line: at?.part.kind === 'goal' ? at.fileLine : 1,
      message: compiled.error.message,
    };
  }
  const start = opsWithin(compiled.program, composed.partEnds[composed.partEnds.length - 2] ?? 0);
  return { ok: true, program: compiled.program, start, session: s };
}

/** Evaluate a goal's check after the learner's sandbox ops. */
export function evaluateSandbox(
  core: Core,
  sandbox: Extract<SandboxProgram, { ok: true }>,
  expr: string,
): EvalResult {
  return evaluateOn(
    runWindow(core, sandbox.session, sandbox.program, sandbox.start, sandbox.program.ops.length),
    expr,
  );
}
