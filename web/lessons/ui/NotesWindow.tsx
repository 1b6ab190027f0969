/*
 * NotesWindow.tsx: the speaker's window (#/lessons/<slug>/<step>/notes, opened by presenter mode
 * with window.open). It shows what the room cannot see: this step's notes, what the next click
 * will do, the next step and its notes, and the time since the window opened. It holds no model:
 * the presentation window owns the cursor and tells this one where it is; the clicker keys and
 * buttons here send commands back, so either window drives both.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { describeNext, type Cursor } from './beats';
import type { LessonPlan } from './plan';
import { openPresenterLink, type PresenterCommand, type PresenterLink } from './presenter-channel';
import { Markdown } from '../../markdown/Md';
import { lessonHash } from './route';
import { usePresenterKeys } from './usePresenterKeys';

function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function NotesWindow({ plan, step }: { plan: LessonPlan; step: number }) {
  const slug = plan.lesson.slug;
  const [cursor, setCursor] = useState<Cursor>({
    section: Math.min(step, plan.sections.length - 1),
    done: [],
  });
  const [blank, setBlank] = useState(false);
  const [connected, setConnected] = useState(false);
  const [started] = useState(() => Date.now());
  const [now, setNow] = useState(() => Date.now());
  const link = useRef<PresenterLink | null>(null);

  useEffect(() => {
    document.documentElement.dataset.presenting = 'notes';
    const l = openPresenterLink((m) => {
      if (m.type !== 'state' || m.slug !== slug) return;
      setConnected(true);
      setCursor({ section: m.section, done: m.done });
      setBlank(m.blank);
      // Keep this window's address on the step too, so a reload lands in the right place.
      history.replaceState(null, '', lessonHash(slug, m.section, 'notes'));
    });
    link.current = l;
    l.post({ type: 'command', slug, command: 'hello' });
    return () => {
      delete document.documentElement.dataset.presenting;
      l.close();
      link.current = null;
    };
  }, [slug]);

  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);

  const send = (command: PresenterCommand) =>
    link.current?.post({ type: 'command', slug, command });
  usePresenterKeys({
    next: () => send('next'),
    previous: () => send('previous'),
    reveal: () => send('reveal'),
    blank: () => send('blank'),
  });

  const section = plan.sections[cursor.section];
  const following = plan.sections[cursor.section + 1];
  const nextClick = useMemo(() => describeNext(plan, cursor), [plan, cursor]);
  if (!section) return null;
  return (
    <main
      id="main"
      className="notes-window"
      data-section={cursor.section}
      data-done={cursor.done.join(',')}
    >
      <header className="notes-head">
        <h1>Speaker notes: {plan.lesson.meta.title}</h1>
        <p className="notes-meta">
          <span className="notes-clock" aria-label="Time since the notes opened">
            {clock(now - started)}
          </span>
          <span aria-live="polite">
            {connected
              ? blank
                ? 'Screen is blank'
                : 'Following the presentation'
              : 'Waiting for the presentation window…'}
          </span>
        </p>
      </header>
      <section aria-labelledby="notes-now">
        <h2 id="notes-now">
          Step {cursor.section + 1} of {plan.sections.length}: {section.title}
        </h2>
        <p className="next-click">
          <strong>Next click:</strong> {nextClick}
        </p>
        <div className="notes-body">
          {section.notes ? (
            <Markdown source={section.notes} />
          ) : (
            <p className="muted">No notes for this step.</p>
          )}
        </div>
      </section>
      {following && (
        <section aria-labelledby="notes-next" className="notes-coming">
          <h2 id="notes-next">Coming up: {following.title}</h2>
          {following.notes && <Markdown source={following.notes} />}
        </section>
      )}
      <div className="notes-controls" role="group" aria-label="Presentation">
        <button type="button" onClick={() => send('previous')}>
          ← Previous
        </button>
        <button type="button" onClick={() => send('reveal')}>
          Reveal (R)
        </button>
        <button type="button" onClick={() => send('blank')} aria-pressed={blank}>
          Blank (B)
        </button>
        <button type="button" className="primary" onClick={() => send('next')}>
          Next →
        </button>
      </div>
    </main>
  );
}
