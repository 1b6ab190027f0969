/*
 * NodeCounters.tsx: per node, the six lines of /sys/devices/system/node/nodeN/numastat as the
 * kernel prints them, and the node's free pages; below, the machine-wide zone_reclaim/node_reclaim
 * counters of /proc/vmstat. Each node is headed with its CPUs, so "local" and "other" read at a
 * glance. A step's change is said (visibly and through the live region) and its cells marked;
 * given a second state (compare mode), each figure shows both values and the signed difference,
 * as the Counters view does. Only multi-node machines show it in the playground (registry.tsx).
 */
import { useId, useState } from 'react';
import { formatCount } from '../../core/count';
import { Diff, RowsTable } from '../Counters';
import type { ModelState } from '../model';
import { eventAttrs, type ViewProps } from '../options';
import { cpusLabel, describeChange, NODE_ROWS, nodeFigures, RECLAIM_ROWS } from './node-counters';

export interface NodeCountersOptions {
  compare?: ModelState | null; // the other machine's state: show differences against it
}

export function NodeCounters({ state, event, options }: ViewProps<NodeCountersOptions>) {
  const hid = useId();
  const other = options.compare ?? undefined;
  const on = other?.profile ?? '';
  const figures = nodeFigures(state);
  const otherFigures = other ? nodeFigures(other) : null;
  // What the last step changed: this state's figures against the previous state's (React's
  // "information from previous renders": set during render, before the children draw).
  const [last, setLast] = useState({ state, figures, change: '', before: figures });
  if (last.state !== state) {
    setLast({
      state,
      figures,
      change: describeChange(last.figures, figures),
      before: last.figures,
    });
  }
  const change = last.state === state ? last.change : '';
  const before = last.state === state ? last.before : figures;
  return (
    <section className="view counters node-counters" {...eventAttrs(event)}>
      <header className="view-head">
        <h3 id={hid}>Node counters</h3>
        {other && (
          <p className="muted small">
            Each figure: {state.profile}'s value, then {on}'s, and in brackets {state.profile} minus{' '}
            {on}: + when {state.profile} counts more, − when it counts fewer.
          </p>
        )}
      </header>
      <p className="small node-change" data-testid="node-change" aria-live="polite">
        {change ? `This step: ${change}.` : 'This step changed no numastat line.'}
      </p>
      <div className="counter-tables node-tables">
        {state.nodes.map((n, nid) => {
          return (
            <div key={nid} className="counter-scroll" tabIndex={0} data-node={nid}>
              <table>
                <caption>{`node${nid}/numastat · ${cpusLabel(n)}`}</caption>
                <tbody>
                  {NODE_ROWS.map(([name, , help], i) => {
                    const v = figures[nid]?.[i] ?? 0;
                    const moved = name !== 'free pages' && v !== (before[nid]?.[i] ?? v);
                    return (
                      <tr
                        key={name}
                        title={help}
                        className={moved ? 'lit' : undefined}
                        data-counter={name}
                        data-changed={moved || undefined}
                      >
                        <th scope="row">{name}</th>
                        <td>
                          {formatCount(v)}
                          <Diff a={v} b={otherFigures?.[nid]?.[i]} other={on} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          );
        })}
        <RowsTable
          className="node-reclaim"
          caption="Node reclaim (/proc/vmstat, the whole machine)"
          rows={RECLAIM_ROWS}
          state={state}
          other={other}
          on={on}
        />
      </div>
    </section>
  );
}
