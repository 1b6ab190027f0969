/*
 * SessionViews.tsx: every view of one session at its cursor, all highlighting the same event.
 *
 * While the timeline plays, the views are drawn as a deferred (transition) render: React renders
 * them in small slices between frames rather than in the frame's one task, and the clock waits
 * until they have been drawn before it steps again (Clock.holdFor). A step taken by hand is drawn
 * at once, as before.
 */
import { lazy, memo, Suspense, useDeferredValue, useEffect, useRef } from 'react';
import { AllocWalk } from '../views/AllocWalk';
import { Counters } from '../views/Counters';
import { EventLog } from '../views/EventLog';
import { FreeAreas } from '../views/FreeAreas';
import type { ModelState } from '../views/model';
import { PcpLists } from '../views/PcpLists';
import { ProcText } from '../views/ProcText';
import { Zones } from '../views/Zones';
import type { Theme } from '../views/palette';
import type { Session } from './session';
import { useClock, usePlayerVersion } from './usePlayer';

const MemoryMap = lazy(() => import('../views/MemoryMap').then((m) => ({ default: m.MemoryMap })));

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
  const state = session.state();
  const event = p.currentEvent;
  const opEvents = p.currentOpEvents;
  const options = { theme, reducedMotion };
  return (
    <div className="views">
      <h2 className="visually-hidden">What the allocator did</h2>
      <div className="views-main">
        <Suspense fallback={<p className="muted">Loading the memory map…</p>}>
          <MemoryMap state={state} event={event} opEvents={opEvents} options={options} />
        </Suspense>
        <EventLog
          state={state}
          event={event}
          opEvents={opEvents}
          options={{ ...options, ...session.eventLogOptions() }}
        />
      </div>
      <div className="views-grid">
        <AllocWalk state={state} event={event} opEvents={opEvents} options={options} />
        <FreeAreas state={state} event={event} opEvents={opEvents} options={options} />
        <PcpLists state={state} event={event} opEvents={opEvents} options={options} />
        <Zones state={state} event={event} opEvents={opEvents} options={options} />
        <Counters
          state={state}
          event={event}
          opEvents={opEvents}
          options={{ ...options, compare: compare ?? null }}
        />
        <ProcText
          state={state}
          event={event}
          opEvents={opEvents}
          options={{ ...options, proc: (f) => session.proc(f) }}
        />
      </div>
    </div>
  );
});
