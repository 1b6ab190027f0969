/*
 * LessonText.tsx: one step's text: its prose and blocks in order (a machine booting, steps to
 * run, questions to answer, goals to reach), on the last step the lesson's end (LessonEnd.tsx),
 * then the list of every step. Each block acts by
 * moving the lesson's cursor (beats.ts); answers and goals reached go to the lesson's progress.
 */
import { Fragment, type ReactNode } from 'react';
import type { EvalResult } from '../expr-eval';
import type { LessonBlock } from '../types';
import { doBeat, isDone, type Cursor } from './beats';
import { GoalCard } from './GoalCard';
import { LessonEnd, type NextLesson } from './LessonEnd';
import { blockId, type LessonPlan, type QuestionPlan } from './plan';
import { recordAnswer, type LessonProgress } from './progress';
import { Markdown } from '../../markdown/Md';
import { QuestionCard } from './QuestionCard';
import { lessonHash, type LessonMode } from './route';
import { StepCard } from './StepCard';
import type { SandboxRun } from './useGoalSandbox';

export function LessonText({
  plan,
  cursor,
  mode,
  nextLesson,
  questions,
  progress,
  saveProgress,
  modelValues,
  sandbox,
  machine,
  move,
  runGoal,
  resetSandbox,
  stage,
  stageAfter,
  replayBlock,
  onReplay,
}: {
  plan: LessonPlan;
  cursor: Cursor;
  mode: LessonMode;
  nextLesson: NextLesson | null;
  questions: QuestionPlan[];
  progress: LessonProgress;
  saveProgress: (change: (p: LessonProgress) => LessonProgress) => void;
  modelValues: Map<number, EvalResult>; // the model's answer to each revealed question
  sandbox: SandboxRun | null;
  machine: { cpus: number; maxOrder: number }; // for the goals' op buttons
  move: (c: Cursor | null) => void;
  runGoal: (block: number, text: string) => void;
  resetSandbox: () => void;
  /** On a phone, the views, drawn right after block stageAfter (-1: before the first block). */
  stage: ReactNode;
  stageAfter: number;
  /** The step block whose ops the views show (it may be replayed); -1: none. */
  replayBlock: number;
  onReplay: () => void;
}) {
  const lesson = plan.lesson;
  const slug = lesson.slug;
  const presenting = mode === 'present';
  const section = plan.sections[cursor.section];
  if (!section) return null;
  let questionNo = 0;
  const block = (b: LessonBlock, i: number): ReactNode => {
    const key = `block-${cursor.section}-${i}`;
    if (b.kind === 'prose') return <Markdown key={key} source={b.markdown} />;
    if (b.kind === 'notes') return null;
    if (b.kind === 'sim') {
      return b.caption ? (
        <p key={key} id={key} className="sim-note small muted">
          A machine boots for this step: {b.caption}
        </p>
      ) : null;
    }
    if (b.kind === 'step') {
      const q = questions.find((x) => x.revealedBy === i);
      const waiting = q && !cursor.done.includes(q.block) ? questions.indexOf(q) + 1 : null;
      return (
        <div key={key} id={key}>
          <StepCard
            step={b}
            ran={isDone(plan, cursor, { kind: 'run', block: i })}
            waitingFor={presenting ? null : waiting}
            onRun={() => move(doBeat(plan, cursor, { kind: 'run', block: i }))}
            onReplay={i === replayBlock ? onReplay : null}
          />
        </div>
      );
    }
    if (b.kind === 'question') {
      questionNo++;
      const q = questions.find((x) => x.block === i);
      const id = blockId(cursor.section, i);
      return (
        <div key={key} id={key}>
          <QuestionCard
            key={`${cursor.section}-${i}`}
            question={b}
            number={questionNo}
            revealed={cursor.done.includes(i)}
            saved={progress.questions[id]}
            presenting={presenting}
            model={modelValues.get(i) ?? null}
            revealsByRunning={q?.revealedBy !== null && q?.revealedBy !== undefined}
            onAnswered={(a) => saveProgress((p) => recordAnswer(p, id, a))}
            onReveal={() => {
              if (!presenting) saveProgress((p) => recordAnswer(p, id, 'revealed'));
              move(doBeat(plan, cursor, { kind: 'reveal', block: i }));
            }}
          />
        </div>
      );
    }
    return (
      <div key={key} id={key}>
        <GoalCard
          key={`${cursor.section}-${i}`}
          goal={b}
          reached={!!progress.goals[blockId(cursor.section, i)]}
          result={sandbox?.block === i ? sandbox.result : null}
          cpus={machine.cpus}
          maxOrder={machine.maxOrder}
          onRun={(t) => runGoal(i, t)}
          onReset={resetSandbox}
        />
      </div>
    );
  };
  return (
    <article className="lesson-text" aria-labelledby="step-title">
      <h2 id="step-title">{section.title}</h2>
      {cursor.section === 0 && lesson.intro && <Markdown source={lesson.intro} />}
      {stage && stageAfter < 0 && stage}
      {section.blocks.map((b, i) => (
        <Fragment key={`block-${cursor.section}-${i}`}>
          {block(b, i)}
          {stage && stageAfter === i && stage}
        </Fragment>
      ))}
      {cursor.section === plan.sections.length - 1 && (
        <LessonEnd lesson={lesson} next={nextLesson} mode={mode} />
      )}
      <nav className="step-links" aria-label="Steps of this lesson">
        <ol>
          {plan.sections.map((s) => (
            <li key={s.index}>
              <a
                href={lessonHash(slug, s.index, mode)}
                aria-current={s.index === cursor.section ? 'step' : undefined}
              >
                {s.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
    </article>
  );
}
