/*
 * sliced-load.ts: hand a long program to a session without freezing the tab. The compile worker
 * has already expanded it; here the first scan (every op applied once, to count its events and
 * place markers and checkpoints) runs on an engine of its own in slices of a dozen
 * milliseconds, yielding to the event loop between them, so input and painting keep up. The
 * session shows the result only once it is complete: a cancelled load leaves the previous run in
 * place, and the result equals loading the program at once.
 *
 * Why the main thread and not the worker: the scan's products (checkpoints of 20 to 60 MB arenas,
 * event counts, markers) are what the main thread seeks with afterwards, and slices meet the
 * responsiveness goal at the same total cost without a second copy of the core, a second
 * protocol and a transfer of every checkpoint.
 */
import type { Session } from '../app/session';
import { unpackProgram, type PackedProgram } from '../workload/compiler';

/** Programs up to this many ops load in one go (a few ms). */
export const SLICE_THRESHOLD = 20_000;
/**
 * Each slice works this long at most. Short, because a task stretches on a busy machine (on two
 * shared cores a 25 ms slice was measured at up to 220 ms of wall time) and a checkpoint's arena
 * copy comes on top; the yields between slices cost well under a millisecond each.
 */
export const SLICE_MS = 12;

export interface LoadToken {
  cancelled: boolean;
}

/** The next macrotask: a message, not a timer, so no 4 ms clamp between slices. */
function nextTask(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((r) => setTimeout(r, 0));
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

/**
 * Load `packed` (the compile worker's bytes) into `session` (a branch, an extension or a new
 * machine, as Session.load decides), in slices when it is long. Every slice reads views of the
 * same bytes, so nothing is decoded or copied on the way. Resolves to 'done' or 'cancelled';
 * `onProgress` hears the ops done after every slice.
 */
export async function loadSliced(
  session: Session,
  packed: PackedProgram,
  token: LoadToken,
  onProgress?: (done: number, total: number) => void,
): Promise<'done' | 'cancelled'> {
  const program = unpackProgram(packed);
  const total = program.ops.length;
  if (total <= SLICE_THRESHOLD) {
    session.load(program);
    return 'done';
  }
  // Booting the second engine and making the run's tables is a task of its own, apart from
  // whatever delivered the program and from the first slice.
  await nextTask();
  if (token.cancelled) return 'cancelled';
  const load = session.stage(program);
  try {
    await nextTask();
    for (;;) {
      if (token.cancelled) {
        load.cancel();
        return 'cancelled';
      }
      const complete = load.staging.advance(performance.now() + SLICE_MS);
      // The progress bar's render, and below the views' render of the loaded run, each get a
      // task of their own: preact/compat renders a state update in a microtask, in the same task
      // as whatever set it, so a slice and a render would add up to one long task.
      await nextTask();
      if (token.cancelled) continue;
      onProgress?.(load.staging.done, total);
      if (complete) break;
      await nextTask();
    }
    await nextTask();
    if (token.cancelled) {
      load.cancel();
      return 'cancelled';
    }
    load.commit();
  } catch (e) {
    load.cancel();
    throw e;
  }
  return 'done';
}
