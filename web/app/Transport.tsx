/*
 * Transport.tsx: the timeline's controls: step by op and by event, play at a speed, scrub over
 * every event of the run with its notable moments marked, and pick a branch. Every control
 * dispatches a registered action, so its key (shown in its tooltip) does the same thing.
 */
import { useActions } from '../actions/context';
import { A, actionDef, type ActionId } from '../actions/definitions';
import { formatChord } from '../actions/keys';
import { SPEEDS } from '../player/clock';
import { MARKER_KINDS, MARKER_LABELS, type MarkerKind } from '../player/markers';
import { describeOp } from '../views/describe-op';
import { Markers } from './Markers';
import type { Session } from './session';
import { useClock, usePlayerVersion } from './usePlayer';

function Btn({ id, label, children }: { id: ActionId; label: string; children: string }) {
  const registry = useActions();
  const a = actionDef(id);
  const keys = a.keys?.map(formatChord).join(', ');
  return (
    <button
      type="button"
      onClick={() => registry.dispatch(id, undefined, 'button')}
      aria-label={label}
      title={keys ? `${label} (${keys})` : label}
      aria-keyshortcuts={a.keys?.join(' ')}
    >
      <span aria-hidden="true">{children}</span>
    </button>
  );
}

export function Transport({ session }: { session: Session }) {
  const registry = useActions();
  const p = session.player;
  usePlayerVersion(p);
  const clock = useClock(session.clock);
  const pos = p.position;
  const total = p.totalEvents;
  const g = p.eventIndex;
  const opEvents = p.currentOpEvents.length;
  const counts = p.markerCounts;
  const found = MARKER_KINDS.filter((k: MarkerKind) => counts[k] > 0);
  return (
    <div
      className="transport"
      role="group"
      aria-label="Timeline"
      data-op={pos.op}
      data-event={pos.event}
      data-global-event={g}
    >
      <div className="transport-row">
        <Btn id={A.home} label="To the start">
          |◀
        </Btn>
        <Btn id={A.stepOpBack} label="Back one op">
          ◀◀
        </Btn>
        <Btn id={A.stepEventBack} label="Back one event">
          ◀
        </Btn>
        <button
          type="button"
          className="play"
          onClick={() => registry.dispatch(A.play, undefined, 'button')}
          aria-pressed={clock.playing}
          title="Play / pause (Space)"
          aria-keyshortcuts="Space"
        >
          {clock.playing ? 'Pause' : 'Play'}
        </button>
        <Btn id={A.stepEventForward} label="Forward one event">
          ▶
        </Btn>
        <Btn id={A.stepOpForward} label="Forward one op">
          ▶▶
        </Btn>
        <Btn id={A.end} label="To the end">
          ▶|
        </Btn>
        <Btn id={A.prevMarker} label="Previous marked event">
          ◆◀
        </Btn>
        <Btn id={A.nextMarker} label="Next marked event">
          ▶◆
        </Btn>
        <label className="inline">
          Speed{' '}
          <select
            aria-label="Speed"
            value={clock.speed}
            onChange={(e) => session.clock.setSpeed(Number(e.target.value))}
          >
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}/s
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          Play by{' '}
          <select
            aria-label="Play by"
            value={clock.grain}
            onChange={(e) => session.clock.setGrain(e.target.value === 'event' ? 'event' : 'op')}
          >
            <option value="op">op</option>
            <option value="event">event</option>
          </select>
        </label>
        {p.branchList.length > 1 && (
          <label className="inline">
            Branch{' '}
            <select
              aria-label="Branch"
              value={p.activeBranch}
              onChange={(e) => registry.dispatch(A.branch, Number(e.target.value), 'button')}
            >
              {p.branchList.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.label}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <div className="scrubber">
        <input
          type="range"
          min={-1}
          max={Math.max(0, total - 1)}
          step={1}
          value={g}
          aria-label="Scrub through events"
          aria-valuetext={
            g < 0 ? 'start, nothing run' : `event ${g + 1} of ${total}, op ${pos.op} of ${p.length}`
          }
          onChange={(e) => registry.dispatch(A.scrub, Number(e.target.value), 'button')}
        />
        <Markers player={p} onSeek={(ev) => registry.dispatch(A.scrub, ev, 'button')} />
      </div>
      <p className="position small" aria-hidden="true">
        Op <strong>{pos.op}</strong> of {p.length}
        {pos.op > 0 ? <> ({describeOp(p.ops.at(pos.op - 1))})</> : ' (machine as booted)'}
        {' · '}event {opEvents === 0 ? '–' : `${pos.event + 1} of ${opEvents}`} in this op · {g + 1}{' '}
        of {total} overall
      </p>
      {found.length > 0 && (
        <p className="small muted marker-summary">
          Marked:{' '}
          {found
            .map((k) => `${counts[k]} ${MARKER_LABELS[k]}${counts[k] === 1 ? '' : 's'}`)
            .join(' · ')}
        </p>
      )}
    </div>
  );
}
