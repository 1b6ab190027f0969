/*
 * LessonPage.tsx: one lesson at one step: the prose and blocks on the left, the live views on the
 * right. The cursor (beats.ts) says what has run; the plan (plan.ts) says what that means for the
 * model; the display sessions draw it. Two modes share everything: reading (buttons on every
 * block, the timeline to step through what a block did, PageDown/PageUp between steps) and
 * presenting (large type, no chrome, a clicker walks the beats, a blank screen, and a notes
 * window kept in step over a BroadcastChannel).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAction } from '../../actions/context';
import { A } from '../../actions/definitions';
import type { Session } from '../../app/session';
import { Transport } from '../../app/Transport';
import { useReducedMotion } from '../../app/theme';
import { useCore } from '../../app/useCore';
import { useTimelineActions } from '../../app/useTimelineActions';
import type { Theme } from '../../views/palette';
import type { EvalResult } from '../expr-eval';
import { doBeat, enter, isDone, next, pointOf, previous, revealNext, type Cursor } from './beats';
import type { DisplaySpec } from './display';
import { GoalCard, type GoalCardProps } from './GoalCard';
import { LessonViews } from './LessonViews';
import { compileSandbox, evaluateAt, evaluateSandbox } from './model-checks';
import { blockId, goalsOf, questionsOf, type LessonPlan } from './plan';
import { openPresenterLink, type PresenterLink, type PresenterMessage } from './presenter-channel';
import { recordAnswer } from './progress';
import { Prose } from './Prose';
import { QuestionCard } from './QuestionCard';
import { lessonHash, TOC_HASH, type LessonMode } from './route';
import { StepCard } from './StepCard';
import { exposeLessonTestApi } from './test-api';
import { usePresenterKeys } from './usePresenterKeys';
import { useDisplaySessions } from './useDisplaySessions';
import { useLessonProgress } from './useProgress';

interface SandboxRun {
  block: number;
  text: string;
  result: NonNullable<GoalCardProps['result']>;
  spec: DisplaySpec | null; // null when the text did not compile
}

/** The timeline for reading mode: registers the arrow and Space keys only while it is shown. */
function LessonTimeline({ session }: { session: Session }) {
  useTimelineActions(session);
  return <Transport session={session} />;
}

function ReaderKeys({
  onNext,
  onPrev,
  onPresent,
}: {
  onNext: () => void;
  onPrev: () => void;
  onPresent: () => void;
}) {
  useAction(A.lessonNext, {
    run: onNext,
  });
  useAction(A.lessonPrev, {
    run: onPrev,
  });
  useAction(A.lessonPresent, {
    run: onPresent,
  });
  return null;
}

function PresenterKeys({
  onNext,
  onPrev,
  onReveal,
  onBlank,
  onExit,
  onNotes,
}: {
  onNext: () => void;
  onPrev: () => void;
  onReveal: () => void;
  onBlank: () => void;
  onExit: () => void;
  onNotes: () => void;
}) {
  usePresenterKeys({ next: onNext, previous: onPrev, reveal: onReveal, blank: onBlank });
  useAction(A.presenterLeave, {
    run: onExit,
  });
  useAction(A.presenterNotes, {
    run: onNotes,
  });
  return null;
}

export function LessonPage({
  plan,
  step,
  mode,
  theme,
}: {
  plan: LessonPlan;
  step: number;
  mode: LessonMode;
  theme: Theme;
}) {
  const lesson = plan.lesson;
  const slug = lesson.slug;
  const presenting = mode === 'present';
  const core = useCore();
  const reducedMotion = useReducedMotion();
  const [progress, saveProgress] = useLessonProgress(slug);
  const clamp = (n: number) => Math.max(0, Math.min(plan.sections.length - 1, n));

  const [cursor, setCursor] = useState<Cursor>(() => enter(plan, step));
  const [urlStep, setUrlStep] = useState(step);
  const [sandbox, setSandbox] = useState<SandboxRun | null>(null);
  const [blank, setBlank] = useState(false);
  // The URL is the source of truth for the step: follow it when it changes (links, back button).
  if (step !== urlStep) {
    setUrlStep(step);
    if (clamp(step) !== cursor.section) {
      setCursor(enter(plan, step));
      setSandbox(null);
    }
  }

  const move = useCallback(
    (c: Cursor | null) => {
      if (!c) return;
      setCursor(c);
      if (c.section !== cursor.section) {
        setSandbox(null);
        window.location.hash = lessonHash(slug, c.section, mode);
      }
    },
    [cursor.section, slug, mode],
  );

  useEffect(() => {
    saveProgress((p) => (p.step === cursor.section ? p : { ...p, step: cursor.section }));
  }, [cursor.section, saveProgress]);

  const section = plan.sections[cursor.section];
  const point = pointOf(plan, cursor);
  const questions = useMemo(() => questionsOf(plan, cursor.section), [plan, cursor.section]);
  const goals = useMemo(() => goalsOf(plan, cursor.section), [plan, cursor.section]);

  // The model's word on every revealed question, evaluated once per reveal.
  const revealedKey = cursor.done.join(',');
  const modelValues = useMemo(() => {
    const out = new Map<number, EvalResult>();
    if (core.state !== 'ready') return out;
    for (const q of questions)
      if (cursor.done.includes(q.block))
        out.set(q.block, evaluateAt(core.core, plan, q.at, q.question.check));
    return out;
    // cursor.done is read through revealedKey
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [core, plan, questions, revealedKey]);

  const pointSession = plan.sessions[point.session];
  const spec: DisplaySpec | null = useMemo(() => {
    if (sandbox?.spec) return sandbox.spec;
    if (!pointSession) return null;
    return {
      key: `p${point.session}:${point.opsEnd}`,
      session: pointSession,
      program: pointSession.program,
      end: point.opsEnd,
      windowStart: point.windowStart,
    };
  }, [sandbox, pointSession, point.session, point.opsEnd, point.windowStart]);
  const sessions = useDisplaySessions(core, spec);

  useEffect(() => {
    exposeLessonTestApi({ slug, section: cursor.section, done: cursor.done, blank, sessions });
    return () => exposeLessonTestApi(null);
  }, [slug, cursor, blank, sessions]);

  // ---- presenter: chrome off, the notes window in step ----
  const linkRef = useRef<PresenterLink | null>(null);
  const stateMsg = useMemo<PresenterMessage>(
    () => ({ type: 'state', slug, section: cursor.section, done: cursor.done, blank }),
    [slug, cursor, blank],
  );
  const handlers = {
    next: () => move(next(plan, cursor)),
    previous: () => move(previous(plan, cursor)),
    reveal: () => move(revealNext(plan, cursor)),
    blank: () => setBlank((b) => !b),
  };
  const latestState = useRef(stateMsg);
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });
  useEffect(() => {
    if (!presenting) return;
    document.documentElement.dataset.presenting = 'true';
    const link = openPresenterLink((m) => {
      if (m.type !== 'command' || m.slug !== slug) return;
      if (m.command === 'hello') link.post(latestState.current);
      else handlersRef.current[m.command]();
    });
    linkRef.current = link;
    return () => {
      delete document.documentElement.dataset.presenting;
      link.close();
      linkRef.current = null;
    };
  }, [presenting, slug]);
  useEffect(() => {
    latestState.current = stateMsg;
    linkRef.current?.post(stateMsg);
  }, [stateMsg]);

  const openNotes = () => {
    window.open(
      lessonHash(slug, cursor.section, 'notes'),
      'buddyscope-notes',
      'popup,width=960,height=720',
    );
  };

  // In presenter mode, bring the block the last beat touched into view.
  const lastDone = cursor.done.at(-1);
  useEffect(() => {
    if (lastDone === undefined) window.scrollTo?.({ top: 0, behavior: 'auto' });
    else
      document
        .getElementById(`block-${cursor.section}-${lastDone}`)
        ?.scrollIntoView?.({ block: 'nearest', behavior: reducedMotion ? 'auto' : 'smooth' });
  }, [cursor.section, lastDone, reducedMotion]);

  if (!section) return null;

  const runGoal = (block: number, text: string) => {
    const g = goals.find((x) => x.block === block);
    if (!g || core.state !== 'ready') return;
    const sb = compileSandbox(plan, g.at, text);
    if (!sb.ok) {
      setSandbox({
        block,
        text,
        result: { text, error: { line: sb.line, message: sb.message }, check: null },
        spec: null,
      });
      return;
    }
    const check = evaluateSandbox(core.core, sb, g.goal.check);
    setSandbox({
      block,
      text,
      result: { text, error: null, check },
      spec: {
        key: `s${block}:${text}`,
        session: sb.session,
        program: sb.program,
        end: sb.program.opCount,
        windowStart: sb.start,
      },
    });
    if (check.ok && check.value === true)
      saveProgress((p) => ({
        ...p,
        goals: { ...p.goals, [blockId(cursor.section, block)]: true },
      }));
  };

  const views = sandbox?.spec
    ? (goals.find((g) => g.block === sandbox.block)?.goal.views ?? point.views)
    : point.views;
  const state = sessions?.a.state();
  const n = plan.sections.length;
  const profiles: [string, string | null] = [
    pointSession?.profile ?? lesson.meta.profile,
    pointSession?.compare ?? null,
  ];
  let questionNo = 0;

  return (
    <main
      id="main"
      className={`lesson-page${presenting ? ' presenting' : ''}`}
      tabIndex={-1}
      data-section={cursor.section}
      data-done={cursor.done.join(',')}
    >
      {presenting ? (
        <PresenterKeys
          onNext={handlers.next}
          onPrev={handlers.previous}
          onReveal={handlers.reveal}
          onBlank={handlers.blank}
          onExit={() => (window.location.hash = lessonHash(slug, cursor.section))}
          onNotes={openNotes}
        />
      ) : (
        <ReaderKeys
          onNext={() => move(cursor.section + 1 < n ? enter(plan, cursor.section + 1) : null)}
          onPrev={() => move(cursor.section > 0 ? enter(plan, cursor.section - 1) : null)}
          onPresent={() => (window.location.hash = lessonHash(slug, cursor.section, 'present'))}
        />
      )}
      <header className="lesson-head">
        {!presenting && (
          <nav aria-label="Breadcrumb" className="crumbs small">
            <a href={TOC_HASH}>Lessons</a> <span aria-hidden="true">/</span> Lesson {lesson.number}
          </nav>
        )}
        <h1>{lesson.meta.title}</h1>
        <div className="lesson-bar">
          <span className="step-count" aria-live="polite">
            Step {cursor.section + 1} of {n}
          </span>
          <button
            type="button"
            onClick={() => move(cursor.section > 0 ? enter(plan, cursor.section - 1) : null)}
            disabled={cursor.section === 0}
          >
            ← Previous step
          </button>
          <button
            type="button"
            onClick={() => move(cursor.section + 1 < n ? enter(plan, cursor.section + 1) : null)}
            disabled={cursor.section + 1 >= n}
          >
            Next step →
          </button>
          {presenting ? (
            <>
              <button type="button" onClick={openNotes}>
                Speaker notes
              </button>
              <a className="button-like" href={lessonHash(slug, cursor.section)}>
                Leave presenter mode
              </a>
            </>
          ) : (
            <a
              className="button-like"
              href={lessonHash(slug, cursor.section, 'present')}
              title="Present (Shift+P)"
            >
              Present
            </a>
          )}
        </div>
      </header>

      <div className="lesson-layout">
        <article className="lesson-text" aria-labelledby="step-title">
          <h2 id="step-title">{section.title}</h2>
          {cursor.section === 0 && lesson.intro && <Prose source={lesson.intro} />}
          {section.blocks.map((b, i) => {
            const key = `block-${cursor.section}-${i}`;
            if (b.kind === 'prose') return <Prose key={key} source={b.markdown} />;
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
                  cpus={state?.nrCpus ?? 1}
                  maxOrder={state?.maxOrder ?? 10}
                  onRun={(t) => runGoal(i, t)}
                  onReset={() => setSandbox(null)}
                />
              </div>
            );
          })}
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

        {/* Focusable: the stage scrolls on its own when the views are taller than the screen. */}
        <section className="lesson-stage" aria-label="The simulated machine" tabIndex={0}>
          {core.state === 'loading' && <p role="status">Starting the simulation…</p>}
          {core.state === 'failed' && (
            <p role="alert" className="error">
              The simulation could not start: {core.error}
            </p>
          )}
          {core.state === 'ready' && !sessions && (
            <p className="muted">No machine yet: the first step boots one.</p>
          )}
          {sessions && (
            <>
              {sandbox?.spec && (
                <p className="sandbox-note">
                  Your sandbox: the lesson's machine plus your ops.{' '}
                  <button type="button" onClick={() => setSandbox(null)}>
                    Back to the lesson's state
                  </button>
                </p>
              )}
              {!presenting && <LessonTimeline session={sessions.a} />}
              <LessonViews
                sessions={sessions}
                views={views}
                pointer={sandbox?.spec ? null : point.pointer}
                caption={sandbox?.spec ? null : point.caption}
                profiles={profiles}
                theme={theme}
                reducedMotion={reducedMotion}
              />
            </>
          )}
        </section>
      </div>
      {presenting && blank && (
        <div className="blank-screen" role="status" aria-label="Screen blanked">
          <span className="visually-hidden">Screen blanked: press B or . to return.</span>
        </div>
      )}
    </main>
  );
}
