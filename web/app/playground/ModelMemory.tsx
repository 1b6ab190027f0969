/*
 * ModelMemory.tsx: how much memory the model holds for the machine (and the compared one): the
 * arena in the wasm heap, the frames materialised on demand out of the pool's budget
 * (wasm-core/src/base/frames.h: a max-order block free whole costs only its head; touching it
 * costs a slab of 2^max_order frames), and the player's checkpoints (web/core/snapshot.ts: the
 * fixed state and the slabs in use). A kernel engineer reads it as a sizing note: what a 1 TiB
 * machine costs to simulate, and how close a workload runs to the frame budget, where the core
 * stops with SIM_ENOSPACE. Redrawn with each step; spoken only when the budget's use crosses a
 * quarter, a half or nine tenths, so stepping stays quiet.
 */
import { useEffect, useRef, useState } from 'react';
import { formatCount } from '../../core/count';
import type { MemoryUse } from '../../core/state';
import type { Session } from '../session';

/** Bytes in the largest binary unit that keeps a digit before the point ("158.3 MiB"). */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  let v = n;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]}`;
}

/** The shares of the frame budget that are said aloud when crossed (either way). */
const SPOKEN_SHARES = [0.25, 0.5, 0.9];

/** What one machine's column says. */
interface Column {
  name: string;
  memory: MemoryUse;
  blockFrames: number;
  checkpoints: { count: number; bytes: number };
}

function columnOf(name: string, session: Session): Column {
  const s = session.state();
  return {
    name,
    memory: s.memory,
    blockFrames: 2 ** s.maxOrder,
    checkpoints: session.player.checkpointStats,
  };
}

/** The share of the pool in use, 0..1. */
function used(c: Column): number {
  return c.memory.slabsUsed / Math.max(1, c.memory.nrSlabs);
}

function percent(x: number): string {
  return x > 0 && x < 0.001 ? '<0.1%' : `${(100 * x).toFixed(x < 0.1 ? 1 : 0)}%`;
}

export function ModelMemory({
  session,
  compare,
  profile,
  compareProfile,
}: {
  session: Session;
  compare: Session | null;
  profile: string;
  compareProfile: string | null;
}) {
  const columns = [columnOf(profile, session)];
  if (compare && compareProfile) columns.push(columnOf(compareProfile, compare));
  const [spoken, setSpoken] = useState('');
  // The last band of the budget said per machine: a crossing is said once, not at every step.
  const band = useRef<number[]>([]);
  const bands = columns.map((c) => SPOKEN_SHARES.filter((x) => used(c) >= x).length);
  const key = bands.join(' ');
  useEffect(() => {
    const before = band.current;
    band.current = key.split(' ').map(Number);
    if (!before.length) return; // the first figures are shown, not said
    const said = columns
      .map((c, i) =>
        (before[i] ?? 0) !== (band.current[i] ?? 0)
          ? `${columns.length > 1 ? `${c.name}: ` : ''}${percent(used(c))} of the frame budget materialised`
          : '',
      )
      .filter(Boolean);
    if (said.length) setSpoken(`Model memory: ${said.join('; ')}.`);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const two = columns.length > 1;
  return (
    <section className="model-memory" aria-labelledby="model-memory-h">
      <h2 id="model-memory-h">Model memory</h2>
      <table className="small" data-testid="model-memory">
        <caption className="visually-hidden">
          Memory the simulation holds{two ? ', per kernel profile' : ''}
        </caption>
        {two && (
          <thead>
            <tr>
              <td />
              {columns.map((c) => (
                <th key={c.name} scope="col">
                  {c.name}
                </th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          <tr data-row="arena">
            <th scope="row" title="The state, the frame pool, handles and the event buffer">
              Arena
            </th>
            {columns.map((c) => (
              <td key={c.name}>{formatBytes(c.memory.arenaBytes)}</td>
            ))}
          </tr>
          <tr data-row="frames">
            <th
              scope="row"
              title="Max-order blocks something split or allocated in: each takes a slab of 2^max_order frames from the pool; a block free whole costs only its head"
            >
              Frames materialised
            </th>
            {columns.map((c) => (
              <td key={c.name} data-used={c.memory.slabsUsed} data-pool={c.memory.nrSlabs}>
                {formatCount(c.memory.slabsUsed * c.blockFrames)} of{' '}
                {formatCount(c.memory.nrSlabs * c.blockFrames)} ({percent(used(c))}; peak{' '}
                {formatCount(c.memory.slabsPeak * c.blockFrames)})
              </td>
            ))}
          </tr>
          <tr data-row="checkpoints">
            <th
              scope="row"
              title="The player's snapshots for seeking: the fixed state and the slabs in use"
            >
              Checkpoints
            </th>
            {columns.map((c) => (
              <td key={c.name}>
                {c.checkpoints.count} ×{' '}
                {formatBytes(c.checkpoints.bytes / Math.max(1, c.checkpoints.count))} ={' '}
                {formatBytes(c.checkpoints.bytes)}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      <span className="visually-hidden" aria-live="polite">
        {spoken}
      </span>
    </section>
  );
}
