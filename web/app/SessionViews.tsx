/*
 * SessionViews.tsx: every view of one session at its cursor, all highlighting the same event.
 */
import { lazy, Suspense } from 'react';
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
import { usePlayerVersion } from './usePlayer';

const MemoryMap = lazy(() => import('../views/MemoryMap').then((m) => ({ default: m.MemoryMap })));

export function SessionViews({ session, theme, reducedMotion, compare }: { session: Session; theme: Theme; reducedMotion: boolean; compare?: ModelState | null }) {
  const p = session.player;
  usePlayerVersion(p);
  const state = session.state();
  const event = p.currentEvent;
  const opEvents = p.currentOpEvents;
  const options = { theme, reducedMotion };
  const opIndex = p.position.op - 1;
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
          options={{
            ...options,
            op: p.ops[opIndex],
            opIndex,
            opError: opIndex >= 0 ? p.errorOf(opIndex) : 0,
            onSelect: (i) => p.seek({ op: p.position.op, event: i }),
          }}
        />
      </div>
      <div className="views-grid">
        <AllocWalk state={state} event={event} opEvents={opEvents} options={options} />
        <FreeAreas state={state} event={event} opEvents={opEvents} options={options} />
        <PcpLists state={state} event={event} opEvents={opEvents} options={options} />
        <Zones state={state} event={event} opEvents={opEvents} options={options} />
        <Counters state={state} event={event} opEvents={opEvents} options={{ ...options, compare: compare ?? null }} />
        <ProcText state={state} event={event} opEvents={opEvents} options={{ ...options, proc: (f) => session.proc(f) }} />
      </div>
    </div>
  );
}
