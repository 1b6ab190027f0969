/*
 * replay.ts: run a whole lesson against the model, as the replay test does and as the player does
 * when it jumps ahead: every sim and step block in order, every question's check against its keyed
 * answer (before or after the next step, as the question says), every goal's check false before
 * and true after its solution. Each failure names the lesson file and line.
 *
 * A session is one sim block and the ops after it. Its text is compiled as a whole (session.ts),
 * so handle groups carry across steps; each step applies only the ops its own lines produced.
 * Goals run their solution on a fresh copy of the session (booted and replayed: the model is
 * deterministic), so the lesson continues from the state before the sandbox.
 */
import type { MachineConfig, ProfileName } from '../core/machine-config';
import { compileWorkload, type CompiledProgram } from '../workload/compiler';
import type { LessonEngine, LessonMachine } from './engine';
import { evaluateText, showValue } from './expr-eval';
import { composeSession, type SessionPart } from './session';
import { expressionRoot, type Snapshot } from './snapshot';
import type { GoalBlock, Lesson, QuestionBlock } from './types';

export interface ReplayFailure {
  file: string;
  line: number;
  message: string;
}

/** One evaluated check, for tools that want to see the model's values (debugging, the player). */
export interface CheckValue {
  line: number;
  check: string;
  value: unknown;
}

export interface ReplayOptions {
  onCheck?: (c: CheckValue) => void;
}

export interface ReplayReport {
  file: string;
  checks: number; // questions and goals verified
  failures: ReplayFailure[];
}

/** Handles and events every lesson machine gets: lessons allocate thousands of blocks at most. */
const LESSON_MAX_HANDLES = 1 << 15;
const LESSON_EVENT_CAPACITY = 1 << 18;

interface Session {
  parts: SessionPart[];
  compare: ProfileName | null;
  machines: LessonMachine[]; // [a] or [a, b]
  applied: number; // ops of the compiled session already applied
}

/** The machine a lesson boots: the workload's config, another profile when comparing, room for the lesson's handles and events. The player uses it too, so its numbers are the replay's. */
export function withProfile(config: MachineConfig, profile: ProfileName | null): MachineConfig {
  return {
    ...config,
    ...(profile ? { profile } : {}),
    maxHandles: Math.max(config.maxHandles ?? 0, LESSON_MAX_HANDLES),
    percpuHandles: Math.max(config.percpuHandles ?? 0, LESSON_MAX_HANDLES),
    eventCapacity: LESSON_EVENT_CAPACITY,
  };
}

/** The number of compiled ops whose source line is within the first `lines` lines. */
export function opsWithin(program: CompiledProgram, lines: number): number {
  let n = 0;
  while (n < program.ops.length && (program.lines[n] ?? 0) <= lines) n++;
  return n;
}

class Replayer {
  readonly failures: ReplayFailure[] = [];
  checks = 0;
  private session: Session | null = null;

  constructor(
    private readonly lesson: Lesson,
    private readonly engine: LessonEngine,
    private readonly options: ReplayOptions,
  ) {}

  private fail(line: number, message: string): void {
    this.failures.push({ file: this.lesson.file, line, message });
  }

  private compile(
    parts: SessionPart[],
    line: number,
  ): { program: CompiledProgram; partEnds: number[] } | null {
    const composed = composeSession(this.lesson.meta, parts);
    if (!composed.ok) {
      this.fail(composed.error.fileLine, `${composed.error.kind} block: ${composed.error.message}`);
      return null;
    }
    const compiled = compileWorkload(composed.workload, { positions: composed.positions });
    if (!compiled.ok) {
      this.fail(
        composed.lineMap[compiled.error.line - 1]?.fileLine ?? line,
        compiled.error.message,
      );
      return null;
    }
    return { program: compiled.program, partEnds: composed.partEnds };
  }

  /** Boot the session's machines and apply its ops up to part `upto` (inclusive). */
  private bootSession(
    parts: SessionPart[],
    compare: ProfileName | null,
    line: number,
  ): Session | null {
    const c = this.compile(parts, line);
    if (!c) return null;
    const profiles: (ProfileName | null)[] = compare ? [null, compare] : [null];
    const machines = profiles.map((p) => this.engine.boot(withProfile(c.program.config, p)));
    const end = opsWithin(c.program, c.partEnds[c.partEnds.length - 1] ?? 0);
    for (const m of machines) {
      m.clearEvents();
      m.apply(c.program.ops, 0, end);
    }
    return { parts, compare, machines, applied: end };
  }

  private root(): Record<string, unknown> | null {
    const s = this.session;
    if (!s) return null;
    const snaps: Snapshot[] = s.machines.map((m) => m.snapshot());
    const a = snaps[0];
    if (!a) return null;
    return expressionRoot(a, snaps[1] ?? null);
  }

  private disposeSession(): void {
    for (const m of this.session?.machines ?? []) m.dispose();
    this.session = null;
  }

  private checkQuestion(q: QuestionBlock): void {
    this.checks++;
    const root = this.root();
    if (!root) return;
    const r = evaluateText(q.check, root);
    if (r.ok) this.options.onCheck?.({ line: q.checkLine, check: q.check, value: r.value });
    if (!r.ok) {
      this.fail(q.checkLine, `question block: check \`${q.check}\`: ${r.message}`);
      return;
    }
    if (q.type === 'choice') {
      if (r.value !== true)
        this.fail(
          q.checkLine,
          `question block: the keyed answer ${q.answer} is not what the model says: \`${q.check}\` is ${showValue(r.value)}`,
        );
      return;
    }
    if (typeof r.value !== 'number') {
      this.fail(
        q.checkLine,
        `question block: check \`${q.check}\` is ${showValue(r.value)}, not a number`,
      );
      return;
    }
    if (Math.abs(r.value - q.answer) > q.tolerance) {
      this.fail(
        q.checkLine,
        `question block: answer ${q.answer} but the model says ${r.value} (\`${q.check}\`)`,
      );
    }
  }

  private checkGoal(g: GoalBlock): void {
    this.checks++;
    const s = this.session;
    if (!s) return;
    const before = this.root();
    if (before) {
      const r = evaluateText(g.check, before);
      if (r.ok && r.value === true)
        this.fail(g.checkLine, 'goal block: the check is already true before the solution runs');
    }
    const parts: SessionPart[] = [
      ...s.parts,
      { kind: 'goal', field: 'solution', text: g.solution, fileLine: g.solutionLine },
    ];
    const c = this.compile(parts, g.line);
    if (!c) return;
    const start = opsWithin(c.program, c.partEnds[c.partEnds.length - 2] ?? 0);
    const end = c.program.ops.length;
    const profiles: (ProfileName | null)[] = s.compare ? [null, s.compare] : [null];
    const machines = profiles.map((p) => this.engine.boot(withProfile(c.program.config, p)));
    try {
      for (const m of machines) {
        m.apply(c.program.ops, 0, start);
        m.clearEvents();
        m.apply(c.program.ops, start, end);
      }
      const snaps = machines.map((m) => m.snapshot());
      const a = snaps[0];
      if (!a) return;
      const r = evaluateText(g.check, expressionRoot(a, snaps[1] ?? null));
      if (r.ok) this.options.onCheck?.({ line: g.checkLine, check: g.check, value: r.value });
      if (!r.ok) this.fail(g.checkLine, `goal block: check \`${g.check}\`: ${r.message}`);
      else if (r.value !== true)
        this.fail(
          g.solutionLine,
          `goal block: after the solution, \`${g.check}\` is ${showValue(r.value)}, not true`,
        );
    } finally {
      for (const m of machines) m.dispose();
    }
  }

  run(): void {
    let pending: QuestionBlock[] = [];
    try {
      for (const step of this.lesson.steps) {
        for (const b of step.blocks) {
          switch (b.kind) {
            case 'prose':
            case 'notes':
              break;
            case 'sim': {
              this.disposeSession();
              pending = [];
              const compare = (b.compare as ProfileName | null) ?? null;
              this.session = this.bootSession(
                [{ kind: 'sim', field: 'workload', text: b.workload, fileLine: b.workloadLine }],
                compare,
                b.line,
              );
              break;
            }
            case 'step': {
              const s = this.session;
              if (!s || b.ops.trim() === '') break;
              s.parts.push({ kind: 'step', field: 'ops', text: b.ops, fileLine: b.opsLine });
              const c = this.compile(s.parts, b.line);
              if (!c) break;
              const end = opsWithin(c.program, c.partEnds[c.partEnds.length - 1] ?? 0);
              for (const m of s.machines) {
                m.clearEvents();
                m.apply(c.program.ops, s.applied, end);
              }
              s.applied = end;
              for (const q of pending) this.checkQuestion(q);
              pending = [];
              break;
            }
            case 'question':
              if (b.reveal === 'next-step') pending.push(b);
              else this.checkQuestion(b);
              break;
            case 'goal':
              this.checkGoal(b);
              break;
          }
        }
      }
      for (const q of pending)
        this.fail(q.line, 'question block: reveal: next-step but no step with ops follows');
    } finally {
      this.disposeSession();
    }
  }
}

/** Replay one lesson; never throws for lesson content problems (they become failures). */
export function replayLesson(
  lesson: Lesson,
  engine: LessonEngine,
  options: ReplayOptions = {},
): ReplayReport {
  const r = new Replayer(lesson, engine, options);
  r.run();
  return { file: lesson.file, checks: r.checks, failures: r.failures };
}
