/*
 * useGoalSandbox.ts: a goal's sandbox: the reader's own ops, run on the lesson's machine at the
 * goal, checked against the goal and drawn in place of the lesson's state until the reader goes
 * back to it or leaves the step. A goal reached is remembered in the lesson's progress.
 */
import { useState } from 'react';
import type { CoreStatus } from '../../app/useCore';
import type { DisplaySpec } from './display';
import type { GoalCardProps } from './GoalCard';
import { compileSandbox, evaluateSandbox } from './model-checks';
import { blockId, goalsOf, type LessonPlan } from './plan';
import type { LessonProgress } from './progress';

export interface SandboxRun {
  block: number;
  text: string;
  result: NonNullable<GoalCardProps['result']>;
  spec: DisplaySpec | null; // null when the text did not compile
}

export function useGoalSandbox({
  core,
  plan,
  section,
  goals,
  visit,
  saveProgress,
}: {
  core: CoreStatus;
  plan: LessonPlan;
  section: number;
  goals: ReturnType<typeof goalsOf>; // the step's goals
  visit: number; // the cursor's visit to this step: a sandbox lasts one visit
  saveProgress: (change: (p: LessonProgress) => LessonProgress) => void;
}): {
  sandbox: SandboxRun | null;
  run: (block: number, text: string) => void;
  reset: () => void;
} {
  const [held, setHeld] = useState<{ visit: number; run: SandboxRun } | null>(null);
  const sandbox = held && held.visit === visit ? held.run : null;

  const run = (block: number, text: string) => {
    const g = goals.find((x) => x.block === block);
    if (!g || core.state !== 'ready') return;
    const sb = compileSandbox(plan, g.at, text);
    if (!sb.ok) {
      setHeld({
        visit,
        run: {
          block,
          text,
          result: { text, error: { line: sb.line, message: sb.message }, check: null },
          spec: null,
        },
      });
      return;
    }
    const check = evaluateSandbox(core.core, sb, g.goal.check);
    setHeld({
      visit,
      run: {
        block,
        text,
        result: { text, error: null, check },
        spec: {
          key: `s${block}:${text}`,
          session: sb.session,
          program: sb.program,
          end: sb.program.ops.length,
          windowStart: sb.start,
        },
      },
    });
    if (check.ok && check.value === true)
      saveProgress((p) => ({ ...p, goals: { ...p.goals, [blockId(section, block)]: true } }));
  };

  return { sandbox, run, reset: () => setHeld(null) };
}
