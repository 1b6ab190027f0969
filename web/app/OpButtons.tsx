/*
 * OpButtons.tsx: add one op to the workload by pointing and clicking: allocate (order, GFP flags,
 * CPU), free, drain, tick, take a CPU offline or online. Each button dispatches a registered
 * action, which appends the statement to the workload text and runs it.
 */
import { useState } from 'react';
import { useAction, useActions } from '../actions/context';
import { A, type ActionId } from '../actions/definitions';

const GFP_CHOICES = [
  'GFP_KERNEL',
  'GFP_HIGHUSER_MOVABLE',
  'GFP_ATOMIC',
  'GFP_NOWAIT',
  'GFP_KERNEL|__GFP_RECLAIMABLE',
  'GFP_DMA32',
];

export function OpButtons({
  cpus,
  maxOrder,
  append,
}: {
  cpus: number;
  maxOrder: number;
  append: (stmt: string) => void;
}) {
  const registry = useActions();
  const [cpu, setCpu] = useState(0);
  const [order, setOrder] = useState(0);
  const [gfp, setGfp] = useState('GFP_KERNEL');
  const [group, setGroup] = useState('buf');
  const c = Math.min(cpu, cpus - 1);
  const name = /^[A-Za-z_][A-Za-z0-9_]*$/.test(group) ? group : 'buf';
  useAction(A.alloc, { run: () => append(`cpu ${c} alloc ${name} order=${order} ${gfp}`) });
  useAction(A.free, { run: () => append(`cpu ${c} free ${name}`) });
  useAction(A.drain, { run: () => append(`cpu ${c} drain`) });
  useAction(A.drainAll, { run: () => append('drain all') });
  useAction(A.tick, { run: () => append('tick 1') });
  useAction(A.cpuOffline, { run: () => append(`cpu ${c} offline`) });
  useAction(A.cpuOnline, { run: () => append(`cpu ${c} online`) });
  const btn = (id: ActionId, label: string) => (
    <button type="button" onClick={() => registry.dispatch(id, undefined, 'button')}>
      {label}
    </button>
  );
  return (
    <fieldset className="op-buttons">
      <legend>Add an op</legend>
      <div className="row">
        <label>
          CPU{' '}
          <select aria-label="CPU" value={c} onChange={(e) => setCpu(Number(e.target.value))}>
            {Array.from({ length: cpus }, (_, i) => (
              <option key={i} value={i}>
                {i}
              </option>
            ))}
          </select>
        </label>
        <label>
          Order{' '}
          <select
            aria-label="Order"
            value={order}
            onChange={(e) => setOrder(Number(e.target.value))}
          >
            {Array.from({ length: maxOrder + 1 }, (_, i) => (
              <option key={i} value={i}>
                {i} ({2 ** i} {i === 0 ? 'page' : 'pages'})
              </option>
            ))}
          </select>
        </label>
        <label>
          GFP{' '}
          <select aria-label="GFP" value={gfp} onChange={(e) => setGfp(e.target.value)}>
            {GFP_CHOICES.map((g) => (
              <option key={g}>{g}</option>
            ))}
          </select>
        </label>
        <label>
          Group{' '}
          <input
            aria-label="Group"
            value={group}
            onChange={(e) => setGroup(e.target.value)}
            size={8}
          />
        </label>
      </div>
      <div className="row">
        {btn(A.alloc, 'Alloc')}
        {btn(A.free, 'Free')}
        {btn(A.drain, 'Drain CPU')}
        {btn(A.drainAll, 'Drain all')}
        {btn(A.tick, 'Tick')}
        {btn(A.cpuOffline, 'CPU offline')}
        {btn(A.cpuOnline, 'CPU online')}
      </div>
    </fieldset>
  );
}
