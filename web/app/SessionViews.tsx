/*
 * SessionViews.tsx: every registered view (web/views/registry.tsx) of one session at its cursor,
 * all highlighting the same event.
 *
 * While the timeline plays, the views are drawn as a deferred (transition) render, and the clock
 * waits until they have been drawn before it steps again (Clock.holdFor). React renders such a
 * render in small slices between frames; preact/compat, which the site ships, has no time
 * slicing (useDeferredValue returns the value at once), so there each step's views are drawn in
 * one task and the clock's wait is what paces playback. A step taken by hand is drawn at once.
 */
import { memo, useDeferredValue, useEffect, useRef } from 'react';
import type { ModelState } from '../views/model';
import type { Theme } from '../views/palette';
import { RegisteredView, VIEW_ORDER, VIEWS } from '../views/registry';
import type { Session } from './session';
import { useClock, usePlayerVersion } from './usePlayer';

const MAIN = VIEW_ORDER.filter((n) => VIEWS[n].place === 'main');
const GRID = VIEW_ORDER.filter((n) => VIEWS[n].place === 'grid');

interface Props {
  session: Session;
  theme: Theme;
  reducedMotion: boolean;
  compare?: ModelState | null;
}

export function SessionViews(props: Props) {
  const { session } = props;
  const p = session.player;
  const version = usePlayerVersion(p);
  const { playing } = useClock(session.clock);
  const deferred = useDeferredValue(version);
  const shown = playing ? deferred : version;
  const drawn = useRef(version);
  useEffect(() => {
    drawn.current = shown;
  }, [shown]);
  useEffect(() => session.clock.holdFor(() => drawn.current === session.player.version), [session]);
  return <Views {...props} version={shown} />;
}

/** The views at the player's cursor; `version` only tells memo when to draw again. */
const Views = memo(function Views({
  session,
  theme,
  reducedMotion,
  compare,
}: Props & { version: number }) {
  const p = session.player;
  const common = {
    machine: session,
    event: p.currentEvent,
    opEvents: p.currentOpEvents,
    other: compare ?? null,
    theme,
    reducedMotion,
  };
  return (
    <div className="views">
      <h2 className="visually-hidden">What the allocator did</h2>
      <div className="views-main">
        {MAIN.map((n) => (
          <RegisteredView key={n} name={n} {...common} />
        ))}
      </div>
      <div className="views-grid">
        {GRID.filter((n) => VIEWS[n].shows?.(session.state()) ?? true).map((n) => (
          <RegisteredView key={n} name={n} {...common} />
        ))}
      </div>
    </div>
  );
});
