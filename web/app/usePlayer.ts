/*
 * usePlayer.ts: re-render on every move of a player and every change of its clock.
 */
import { useSyncExternalStore } from 'react';
import type { Clock } from '../player/clock';
import type { Player } from '../player/player';

export function usePlayerVersion(player: Player | null): number {
  return useSyncExternalStore(
    (fn) => (player ? player.subscribe(fn) : () => {}),
    () => player?.version ?? -1,
  );
}

export function useClock(clock: Clock | null): { playing: boolean; speed: number; grain: string } {
  const key = useSyncExternalStore(
    (fn) => (clock ? clock.subscribe(fn) : () => {}),
    () => (clock ? `${clock.playing ? 1 : 0}|${clock.speed}|${clock.grain}` : '0|1|op'),
  );
  const [p, s, g] = key.split('|');
  return { playing: p === '1', speed: Number(s), grain: g ?? 'op' };
}
