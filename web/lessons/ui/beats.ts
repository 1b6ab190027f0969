/*
 * beats.ts: moving through a lesson, as presentation software moves through a talk. A section (a
 * `## ` step of the lesson) has beats: each question's reveal and each step's run, in the order
 * they are written. "Next" does the next beat and leaves the section when none is left; "previous"
 * undoes the last beat, or goes back to the previous section as it was left (all beats done, like
 * a slide with its builds shown). A learner reaches the same beats through the buttons on each
 * block; a presenter's clicker walks them with one key.
 *
 * The cursor is the section and the beats done there, in the order they were done (so undo is a
 * pop). What has run follows from it: a run beat runs its step and every runnable block before
 * it; a reveal needs the state where its question stands, or after its step for next-step
 * questions. Pure data, no React.
 */
import {
  isRunnable,
  NOWHERE,
  questionsOf,
  type LessonPlan,
  type LessonPoint,
  type PlanSection,
} from './plan';

export interface Beat {
  kind: 'run' | 'reveal';
  block: number; // index in the section's blocks
}

export interface Cursor {
  section: number;
  done: number[]; // block indices of the beats done, in order
}

/** The beats of a section in reading order: leading sims run on entry and are not beats. */
export function beatsOf(plan: LessonPlan, section: number): Beat[] {
  const s = plan.sections[section];
  if (!s) return [];
  const out: Beat[] = [];
  s.blocks.forEach((b, i) => {
    if (i <= s.autoEnd) return;
    if (b.kind === 'question') out.push({ kind: 'reveal', block: i });
    else if (isRunnable(b)) out.push({ kind: 'run', block: i });
  });
  return out;
}

/** The last block whose effects the cursor requires: runs, and the steps reveals wait for. */
export function ranThrough(plan: LessonPlan, cursor: Cursor): number {
  const s = plan.sections[cursor.section];
  if (!s) return -1;
  const questions = questionsOf(plan, cursor.section);
  let m = s.autoEnd;
  for (const block of cursor.done) {
    const q = questions.find((x) => x.block === block);
    m = Math.max(m, q ? (q.revealedBy ?? block) : block);
  }
  return m;
}

/** The point the views show: after the last block that has run. */
export function pointOf(plan: LessonPlan, cursor: Cursor): LessonPoint {
  const s: PlanSection | undefined = plan.sections[cursor.section];
  if (!s) return plan.sections[0]?.entry ?? NOWHERE;
  const m = ranThrough(plan, cursor);
  return m < 0 ? s.entry : (s.after[m] ?? s.entry);
}

/** Whether a beat is done: a reveal once revealed, a run once anything at or after it ran. */
export function isDone(plan: LessonPlan, cursor: Cursor, beat: Beat): boolean {
  if (beat.kind === 'reveal') return cursor.done.includes(beat.block);
  return ranThrough(plan, cursor) >= beat.block;
}

export function nextBeat(plan: LessonPlan, cursor: Cursor): Beat | null {
  return beatsOf(plan, cursor.section).find((b) => !isDone(plan, cursor, b)) ?? null;
}

/** Do one beat (no-op when it is done already). */
export function doBeat(plan: LessonPlan, cursor: Cursor, beat: Beat): Cursor {
  if (isDone(plan, cursor, beat)) return cursor;
  return { section: cursor.section, done: [...cursor.done, beat.block] };
}

/** The cursor at the start of a section (clamped to the lesson). */
export function enter(plan: LessonPlan, section: number): Cursor {
  return { section: Math.max(0, Math.min(plan.sections.length - 1, section)), done: [] };
}

/** A section with every beat done. */
export function completed(plan: LessonPlan, section: number): Cursor {
  let c = enter(plan, section);
  for (const b of beatsOf(plan, c.section)) c = doBeat(plan, c, b);
  return c;
}

/** Presenter "next": the next beat, else the next section. Null at the very end. */
export function next(plan: LessonPlan, cursor: Cursor): Cursor | null {
  const b = nextBeat(plan, cursor);
  if (b) return doBeat(plan, cursor, b);
  return cursor.section + 1 < plan.sections.length ? enter(plan, cursor.section + 1) : null;
}

/** Presenter "previous": undo the last beat, else the previous section with its beats done. */
export function previous(plan: LessonPlan, cursor: Cursor): Cursor | null {
  if (cursor.done.length > 0) return { section: cursor.section, done: cursor.done.slice(0, -1) };
  return cursor.section > 0 ? completed(plan, cursor.section - 1) : null;
}

/** Reveal the first question of the section not yet revealed; null when there is none. */
export function revealNext(plan: LessonPlan, cursor: Cursor): Cursor | null {
  const b = beatsOf(plan, cursor.section).find(
    (x) => x.kind === 'reveal' && !isDone(plan, cursor, x),
  );
  return b ? doBeat(plan, cursor, b) : null;
}

/** What the next click will do, for the speaker's notes: "Reveal: …", "Run the step", "Next step: …". */
export function describeNext(plan: LessonPlan, cursor: Cursor): string {
  const b = nextBeat(plan, cursor);
  const s = plan.sections[cursor.section];
  if (b && s) {
    const block = s.blocks[b.block];
    if (block?.kind === 'question') return `Reveal the answer: ${block.prompt}`;
    if (block?.kind === 'step')
      return block.ops.trim() === '' ? 'Point at what changed' : 'Run the step';
    if (block?.kind === 'sim') return 'Boot the next machine';
  }
  const after = plan.sections[cursor.section + 1];
  return after ? `Next step: ${after.title}` : 'End of the lesson';
}
