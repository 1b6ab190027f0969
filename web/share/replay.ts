/*
 * replay.ts: a decoded link's simulation, headless: its text compiled (with its machine), a Sim,
 * a Player at its position. The golden-link test and the embed page's checks use it; the app runs
 * the same steps through a Session.
 */
import { compileText } from '../app/compile';
import type { Core } from '../core/module';
import type { Sim } from '../core/sim';
import { Player } from '../player/player';
import type { WorkloadError } from '../workload/errors';
import type { ShareState } from './state';

export type Replayed = { ok: true; sim: Sim; player: Player } | { ok: false; error: WorkloadError };

export function replayState(core: Core, state: ShareState): Replayed {
  const out = compileText(state.text, state.machine);
  if (!out.ok) return out;
  const sim = core.createSim(out.program.config);
  const player = new Player(sim, out.program.ops);
  player.seek(state.position);
  return { ok: true, sim, player };
}
