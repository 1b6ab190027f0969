/*
 * useTimelineActions.ts: the timeline's commands, registered while a session is on screen.
 * Transport buttons, the keyboard and lessons all dispatch these ids.
 */
import { useAction } from '../actions/context';
import { A } from '../actions/ids';
import { SPEEDS } from '../player/clock';
import type { Session } from './session';

export function useTimelineActions(session: Session | null): void {
  const p = session?.player;
  const clock = session?.clock;
  const has = () => !!session;
  const pause = () => clock?.pause();
  useAction({
    id: A.play,
    label: 'Play / pause',
    group: 'timeline',
    keys: ['Space'],
    enabled: has,
    run: () => clock?.toggle(),
  });
  useAction({
    id: A.stepOpForward,
    label: 'Forward one op',
    group: 'timeline',
    keys: ['ArrowRight'],
    enabled: has,
    run: () => {
      pause();
      p?.stepOp(1);
    },
  });
  useAction({
    id: A.stepOpBack,
    label: 'Back one op',
    group: 'timeline',
    keys: ['ArrowLeft'],
    enabled: has,
    run: () => {
      pause();
      p?.stepOp(-1);
    },
  });
  useAction({
    id: A.stepEventForward,
    label: 'Forward one event',
    group: 'timeline',
    keys: ['Shift+ArrowRight'],
    enabled: has,
    run: () => {
      pause();
      p?.stepEvent(1);
    },
  });
  useAction({
    id: A.stepEventBack,
    label: 'Back one event',
    group: 'timeline',
    keys: ['Shift+ArrowLeft'],
    enabled: has,
    run: () => {
      pause();
      p?.stepEvent(-1);
    },
  });
  useAction({
    id: A.home,
    label: 'To the start (machine as booted)',
    group: 'timeline',
    keys: ['Home'],
    enabled: has,
    run: () => {
      pause();
      p?.home();
    },
  });
  useAction({
    id: A.end,
    label: 'To the end',
    group: 'timeline',
    keys: ['End'],
    enabled: has,
    run: () => {
      pause();
      p?.end();
    },
  });
  useAction<number | undefined>({
    id: A.scrub,
    label: 'Scrub to an event',
    group: 'timeline',
    enabled: has,
    run: (g) => {
      if (g === undefined) return;
      pause();
      if (g < 0) p?.home();
      else p?.seekEvent(g);
    },
  });
  useAction({
    id: A.nextMarker,
    label: 'Next marked event (refill, drain, fallback, claim, failure, bad page)',
    group: 'timeline',
    keys: ['n'],
    enabled: has,
    run: () => {
      pause();
      p?.seekMarker(1);
    },
  });
  useAction({
    id: A.prevMarker,
    label: 'Previous marked event',
    group: 'timeline',
    keys: ['N'],
    enabled: has,
    run: () => {
      pause();
      p?.seekMarker(-1);
    },
  });
  const shift = (d: number) => {
    if (!clock) return;
    const i = SPEEDS.findIndex((s) => s >= clock.speed);
    const next =
      SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, (i < 0 ? SPEEDS.length - 1 : i) + d))];
    if (next !== undefined) clock.setSpeed(next);
  };
  useAction({
    id: A.faster,
    label: 'Play faster',
    group: 'timeline',
    keys: [']'],
    enabled: has,
    run: () => shift(1),
  });
  useAction({
    id: A.slower,
    label: 'Play slower',
    group: 'timeline',
    keys: ['['],
    enabled: has,
    run: () => shift(-1),
  });
  useAction({
    id: A.grain,
    label: 'Play by op / by event',
    group: 'timeline',
    keys: ['g'],
    enabled: has,
    run: () => clock?.setGrain(clock.grain === 'op' ? 'event' : 'op'),
  });
  useAction<number | undefined>({
    id: A.branch,
    label: 'Switch branch',
    group: 'timeline',
    enabled: () => (p?.branchList.length ?? 0) > 1,
    run: (id) => {
      if (id === undefined) return;
      pause();
      p?.switchBranch(id);
    },
  });
}
