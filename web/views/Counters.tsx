/*
 * Counters.tsx: the numbers /proc/vmstat and lock statistics would show: machine-wide event
 * counters, the zone lock's acquisitions (contended, handed over between CPUs), hold and wait time
 * per zone, and per-CPU pcp figures; once a workload uses an address space, the page-fault figures
 * (fault/fault-counters.ts).
 * Given a second state (compare mode), each figure shows both values and the difference, this
 * column's profile minus the other's, said in words for screen readers ("8 fewer than 6.6"), so
 * two profiles running the same workload can be read side by side.
 */
import { memo, useId } from 'react';
import { allZones, type ModelState, type ZoneState } from './model';
import { eventAttrs, type ViewProps } from './options';
import { formatCount } from '../core/count';
import { useMasked, V } from './Masked';
import { valuePath } from './value-paths';
import { FAULT_ROWS, faultUsed } from './fault/fault-counters';

/** The other profile's value and this one's difference from it: "· 6.6: 10 (−8)" (the node counters use it too). */
export function Diff({
  a,
  b,
  other,
  hidden = false,
}: {
  a: number;
  b: number | undefined;
  other: string;
  hidden?: boolean;
}) {
  if (b === undefined) return null;
  if (hidden) return <span className="diff same"> · {other}: ?</span>;
  const d = a - b;
  const said =
    d === 0
      ? `the same as ${other}`
      : `${formatCount(Math.abs(d))} ${d > 0 ? 'more' : 'fewer'} than ${other}`;
  return (
    <span className={`diff ${d > 0 ? 'up' : d < 0 ? 'down' : 'same'}`} title={said}>
      <span aria-hidden="true">
        {' '}
        · {other}: {formatCount(b)}{' '}
        {d === 0 ? '(=)' : `(${d > 0 ? '+' : '−'}${formatCount(Math.abs(d))})`}
      </span>
      <span className="visually-hidden">, {said}</span>
    </span>
  );
}

export type Row = [label: string, value: (s: ModelState) => number, help: string];

/**
 * One figure's row: memoised on its numbers, since a step changes a few counters of a table and
 * the others keep what they drew.
 */
const FigureRow = memo(function FigureRow({
  label,
  help,
  a,
  b,
  on,
}: {
  label: string;
  help: string;
  a: number;
  b: number | undefined;
  on: string;
}) {
  return (
    <tr title={help} data-counter={label}>
      <th scope="row">{label}</th>
      <td>
        {formatCount(a)}
        <Diff a={a} b={b} other={on} />
      </td>
    </tr>
  );
});

/** A caption and its rows, each with this profile's value and the other's difference. */
export function RowsTable({
  caption,
  rows,
  state,
  other,
  on,
  className,
}: {
  caption: string;
  rows: readonly Row[];
  state: ModelState;
  other: ModelState | undefined;
  on: string;
  className?: string;
}) {
  return (
    <div className={className ? `counter-scroll ${className}` : 'counter-scroll'} tabIndex={0}>
      <table>
        <caption>{caption}</caption>
        <tbody>
          {rows.map(([label, get, help]) => (
            <FigureRow
              key={label}
              label={label}
              help={help}
              a={get(state)}
              b={other ? get(other) : undefined}
              on={on}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface CpuFigures {
  pcpHits: number;
  pcpRefills: number;
  pcpFrees: number;
  pcpDrains: number;
  lockWaitNs: number;
}

/** The per-CPU table's columns, in order. */
const CPU_FIELDS = ['pcpHits', 'pcpRefills', 'pcpFrees', 'pcpDrains', 'lockWaitNs'] as const;

/** One CPU's row of the per-CPU table: memoised, as a step moves one CPU's figures at most. */
const CpuRow = memo(
  function CpuRow({
    id,
    online,
    lit,
    c,
    o,
    on,
  }: {
    id: number;
    online: boolean;
    lit: boolean;
    c: CpuFigures;
    o: CpuFigures | undefined;
    on: string;
  }) {
    return (
      <tr className={lit ? 'lit' : undefined} data-highlighted={lit || undefined}>
        <th scope="row">
          {id}
          {online ? '' : ' (offline)'}
        </th>
        {CPU_FIELDS.map((f) => (
          <td key={f}>
            {formatCount(c[f])}
            <Diff a={c[f]} b={o?.[f]} other={on} />
          </td>
        ))}
      </tr>
    );
  },
  (a, b) =>
    a.id === b.id &&
    a.online === b.online &&
    a.lit === b.lit &&
    a.on === b.on &&
    CPU_FIELDS.every((f) => a.c[f] === b.c[f] && a.o?.[f] === b.o?.[f]),
);

const VM_ROWS: Row[] = [
  ['pgalloc', (s) => s.vm.pgalloc.reduce((x, y) => x + y, 0), 'pages allocated'],
  ['pgfree', (s) => s.vm.pgfree, 'pages freed'],
  ['pcp hits', (s) => s.vm.pcpHit, 'allocations served from a per-CPU list'],
  ['pcp refills', (s) => s.vm.pcpRefill, 'per-CPU lists refilled from the buddy'],
  ['pcp drained pages', (s) => s.vm.pcpDrainPages, 'pages drained back to the buddy'],
  ['pcp bulk frees', (s) => s.vm.pcpBulkFrees, 'free_pcppages_bulk calls'],
  ['extfrag', (s) => s.vm.extfrag, 'fallbacks to another migratetype'],
  ['pageblocks claimed', (s) => s.vm.pageblockClaimed, 'pageblocks that changed migratetype'],
  ['kswapd wakeups', (s) => s.vm.kswapdWakeups, 'wakeup_kswapd calls'],
  ['allocation failures', (s) => s.vm.allocFail, 'requests nothing could satisfy'],
  ['bad pages', (s) => s.vm.badPage, 'bad_page reports'],
];

type ZoneColumn = [label: string, value: (z: ZoneState) => number, help: string, field: string];

/** zone->lock's figures (struct spinlock's lock_stats) and the pages moved under it. */
const LOCK_COLUMNS: ZoneColumn[] = [
  ['taken', (z) => z.lock.acquisitions, 'times zone->lock was taken', 'lock.acquisitions'],
  [
    'contended',
    (z) => z.lock.contended,
    'acquisitions that had to wait for another CPU',
    'lock.contended',
  ],
  [
    'hand-overs',
    (z) => z.lock.handovers,
    "acquisitions that pulled the lock's cache line from another CPU",
    'lock.handovers',
  ],
  ['wait ns', (z) => z.lock.waitNs, 'virtual time CPUs spent waiting for it', 'lock.wait_ns'],
  ['hold ns', (z) => z.lock.holdNs, 'virtual time it was held', 'lock.hold_ns'],
  [
    'pages moved',
    (z) => z.lockPagesMoved,
    'pages moved between per-CPU and buddy lists under it',
    'lock_pages_moved',
  ],
];

export interface CountersOptions {
  compare?: ModelState | null; // the other profile's state: show differences against it
}

export function Counters({ state, event, options }: ViewProps<CountersOptions>) {
  const hid = useId();
  const masked = useMasked();
  const other = options.compare ?? undefined;
  const on = other?.profile ?? '';
  const zones = allZones(state).filter((z) => z.managed > 0);
  const otherZone = (node: number, idx: number) =>
    other?.nodes[node]?.zones.find((z) => z.idx === idx);
  return (
    <section className="view counters" {...eventAttrs(event)}>
      <header className="view-head">
        <h3 id={hid}>Counters</h3>
        {other && (
          <p className="muted small">
            Each figure: {state.profile}'s value, then {on}'s, and in brackets {state.profile} minus{' '}
            {on}: + when {state.profile} counts more, − when it counts fewer.
          </p>
        )}
      </header>
      <div className="counter-tables">
        <RowsTable caption="Machine (vmstat)" rows={VM_ROWS} state={state} other={other} on={on} />
        {(faultUsed(state) || faultUsed(other)) && (
          <RowsTable caption="Page faults" rows={FAULT_ROWS} state={state} other={other} on={on} />
        )}
        <div className="counter-scroll" tabIndex={0}>
          <table>
            <caption>Zone lock</caption>
            <thead>
              <tr>
                <th scope="col">zone</th>
                {LOCK_COLUMNS.map(([label, , help]) => (
                  <th key={label} scope="col" title={help}>
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {zones.map((z) => {
                const o = otherZone(z.node, z.idx);
                return (
                  <tr key={`${z.node}-${z.idx}`} data-node={z.node} data-zone={z.idx}>
                    <th scope="row">{state.nodes.length > 1 ? `N${z.node} ${z.name}` : z.name}</th>
                    {LOCK_COLUMNS.map(([label, get, , field]) => (
                      <td key={label}>
                        <V path={valuePath.zone(z.name, field)} value={formatCount(get(z))} />
                        <Diff
                          a={get(z)}
                          b={o ? get(o) : undefined}
                          other={on}
                          hidden={masked(valuePath.zone(z.name, field))}
                        />
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <div className="counter-scroll" tabIndex={0}>
          <table>
            <caption>Per CPU</caption>
            <thead>
              <tr>
                <th scope="col">CPU</th>
                <th scope="col">pcp hits</th>
                <th scope="col">refills</th>
                <th scope="col">frees</th>
                <th scope="col">drains</th>
                <th scope="col">lock wait ns</th>
              </tr>
            </thead>
            <tbody>
              {state.cpus.map((c) => (
                <CpuRow
                  key={c.id}
                  id={c.id}
                  online={c.online}
                  lit={event?.cpu === c.id}
                  c={c}
                  o={other?.cpus[c.id]}
                  on={on}
                />
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
