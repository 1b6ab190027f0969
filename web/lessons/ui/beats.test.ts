// beats.test.ts: lesson 5 laid out and walked as a presenter's clicker walks it.
import { describe, expect, it } from 'vitest';
import { findLesson, loadLessons } from '../loader';
import {
  beatsOf,
  completed,
  describeNext,
  enter,
  next,
  pointOf,
  previous,
  revealNext,
  type Cursor,
} from './beats';
import { goalsOf, planLesson, questionsOf } from './plan';

const lesson = findLesson(loadLessons().lessons, 'high-order-pcp');
if (!lesson) throw new Error('lesson 5 is missing');
const plan = planLesson(lesson);

describe('lesson plan', () => {
  it('has one session per sim block, each compiled with all its steps', () => {
    expect(plan.sessions.map((s) => s.compare)).toEqual(['5.14', null, '2016-prefix']);
    const churn = plan.sessions[0];
    expect(churn?.partOps.length).toBe(2); // the boot and the churn step
    expect(churn?.partOps[1]).toBeGreaterThan(churn?.partOps[0] ?? 0);
    expect(plan.sections.map((s) => s.notes !== null)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it('knows where each question reads the model', () => {
    const [q] = questionsOf(plan, 1); // the churn: revealed by the next step
    expect(q?.question.reveal).toBe('next-step');
    expect(q?.revealedBy).toBe(q ? q.block + 1 : -1);
    expect(q?.at.opsEnd).toBe(plan.sessions[0]?.partOps[1]);
    expect(q?.at.windowStart).toBe(plan.sessions[0]?.partOps[0]);
    const [g] = goalsOf(plan, 4);
    expect(g?.at.session).toBe(2);
    expect(g?.at.partCount).toBe(2); // the corrupt sim and the drain step
  });
});

describe('beats', () => {
  it('walks a section: reveal, then run, then the next section; previous undoes', () => {
    let c: Cursor = enter(plan, 2); // the fairness question: sim, 2 questions, a step
    expect(beatsOf(plan, 2).map((b) => b.kind)).toEqual(['reveal', 'reveal', 'run']);
    expect(pointOf(plan, c).session).toBe(1);
    const start = pointOf(plan, c).opsEnd;
    expect(describeNext(plan, c)).toMatch(/^Reveal the answer: How many pages/);
    c = next(plan, c) ?? c; // first question
    expect(pointOf(plan, c).opsEnd).toBe(start);
    c = next(plan, c) ?? c; // second question: next-step, so its step runs
    expect(pointOf(plan, c).opsEnd).toBeGreaterThan(start);
    expect(pointOf(plan, c).pointer?.view).toBe('pcp');
    expect(describeNext(plan, c)).toBe("Next step: The count that lied (v5's fix)"); // the step already ran
    const back = previous(plan, c);
    expect(back?.done).toEqual([c.done[0]]);
    c = next(plan, c) ?? c;
    expect(c).toEqual({ section: 3, done: [] });
    expect(previous(plan, c)).toEqual(completed(plan, 2));
  });

  it('reveals questions with its own key and stops at the ends', () => {
    expect(previous(plan, enter(plan, 0))).toBeNull();
    expect(next(plan, enter(plan, plan.sections.length - 1))).toBeNull();
    const c = revealNext(plan, enter(plan, 0));
    expect(c?.done.length).toBe(1);
    expect(c && revealNext(plan, c)).toBeNull();
  });
});
