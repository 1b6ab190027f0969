/*
 * EventLog.tsx: the decisions of the op at the cursor, in order, each in plain words with the
 * kernel function that made it (linked to its source on elixir). The current event is marked;
 * choosing another moves the cursor there, so the log doubles as a table of contents of the op.
 */
import { useLayoutEffect, useRef, useId } from 'react';
import type { SimOp } from '../core/ops';
import { formatCount } from '../core/count';
import { describeOp } from './describe-op';
import { allZones, type ModelState } from './model';
import { elixirUrl, fnFile } from './names';
import { narrate } from './narrate';
import { eventAttrs, type ViewProps } from './options';

export interface EventLogOptions {
  op: SimOp | undefined; // the op at the cursor
  opIndex: number; // its index (-1: none yet)
  opError: number; // enum sim_err it returned
  onSelect?: (eventInOp: number) => void;
}

const ERRORS = [
  '',
  'out of memory',
  'malformed op',
  'unknown or offline CPU',
  'bad handle',
  'bad page',
  'state corrupted',
];

/**
 * The machine before its first op: all free as a preset boots, or in use as a capture showed it
 * (the Your machine page, a replayed trace), which a reader should not take for a fresh boot.
 */
export function bootedWords(state: ModelState): string {
  const zones = allZones(state);
  const managed = zones.reduce((n, z) => n + z.managed, 0);
  const free = zones.reduce((n, z) => n + z.nrFreePages, 0);
  if (free >= managed) return 'The machine as booted: every managed page is free.';
  return `The machine as booted in its captured state: ${formatCount(free)} of ${formatCount(managed)} managed pages free, the rest in use as the capture showed it.`;
}

export function EventLog({ state, event, opEvents, options }: ViewProps<EventLogOptions>) {
  const hid = useId();
  const current = useRef<HTMLLIElement>(null);
  // Keep the current event in view by scrolling the log alone. (scrollIntoView also scrolled the
  // page to the log on every step, and while playing its smooth scrolls cost more than the step.)
  // Positions are read in the next animation frame, where the page is laid out for painting
  // anyway: read here, in React's commit, they forced a layout of the whole page on every step
  // (~6 ms with server2's 64 CPU panels), and steps that share a frame now share one layout. The
  // frame is asked for in the commit (a layout effect, which reads nothing): from a passive
  // effect, which Preact runs after the next paint, the log scrolled a frame late.
  useLayoutEffect(() => {
    const li = current.current;
    const list = li?.parentElement;
    // (no frames outside a browser: the unit tests' static render)
    if (!li || !list || typeof requestAnimationFrame !== 'function') return;
    const frame = requestAnimationFrame(() => {
      const r = li.getBoundingClientRect();
      const l = list.getBoundingClientRect();
      const by = r.top < l.top ? r.top - l.top : r.bottom > l.bottom ? r.bottom - l.bottom : 0;
      if (by !== 0)
        list.scrollBy?.({ top: by, behavior: options.reducedMotion ? 'auto' : 'smooth' });
    });
    return () => cancelAnimationFrame(frame);
  }, [event, options.reducedMotion]);
  const nodes = state.nodes.length;
  return (
    <section className="view event-log" {...eventAttrs(event)}>
      <header className="view-head">
        <h3 id={hid}>Event log</h3>
        <p className="small">
          {options.opIndex < 0 ? (
            `${bootedWords(state)} Step forward to run the first op.`
          ) : (
            <>
              Op {options.opIndex + 1}: <code>{describeOp(options.op)}</code>
              {options.opError > 1 ? (
                <span className="badge warn">
                  {' '}
                  {ERRORS[options.opError] ?? `error ${options.opError}`}
                </span>
              ) : null}
              {' · '}
              {opEvents.length} {opEvents.length === 1 ? 'event' : 'events'}
            </>
          )}
        </p>
      </header>
      {state.frozen && (
        <p className="error small" role="alert">
          The model stopped: its state is corrupted, and every later op is refused (see the runaway
          or bad page event).
        </p>
      )}
      {state.eventsDropped > 0 && (
        <p className="small muted">
          {state.eventsDropped} events of this op were not recorded: the event buffer was full.
        </p>
      )}
      <ol className="log">
        {opEvents.map((e, i) => {
          const lit = event?.seq === e.seq;
          const n = narrate(e, nodes);
          return (
            <li
              key={e.seq}
              ref={lit ? current : undefined}
              className={lit ? 'lit' : undefined}
              aria-current={lit ? 'step' : undefined}
              data-highlighted={lit || undefined}
              data-seq={e.seq}
            >
              <button
                type="button"
                className="link-like"
                onClick={() => options.onSelect?.(i)}
                aria-label={`Go to event ${i + 1}: ${n.kind}`}
              >
                <span className="kind">{n.kind}</span>
              </button>{' '}
              {n.text}{' '}
              {n.fn && (
                <a
                  href={elixirUrl(n.fn)}
                  target="_blank"
                  rel="noreferrer"
                  className="fn"
                  title={fnFile(n.fn) ? `${n.fn}() in ${fnFile(n.fn)} (elixir)` : undefined}
                >
                  <code>{n.fn}()</code>
                </a>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
