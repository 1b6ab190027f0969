/*
 * LessonPage.tsx: one lesson at one step: the prose and blocks on the left (LessonText), the live
 * views on the right. The cursor (beats.ts, kept in the URL by useLessonCursor) says what has run;
 * the plan (plan.ts) says what that means for the model; the display sessions draw it. Two modes
 * share everything else: reading (Reader.tsx: buttons on every block, the timeline to step
 * through what a block did, PageDown/PageUp between steps) and presenting (Presenter.tsx: large
 * type, no chrome, a clicker walks the beats, a blank screen, and a notes window kept in step
 * over a BroadcastChannel by usePresenterLink).
 */
import { useEffect, useMemo, useState } from 'react';
import { useMediaQuery, useReducedMotion } from '../../app/theme';
import { useCore } from '../../app/useCore';
import { MaskContext } from '../../views/Masked';
import type { Theme } from '../../views/palette';
import type { EvalResult } from '../expr-eval';
import { enter, isDone, next, pointOf, previous, revealNext } from './beats';
import type { DisplaySpec } from './display';
import type { NextLesson } from './LessonEnd';
import { LessonText } from './LessonText';
import { LessonViews } from './LessonViews';
import { evaluateAt } from './model-checks';
import { goalsOf, questionsOf, type LessonPlan } from './plan';
import { BlankScreen, openNotes, PresenterKeys, PresenterTools } from './Presenter';
import { LessonTimeline, PresentLink, ReaderCrumbs, ReaderKeys } from './Reader';
import { lessonHash, type LessonMode } from './route';
import { exposeLessonTestApi } from './test-api';
import { useDisplaySessions, type DisplaySessions } from './useDisplaySessions';
import { useGoalSandbox } from './useGoalSandbox';
import { useLessonCursor } from './useLessonCursor';
import { usePresenterLink } from './usePresenterLink';
import { useLessonProgress } from './useProgress';

const NOTHING_HIDDEN: readonly string[] = [];

/** A replay lasts about this long (s), at 2 to 10,000 steps a second. */
const REPLAY_SECONDS = 6;
/** Up to this many events a replay walks event by event (splits and merges animate). */
const REPLAY_EVENTS = 120;

/**
 * Replay ops [from, end) of the display's first machine (the second follows it): back to the
 * state before them, then played at a pace that fits REPLAY_SECONDS. Reduced motion: the end.
 */
function replayWindow(sessions: DisplaySessions, from: number, reducedMotion: boolean): void {
  const { a } = sessions;
  const p = a.player;
  a.clock.pause();
  if (reducedMotion || from >= p.length) {
    p.end();
    return;
  }
  const events = p.totalEvents - p.opStart(from);
  const byEvent = events <= REPLAY_EVENTS;
  const steps = byEvent ? events : p.length - from;
  a.clock.setGrain(byEvent ? 'event' : 'op');
  a.clock.setSpeed(Math.min(10000, Math.max(2, steps / REPLAY_SECONDS)));
  p.seekOp(from);
  a.clock.play();
}

export function LessonPage({
  plan,
  step,
  mode,
  theme,
  nextLesson,
}: {
  plan: LessonPlan;
  step: number;
  mode: LessonMode;
  theme: Theme;
  nextLesson: NextLesson | null; // the lesson after this one, offered at its end
}) {
  const lesson = plan.lesson;
  const slug = lesson.slug;
  const presenting = mode === 'present';
  const core = useCore();
  const reducedMotion = useReducedMotion();
  const narrow = useMediaQuery('(max-width: 60rem)');
  const [progress, saveProgress] = useLessonProgress(slug);
  const { cursor, visit, move } = useLessonCursor(plan, step, mode);
  const [blank, setBlank] = useState(false);

  useEffect(() => {
    saveProgress((p) => (p.step === cursor.section ? p : { ...p, step: cursor.section }));
  }, [cursor.section, saveProgress]);

  const section = plan.sections[cursor.section];
  const point = pointOf(plan, cursor);
  // A section whose steps point at a view other than the map presents the map smaller, so the
  // pointed view shows whole beside it; decided per section, so running a step moves nothing.
  const pointsAside = (plan.sections[cursor.section]?.after ?? []).some(
    (p) => p.pointer !== null && p.pointer.view !== 'memory-map',
  );
  const questions = useMemo(() => questionsOf(plan, cursor.section), [plan, cursor.section]);
  const goals = useMemo(() => goalsOf(plan, cursor.section), [plan, cursor.section]);
  const goal = useGoalSandbox({
    core,
    plan,
    section: cursor.section,
    goals,
    visit,
    saveProgress,
  });
  const sandbox = goal.sandbox;

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

  // The values the section's unrevealed questions ask for: the views print `?` for them.
  const hidden = useMemo(
    () => questions.filter((q) => !cursor.done.includes(q.block)).flatMap((q) => q.question.hides),
    // cursor.done is read through revealedKey
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [questions, revealedKey],
  );

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

  const clicker = {
    next: () => move(next(plan, cursor)),
    previous: () => move(previous(plan, cursor)),
    reveal: () => move(revealNext(plan, cursor)),
    blank: () => setBlank((b) => !b),
  };
  usePresenterLink(presenting, slug, cursor, blank, clicker);

  // Bring the block the last beat touched into view (the clicker's beats, and the reader's).
  const lastDone = cursor.done.at(-1);
  useEffect(() => {
    if (lastDone === undefined) window.scrollTo?.({ top: 0, behavior: 'auto' });
    else
      document
        .getElementById(`block-${cursor.section}-${lastDone}`)
        ?.scrollIntoView?.({ block: 'nearest', behavior: reducedMotion ? 'auto' : 'smooth' });
  }, [cursor.section, lastDone, reducedMotion]);

  if (!section) return null;

  // The step whose ops the views show, run: "Show me again" replays it from the step's start.
  const replayBlock = sandbox?.spec
    ? -1
    : section.blocks.findIndex(
        (b, i) =>
          b.kind === 'step' &&
          b.ops.trim() !== '' &&
          isDone(plan, cursor, { kind: 'run', block: i }) &&
          section.after[i]?.session === point.session &&
          section.after[i]?.opsEnd === point.opsEnd,
      );
  const replay = () => {
    if (sessions) replayWindow(sessions, point.windowStart, reducedMotion);
  };

  const views = sandbox?.spec
    ? (goals.find((g) => g.block === sandbox.block)?.goal.views ?? point.views)
    : point.views;
  const state = sessions?.a.state();
  const n = plan.sections.length;
  const toPrevious = () => move(cursor.section > 0 ? enter(plan, cursor.section - 1) : null);
  const toNext = () => move(cursor.section + 1 < n ? enter(plan, cursor.section + 1) : null);
  const profiles: [string, string | null] = [
    pointSession?.profile ?? lesson.meta.profile,
    pointSession?.compare ?? null,
  ];

  // On a phone the views follow the block that uses them (the furthest one run or revealed, else
  // the first that boots, runs or asks), instead of waiting below the whole step.
  const stageAfter = narrow
    ? goal.sandbox?.spec
      ? goal.sandbox.block
      : cursor.done.length > 0
        ? Math.max(...cursor.done)
        : section.blocks.findIndex((b) => b.kind !== 'prose' && b.kind !== 'notes')
    : null;
  // Focusable: the stage scrolls on its own when the views are taller than the screen.
  const stage = (
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
              <button type="button" onClick={goal.reset}>
                Back to the lesson's state
              </button>
            </p>
          )}
          {!presenting && <LessonTimeline session={sessions.a} />}
          <MaskContext.Provider value={sandbox?.spec ? NOTHING_HIDDEN : hidden}>
            <LessonViews
              sessions={sessions}
              views={views}
              pointer={sandbox?.spec ? null : point.pointer}
              caption={sandbox?.spec ? null : point.caption}
              profiles={profiles}
              theme={theme}
              reducedMotion={reducedMotion}
              setting={presenting ? (pointsAside ? 'presenting-aside' : 'presenting') : 'lesson'}
            />
          </MaskContext.Provider>
        </>
      )}
    </section>
  );

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
          clicker={clicker}
          onExit={() => (window.location.hash = lessonHash(slug, cursor.section))}
          onNotes={() => openNotes(slug, cursor.section)}
        />
      ) : (
        <ReaderKeys
          onNext={toNext}
          onPrev={toPrevious}
          onPresent={() => (window.location.hash = lessonHash(slug, cursor.section, 'present'))}
        />
      )}
      <header className="lesson-head">
        {!presenting && <ReaderCrumbs number={lesson.number} />}
        <h1>{lesson.meta.title}</h1>
        <div className="lesson-bar">
          <span className="step-count" aria-live="polite">
            Step {cursor.section + 1} of {n}
          </span>
          <button type="button" onClick={toPrevious} disabled={cursor.section === 0}>
            ← Previous step
          </button>
          <button type="button" onClick={toNext} disabled={cursor.section + 1 >= n}>
            Next step →
          </button>
          {presenting ? (
            <PresenterTools slug={slug} section={cursor.section} />
          ) : (
            <PresentLink slug={slug} section={cursor.section} />
          )}
        </div>
      </header>

      <div className="lesson-layout">
        <LessonText
          plan={plan}
          cursor={cursor}
          mode={mode}
          nextLesson={nextLesson}
          questions={questions}
          progress={progress}
          saveProgress={saveProgress}
          modelValues={modelValues}
          sandbox={sandbox}
          machine={{ cpus: state?.nrCpus ?? 1, maxOrder: state?.maxOrder ?? 10 }}
          move={move}
          runGoal={goal.run}
          resetSandbox={goal.reset}
          stage={narrow ? stage : null}
          stageAfter={stageAfter ?? -1}
          replayBlock={replayBlock}
          onReplay={replay}
        />

        {!narrow && stage}
      </div>
      {presenting && blank && <BlankScreen />}
    </main>
  );
}
