/*
 * test-api.ts: window.__buddyscope, so end-to-end tests assert on the model, not on pixels. Only
 * in dev servers and in builds made with VITE_TEST_API=1: the condition is static, so Vite drops
 * this code from the production bundle.
 */
import type { SimEvent } from '../player/engine';
import type { Player } from '../player/player';
import type { ModelState } from '../views/model';
import type { Session } from './session';

export interface TestApi {
  state(): ModelState;
  currentEvent(): SimEvent | null;
  events(): readonly SimEvent[];
  player: Player;
  compare: Player | null;
  /** npm run bench's measurements (web/bench/hooks.ts), fetched on first use as their own chunk. */
  bench(): Promise<typeof import('../bench/hooks')>;
}

declare global {
  interface Window {
    __buddyscope?: TestApi;
  }
}

export const TEST_API_ENABLED: boolean =
  import.meta.env.DEV || import.meta.env.VITE_TEST_API === '1';

export function exposeTestApi(session: Session | null, compare: Session | null): void {
  if (!TEST_API_ENABLED) return;
  if (!session) {
    delete window.__buddyscope;
    return;
  }
  window.__buddyscope = {
    state: () => session.state(),
    currentEvent: () => session.player.currentEvent,
    events: () => session.player.currentOpEvents,
    player: session.player,
    compare: compare?.player ?? null,
    bench: () => import('../bench/hooks'),
  };
}
