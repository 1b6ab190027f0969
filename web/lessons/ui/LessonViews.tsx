/*
 * LessonViews.tsx: the views a lesson block asks for (`views: pcp, zones, log`), drawn from the
 * display sessions, side by side when the lesson compares two profiles. The view a step points
 * at is ringed, with the step's caption beside the ring. The views are the playground's, drawn
 * by name from the view registry (web/views/registry.tsx).
 */
import { useEffect, useId, useRef } from 'react';
import type { Session } from '../../app/session';
import { usePlayerVersion } from '../../app/usePlayer';
import type { ModelState } from '../../views/model';
import type { ViewSetting } from '../../views/options';
import type { Theme } from '../../views/palette';
import { RegisteredView } from '../../views/registry';
import type { Pointer, ViewName } from '../types';
import { findTarget, PointerRing } from './PointerRing';
import type { DisplaySessions } from './useDisplaySessions';

interface Common {
  theme: Theme;
  reducedMotion: boolean;
  setting: ViewSetting; // read in a lesson, or presented
}

function OneView({
  name,
  session,
  other,
  theme,
  reducedMotion,
  setting,
}: Common & { name: ViewName; session: Session; other: ModelState | null }) {
  const p = session.player;
  usePlayerVersion(p);
  return (
    <RegisteredView
      name={name}
      machine={session}
      event={p.currentEvent}
      opEvents={p.currentOpEvents}
      other={other}
      theme={theme}
      reducedMotion={reducedMotion}
      setting={setting}
    />
  );
}

function ViewSlot({
  name,
  sessions,
  profiles,
  pointer,
  caption,
  ...common
}: Common & {
  name: ViewName;
  sessions: DisplaySessions;
  profiles: [string, string | null];
  pointer: Pointer | null;
  caption: string | null;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const colId = useId();
  const pointed = pointer?.view === name;
  const { a, b } = sessions;
  usePlayerVersion(a.player);
  // Bring the view a step points at into sight (the stage scrolls on small screens and projectors);
  // a view taller than the screen (the counters of many CPUs) is scrolled on to the part the ring
  // marks, which would otherwise stay below the fold. Again once the step's ops have run (the
  // sessions move after this effect, and the view grows with them).
  const pointerKey = pointed ? JSON.stringify(pointer) : '';
  const op = a.player.position.op;
  useEffect(() => {
    const view = ref.current;
    if (!pointerKey || !view) return;
    view.scrollIntoView?.({ block: 'nearest' });
    const target = findTarget(view, JSON.parse(pointerKey) as Pointer);
    const r = target?.getBoundingClientRect();
    // The ring reaches beyond its target, its label further above: lessons.css gives a pointed
    // view's elements that reach as their scroll margin, so scroll when the ring, not just the
    // target, is cut, and scrollIntoView leaves the ring's room.
    if (!target || !r) return;
    const margin = getComputedStyle(target);
    if (
      r.top < parseFloat(margin.scrollMarginTop) ||
      r.bottom > window.innerHeight - parseFloat(margin.scrollMarginBottom)
    )
      target.scrollIntoView?.({ block: 'nearest' });
  }, [pointerKey, op]);
  // Side by side, both columns hold a "Per-CPU lists" region: screen readers (and axe's
  // landmark-unique rule) need them told apart. The views name their region by their own heading
  // and know nothing of comparisons, so the column's label is prefixed to that name here. React
  // leaves the attribute alone afterwards: the view's own value never changes.
  useEffect(() => {
    for (const col of ref.current?.querySelectorAll<HTMLElement>('.view-col') ?? []) {
      const label = col.querySelector('.col-label');
      const region = col.querySelector('section.view[aria-labelledby]');
      const ids = region?.getAttribute('aria-labelledby')?.split(' ') ?? [];
      if (label?.id && region && !ids.includes(label.id))
        region.setAttribute('aria-labelledby', [label.id, ...ids].join(' '));
    }
  });
  return (
    <div
      ref={ref}
      className={`lesson-view${pointed ? ' pointed' : ''}${b ? ' pair' : ''}`}
      data-lesson-view={name}
      data-pointed={pointed || undefined}
    >
      {b ? (
        <>
          <div className="view-col" role="group" aria-label={`${profiles[0]} kernel`}>
            <p className="col-label" id={`${colId}-a`}>
              {profiles[0]}
            </p>
            <OneView name={name} session={a} other={b.state()} {...common} />
          </div>
          <div className="view-col" role="group" aria-label={`${profiles[1] ?? ''} kernel`}>
            <p className="col-label" id={`${colId}-b`}>
              {profiles[1]}
            </p>
            <OneView name={name} session={b} other={a.state()} {...common} />
          </div>
        </>
      ) : (
        <OneView name={name} session={a} other={null} {...common} />
      )}
      {pointed && pointer && <PointerRing container={ref} pointer={pointer} label={caption} />}
    </div>
  );
}

export function LessonViews({
  sessions,
  views,
  pointer,
  caption,
  profiles,
  ...common
}: Common & {
  sessions: DisplaySessions;
  views: ViewName[];
  pointer: Pointer | null;
  caption: string | null;
  profiles: [string, string | null];
}) {
  return (
    <div className="lesson-views">
      {caption && (
        <p className="views-caption" role="note">
          {caption}
        </p>
      )}
      {views.map((v) => (
        <ViewSlot
          key={v}
          name={v}
          sessions={sessions}
          profiles={profiles}
          pointer={pointer}
          caption="Look here"
          {...common}
        />
      ))}
    </div>
  );
}
