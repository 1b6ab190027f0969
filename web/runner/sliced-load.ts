/*
 * sliced-load.ts: hand a long program to a session a slice at a time, yielding to the event loop
 * between slices, so a two-million-op workload never freezes the tab: the timeline grows while
 * the reader watches, and a new edit cancels the rest. Each slice is an extension of the active
 * branch (Player.setOps grows it in place), so the result equals loading the program at once.
 */
import type { Program } from '../app/compile';
import type { Session } from '../app/session';
import { readOp, type SimOp } from '../core/ops';
import { firstDifference } from '../player/run';

/** Programs up to this many ops load in one go (a few ms). */
export const SLICE_THRESHOLD = 20_000;
/** Aim for slices of about this long, so input and painting keep up. */
const SLICE_MS = 40;

export interface LoadToken {
  cancelled: boolean;
}

export interface PackedProgram {
  config: Program['config'];
  ops: Uint8Array; // packed struct sim_op records
  lines: Uint32Array;
  opCount: number;
}

const nextTask = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * Load `program` into `session` (a branch, an extension or a new machine, as Session.load
 * decides), in slices when it is long. Resolves to 'done' or 'cancelled'.
 */
export async function loadSliced(
  session: Session,
  program: PackedProgram,
  token: LoadToken,
  onProgress?: (done: number, total: number) => void,
): Promise<'done' | 'cancelled'> {
  const total = program.opCount;
  const ops: SimOp[] = [];
  const decode = (upTo: number) => {
    for (let i = ops.length; i < upTo; i++) ops.push(readOp(program.ops, i));
  };
  const load = (n: number) =>
    session.load({ config: program.config, ops: ops.slice(0, n), lines: program.lines });
  if (total <= SLICE_THRESHOLD) {
    decode(total);
    load(total);
    return 'done';
  }
  // The first slice reaches past the first changed op, so the first load is the one fork (or
  // reset) and every later slice only extends it.
  decode(Math.min(total, 2 * SLICE_THRESHOLD));
  const shared = firstDifference(session.player.ops, ops);
  let size = 4096;
  let done = Math.min(total, Math.max(shared + size, SLICE_THRESHOLD));
  decode(done);
  load(done);
  onProgress?.(done, total);
  while (done < total) {
    await nextTask();
    if (token.cancelled) return 'cancelled';
    const t0 = performance.now();
    const next = Math.min(total, done + size);
    decode(next);
    load(next);
    done = next;
    onProgress?.(done, total);
    const took = Math.max(1, performance.now() - t0);
    size = Math.max(1024, Math.min(1 << 20, Math.round((size * SLICE_MS) / took)));
  }
  return 'done';
}
