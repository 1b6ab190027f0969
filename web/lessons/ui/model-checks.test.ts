// model-checks.test.ts: the player reads the model where the replay test does. For every lesson,
// every question's check at the plan's point gives the keyed answer, and every goal's check turns
// true after its solution typed into the sandbox, and not before.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCore, type Core } from '../../core/module';
import { loadLessons } from '../loader';
import { compileSandbox, evaluateAt, evaluateSandbox } from './model-checks';
import { goalsOf, planLesson, questionsOf } from './plan';

let core: Core;
beforeAll(async () => {
  core = await loadCore();
});

describe('player checks agree with the replay', () => {
  for (const lesson of loadLessons().lessons) {
    it(`${lesson.file}`, { timeout: 120_000 }, () => {
      const plan = planLesson(lesson);
      plan.sections.forEach((_, si) => {
        for (const q of questionsOf(plan, si)) {
          const r = evaluateAt(core, plan, q.at, q.question.check);
          const where = `${lesson.file}:${q.question.line}`;
          expect(r.ok, where).toBe(true);
          if (!r.ok) continue;
          if (q.question.type === 'choice') expect(r.value, where).toBe(true);
          else
            expect(Math.abs(Number(r.value) - q.question.answer), where).toBeLessThanOrEqual(
              q.question.tolerance,
            );
        }
        for (const g of goalsOf(plan, si)) {
          const where = `${lesson.file}:${g.goal.line}`;
          const empty = compileSandbox(plan, g.at, '');
          const solved = compileSandbox(plan, g.at, g.goal.solution);
          expect(empty.ok && solved.ok, where).toBe(true);
          if (!empty.ok || !solved.ok) continue;
          expect(evaluateSandbox(core, empty, g.goal.check), where).toEqual({
            ok: true,
            value: false,
          });
          expect(evaluateSandbox(core, solved, g.goal.check), where).toEqual({
            ok: true,
            value: true,
          });
        }
      });
    });
  }

  it('names the line of the learner text that does not compile', () => {
    const lesson = loadLessons().lessons.find((l) => l.slug === 'high-order-pcp');
    if (!lesson) throw new Error('lesson 5 is missing');
    const plan = planLesson(lesson);
    const [g] = goalsOf(plan, 4);
    if (!g) throw new Error('no goal');
    const r = compileSandbox(plan, g.at, 'cpu 0 alloc x order=3\ncpu 0 alloc y GFP_KERNAL');
    expect(r).toMatchObject({ ok: false, line: 2 });
  });
});
