/*
 * plan.ts: a lesson laid out for the player, before anything runs. Each `sim` block starts a
 * session (one machine, or two with `compare`) whose workload text is the sim's plus every later
 * step's ops, compiled once as a whole, as the replay test does (session.ts); every block then
 * knows the point of the lesson just after it: which session, how many of its ops have run, which
 * ops produced the events a check sees, and what the views show and point at.
 *
 * The player moves between these points; it never decides what the model state is. Pure: no wasm.
 */
import type { MachineConfig, ProfileName } from '../../core/machine-config';
import { compileWorkload, type CompiledProgram } from '../../workload/compiler';
import { opsWithin } from '../replay';
import { composeSession, type SessionPart } from '../session';
import type { GoalBlock, Lesson, LessonBlock, Pointer, QuestionBlock, ViewName } from '../types';

/** One sim block's machine(s) and every op the lesson runs on them. */
export interface PlanSession {
  index: number;
  simLine: number;
  profile: string; // the first machine's profile, as the workload or front matter says
  compare: ProfileName | null;
  parts: SessionPart[];
  program: CompiledProgram; // all parts, compiled together
  partOps: number[]; // ops of the program within parts [0, i] (the op count after part i)
}

/** Where the lesson stands: what has run and what the views show. */
export interface LessonPoint {
  session: number; // index into LessonPlan.sessions, -1 before the first sim
  opsEnd: number; // ops of the session applied
  windowStart: number; // checks see the events of ops [windowStart, opsEnd): the last block that ran ops
  partCount: number; // session parts run (a goal's solution composes after these)
  views: ViewName[];
  pointer: Pointer | null;
  caption: string | null;
}

export interface PlanSection {
  index: number;
  title: string;
  line: number;
  blocks: LessonBlock[];
  /** The point after each block (same index as blocks). */
  after: LessonPoint[];
  /** Blocks up to this index run on entry (prose, notes and the leading sims); -1 when none. */
  autoEnd: number;
  /** The point on entry, before any block of the section runs: the previous section's end. */
  entry: LessonPoint;
  notes: string | null;
}

/** Where a question's check is evaluated and what it waits for. */
export interface QuestionPlan {
  section: number;
  block: number;
  question: QuestionBlock;
  /** The point its check reads: where it stands, or after the next step for `reveal: next-step`. */
  at: LessonPoint;
  /** With next-step: the step that reveals it, when it is in the same section. */
  revealedBy: number | null;
}

export interface LessonPlan {
  lesson: Lesson;
  sessions: PlanSession[];
  sections: PlanSection[];
}

export const NOWHERE: LessonPoint = {
  session: -1,
  opsEnd: 0,
  windowStart: 0,
  partCount: 0,
  views: [],
  pointer: null,
  caption: null,
};

/** A runnable block: a step with ops or a pointer, or a sim after the section's first question. */
export function isRunnable(b: LessonBlock): boolean {
  return b.kind === 'step' || b.kind === 'sim';
}

function compileSession(
  lesson: Lesson,
  parts: SessionPart[],
): { program: CompiledProgram; partOps: number[] } {
  const composed = composeSession(lesson.meta, parts);
  // The schema compiled these same parts at build time; failing here means the bundle is stale.
  if (!composed.ok)
    throw new Error(`${lesson.file}:${composed.error.fileLine}: ${composed.error.message}`);
  const compiled = compileWorkload(composed.workload, { positions: composed.positions });
  if (!compiled.ok) throw new Error(`${lesson.file}: ${compiled.error.message}`);
  return {
    program: compiled.program,
    partOps: composed.partEnds.map((end) => opsWithin(compiled.program, end)),
  };
}

/** Lay a lesson out. Throws only when the lesson did not pass the schema. */
export function planLesson(lesson: Lesson): LessonPlan {
  // First pass: the parts of every session, in lesson order.
  const sessionParts: { line: number; compare: ProfileName | null; parts: SessionPart[] }[] = [];
  for (const step of lesson.steps) {
    for (const b of step.blocks) {
      if (b.kind === 'sim')
        sessionParts.push({
          line: b.line,
          compare: (b.compare as ProfileName | null) ?? null,
          parts: [{ kind: 'sim', field: 'workload', text: b.workload, fileLine: b.workloadLine }],
        });
      else if (b.kind === 'step' && b.ops.trim() !== '')
        sessionParts
          .at(-1)
          ?.parts.push({ kind: 'step', field: 'ops', text: b.ops, fileLine: b.opsLine });
    }
  }
  const sessions: PlanSession[] = sessionParts.map((s, index) => {
    const { program, partOps } = compileSession(lesson, s.parts);
    return {
      index,
      simLine: s.line,
      profile: String(program.config.profile ?? lesson.meta.profile),
      compare: s.compare,
      parts: s.parts,
      program,
      partOps,
    };
  });

  // Second pass: the point after every block.
  let point: LessonPoint = NOWHERE;
  let sessionIndex = -1;
  const sections: PlanSection[] = lesson.steps.map((step, index) => {
    const entry: LessonPoint = { ...point, pointer: null, caption: null };
    point = entry;
    const after: LessonPoint[] = [];
    let autoEnd = -1;
    let interactive = false;
    let notes: string | null = null;
    step.blocks.forEach((b, i) => {
      if (b.kind === 'sim') {
        sessionIndex++;
        const s = sessions[sessionIndex];
        const opsEnd = s?.partOps[0] ?? 0;
        point = {
          session: sessionIndex,
          opsEnd,
          windowStart: 0,
          partCount: 1,
          views: b.views,
          pointer: null,
          caption: b.caption,
        };
      } else if (b.kind === 'step') {
        const s = sessions[point.session];
        const hasOps = b.ops.trim() !== '';
        const opsEnd = hasOps ? (s?.partOps[point.partCount] ?? point.opsEnd) : point.opsEnd;
        point = {
          ...point,
          opsEnd,
          windowStart: hasOps ? point.opsEnd : point.windowStart,
          partCount: hasOps ? point.partCount + 1 : point.partCount,
          views: b.views ?? point.views,
          pointer: b.point,
          caption: b.caption,
        };
      } else if (b.kind === 'notes') {
        notes = b.markdown;
      }
      if (b.kind === 'question' || b.kind === 'step' || b.kind === 'goal') interactive = true;
      if (!interactive) autoEnd = i;
      after.push(point);
    });
    return {
      index,
      title: step.title,
      line: step.line,
      blocks: step.blocks,
      after,
      autoEnd,
      entry,
      notes,
    };
  });
  return { lesson, sessions, sections };
}

/** Every question of a section with the point its check reads. */
export function questionsOf(plan: LessonPlan, section: number): QuestionPlan[] {
  const s = plan.sections[section];
  if (!s) return [];
  const out: QuestionPlan[] = [];
  s.blocks.forEach((b, i) => {
    if (b.kind !== 'question') return;
    let at = s.after[i] ?? s.entry;
    let revealedBy: number | null = null;
    if (b.reveal === 'next-step') {
      const found = nextStepWithOps(plan, section, i);
      if (found) {
        at = found.point;
        revealedBy = found.section === section ? found.block : null;
      }
    }
    out.push({ section, block: i, question: b, at, revealedBy });
  });
  return out;
}

function nextStepWithOps(
  plan: LessonPlan,
  section: number,
  block: number,
): { section: number; block: number; point: LessonPoint } | null {
  for (let si = section; si < plan.sections.length; si++) {
    const s = plan.sections[si];
    if (!s) break;
    for (let bi = si === section ? block + 1 : 0; bi < s.blocks.length; bi++) {
      const b = s.blocks[bi];
      if (b?.kind === 'step' && b.ops.trim() !== '')
        return { section: si, block: bi, point: s.after[bi] ?? s.entry };
      if (b?.kind === 'sim') return null;
    }
  }
  return null;
}

/** A goal's block and the point its sandbox starts from. */
export function goalsOf(
  plan: LessonPlan,
  section: number,
): { block: number; goal: GoalBlock; at: LessonPoint }[] {
  const s = plan.sections[section];
  if (!s) return [];
  return s.blocks.flatMap((b, i) =>
    b.kind === 'goal' ? [{ block: i, goal: b, at: s.after[i] ?? s.entry }] : [],
  );
}

/** The config a session's machine boots with: the compiled one, or the compare profile. */
export function sessionConfig(s: PlanSession, which: 'a' | 'b'): MachineConfig {
  return which === 'b' && s.compare
    ? { ...s.program.config, profile: s.compare }
    : s.program.config;
}

/** A stable id for a question or goal, for saved progress: section and block index. */
export function blockId(section: number, block: number): string {
  return `${section}.${block}`;
}
