/*
 * sliced-load.ts: hand a long program to a session a slice at a time, yielding to the event loop
 * between slices, so a two-million-op workload never freezes the tab: the timeline grows while
 * the reader watches, and a new edit cancels the rest. Each slice is an extension of the active
 * branch (Player.setOps grows it in place), so the result equals loading the program at once.
 */
import type { Session } from '../app/session';
import { firstDifference } from '../core/ops';
import { unpackProgram, type PackedProgram } from '../workload/compiler';

/** Programs up to this many ops load in one go (a few ms). */
export const SLICE_THRESHOLD = 20_000;
/** Aim for slices of about this long, so input and painting keep up. */
const SLICE_MS = 40;

export interface LoadToken {
  cancelled: boolean;
}

const nextTask = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * Load `packed` (the compile worker's bytes) into `session` (a branch, an extension or a new
 * machine, as Session.load decides), in slices when it is long. Every slice is a view of the same
 * bytes, so nothing is decoded or copied on the way. Resolves to 'done' or 'cancelled'.
 */
export async function loadSliced(
  session: Session,
  packed: PackedProgram,
  token: LoadToken,
  onProgress?: (done: number, total: number) => void,
): Promise<'done' | 'cancelled'> {
  const program = unpackProgram(packed);
  const total = program.ops.length;
  const load = (n: number) => session.load({ ...program, ops: program.ops.slice(0, n) });
  if (total <= SLICE_THRESHOLD) {
    load(total);
    return 'done';
  }
  // The first slice reaches past the first changed op, so the first load is the one fork (or
  // reset) and every later slice only extends it.
  const shared = firstDifference(session.player.ops, program.ops);
  let size = 4096;
  let done = Math.min(total, Math.max(shared + size, SLICE_THRESHOLD));
  load(done);
  onProgress?.(done, total);
  while (done < total) {
    await nextTask();
    if (token.cancelled) return 'cancelled';
    const t0 = performance.now();
    const next = Math.min(total, done + size);
    load(next);
    done = next;
    onProgress?.(done, total);
    const took = Math.max(1, performance.now() - t0);
    size = Math.max(1024, Math.min(1 << 20, Math.round((size * SLICE_MS) / took)));
  }
  return 'done';
}
