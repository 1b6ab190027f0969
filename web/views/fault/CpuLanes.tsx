/*
 * CpuLanes.tsx: one lane per CPU that runs a thread, over virtual time: user work, faults by the
 * path that handled them, waits for mmap_lock or for a VMA's readers, speculative or per-VMA
 * attempts that fell back, pages wasted by an abort, and mmap/munmap/mprotect. The boxes are the
 * core's lane segments (fault/lane.h), placed by lanes-model.ts; the segment holding the current
 * event is outlined and said in words above the lanes. Every lane's totals are in a table below,
 * so nothing is told by colour or position alone. The lanes scroll sideways inside themselves on
 * a phone; "Zoom to this op" narrows the window to the op at the cursor.
 */
import { useId, useState } from 'react';
import { LANE_STATES, type LaneKey } from '../../core/generated/lanes';
import { formatCount } from '../../core/count';
import type { SimEvent } from '../model';
import { eventAttrs, type ViewProps } from '../options';
import { laneBackground, type Theme } from '../palette';
import { formatNs, isWait, laneLabel, laneLayout, type LaneRow } from './lanes-model';
import './fault.css';

/** A lane's kept time by state, in words, for its aria-label. */
function laneSummary(r: LaneRow): string {
  const parts = r.byState
    .map((ns, state) => (ns > 0 ? `${laneLabel(state)} ${formatNs(ns)}` : ''))
    .filter(Boolean);
  const who = r.mm === null ? 'no thread' : `a thread of mm ${r.mm}`;
  return `CPU ${r.cpu}, ${who}: ${parts.length ? parts.join(', ') : 'nothing yet'}`;
}

function Swatch({ state, theme }: { state: number; theme: Theme }) {
  const key = LANE_STATES[state]?.key ?? 'NONE';
  return (
    <span
      className="lane-swatch"
      aria-hidden="true"
      style={{ background: laneBackground(key, theme) }}
    />
  );
}

/** Where the current event is, in words. */
function currentWords(layout: ReturnType<typeof laneLayout>, event: SimEvent | null): string {
  if (!event) return 'No event at the cursor: step into an op to outline its segment.';
  const c = layout.current;
  if (!c)
    return `The current event (CPU ${event.cpu}) is not on a lane: it is not part of a fault, a work op or an address-space change.`;
  const s = c.segment;
  return `Current event: CPU ${c.cpu}, ${laneLabel(s.state)}, ${formatNs(s.fromNs)} to ${formatNs(s.toNs)} (${formatNs(s.toNs - s.fromNs)}).`;
}

export function CpuLanes({ state, event, opEvents, options }: ViewProps) {
  const hid = useId();
  const [zoom, setZoom] = useState(false);
  const fault = state.fault;
  if (!fault || fault.cpus.length === 0)
    return (
      <section className="view fault-lanes" {...eventAttrs(event)}>
        <header className="view-head">
          <h3>CPU lanes</h3>
        </header>
        <p className="muted">No thread has started yet: a workload's `thread` line starts one.</p>
      </section>
    );
  const op = event ? event.op : (opEvents[0]?.op ?? null);
  const layout = laneLayout(fault, event, op, zoom);
  const theme = options.theme;
  const seen = new Set<number>();
  for (const r of layout.rows) for (const s of r.segments) seen.add(s.state);
  return (
    <section
      className={`view fault-lanes${options.reducedMotion ? ' still' : ''}`}
      aria-labelledby={hid}
      {...eventAttrs(event)}
    >
      <header className="view-head">
        <h3 id={hid}>CPU lanes</h3>
        <p className="muted small">
          Each CPU&apos;s thread over its own virtual clock, {formatNs(layout.fromNs)} to{' '}
          {formatNs(layout.toNs)}
          {zoom ? ' around this op' : `; each lane keeps its last ${fault.laneSegs} stretches`}
          {layout.rows.some((r) => r.truncated) ? ' (hatched: older ones, no longer kept)' : ''}.
          Striped boxes are waits; the outlined box holds the current event.
        </p>
        <button
          type="button"
          className="small"
          aria-pressed={zoom}
          disabled={!layout.opSpan && !zoom}
          onClick={() => setZoom((z) => !z)}
        >
          Zoom to this op
        </button>
      </header>
      <p className="lanes-now small">{currentWords(layout, event)}</p>
      <div
        className="lanes-scroll"
        tabIndex={0}
        role="group"
        aria-label="CPU lanes (scrolls sideways)"
      >
        <div className="lanes-plot">
          {layout.rows.map((r) => (
            <div
              key={r.cpu}
              className={`lane${layout.current?.cpu === r.cpu ? ' lit-lane' : ''}`}
              data-cpu={r.cpu}
            >
              <div className="lane-name">
                CPU {r.cpu}
                {r.mm !== null && <span className="muted small"> mm {r.mm}</span>}
              </div>
              <div className="lane-track" role="img" aria-label={laneSummary(r)}>
                {r.truncated && (
                  <span className="lane-gap" style={{ width: `${r.segments[0]?.left ?? 0}%` }} />
                )}
                {r.segments.map((s) => {
                  const key: LaneKey = LANE_STATES[s.state]?.key ?? 'NONE';
                  return (
                    <span
                      key={`${s.seqFrom}-${s.fromNs}`}
                      className={`seg${isWait(s.state) ? ' wait' : ''}${s.width >= 2 ? ' sep' : ''}${s.inOp ? ' in-op' : ''}${s.current ? ' current' : ''}`}
                      data-state={key}
                      data-highlighted={s.current || undefined}
                      style={{
                        left: `${s.left}%`,
                        width: `${s.width}%`,
                        background: laneBackground(key, theme),
                      }}
                      title={`CPU ${r.cpu}: ${laneLabel(s.state)}, ${formatNs(s.fromNs)} to ${formatNs(s.toNs)} (op ${s.op + 1})`}
                    />
                  );
                })}
              </div>
            </div>
          ))}
          <div className="lane lane-axis" aria-hidden="true">
            <div className="lane-name" />
            <div className="lane-track axis-track">
              {layout.ticks.map((t) => (
                <span
                  key={t.ns}
                  className={`tick small${t.left < 8 ? ' first' : t.left > 92 ? ' last' : ''}`}
                  style={{ left: `${t.left}%` }}
                >
                  {t.label}
                </span>
              ))}
            </div>
          </div>
        </div>
      </div>
      <ul className="lane-legend small" aria-label="What the boxes are">
        {LANE_STATES.map((l, id) =>
          seen.has(id) ? (
            <li key={l.key} title={l.doc}>
              <Swatch state={id} theme={theme} />
              {l.label}
            </li>
          ) : null,
        )}
      </ul>
      <div className="counter-scroll" tabIndex={0}>
        <table className="lane-totals">
          <caption>Per CPU, since the start</caption>
          <thead>
            <tr>
              <th scope="col">CPU</th>
              <th scope="col">faults</th>
              <th scope="col" title="virtual time inside fault handling, waits included">
                in faults
              </th>
              <th scope="col" title="waiting for mmap_lock, read or write">
                mmap_lock wait
              </th>
              <th scope="col" title="vma_start_write waiting for a fault holding the VMA">
                VMA wait
              </th>
              <th scope="col" title="in speculative or per-VMA attempts that fell back">
                retried
              </th>
              <th scope="col" title="pages allocated then freed unused after an abort">
                wasted
              </th>
            </tr>
          </thead>
          <tbody>
            {layout.rows.map((r) => {
              const c = r.cpuState;
              const lit = layout.current?.cpu === r.cpu;
              return (
                <tr key={r.cpu} className={lit ? 'lit' : undefined}>
                  <th scope="row">{r.cpu}</th>
                  <td>{formatCount(c.faults)}</td>
                  <td>{formatNs(c.faultNs)}</td>
                  <td>{formatNs(c.mmapWaitNs)}</td>
                  <td>{formatNs(c.vmaWaitNs)}</td>
                  <td>{formatNs(c.retryNs)}</td>
                  <td>{formatCount(c.wastedPages)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
