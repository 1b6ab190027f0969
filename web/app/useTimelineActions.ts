/*
 * useTimelineActions.ts: the timeline's commands, registered while a session is on screen.
 * Transport buttons, the keyboard and lessons all dispatch these ids.
 */
import { useAction } from '../actions/context';
import { A } from '../actions/definitions';
import { SPEEDS } from '../player/clock';
import type { Session } from './session';

export function useTimelineActions(session: Session | null): void {
  const p = session?.player;
  const clock = session?.clock;
  const has = () => !!session;
  const pause = () => clock?.pause();
  useAction(A.play, {
    enabled: has,
    run: () => clock?.toggle(),
  });
  useAction(A.stepOpForward, {
    enabled: has,
    run: () => {
      pause();
      p?.stepOp(1);
    },
  });
  useAction(A.stepOpBack, {
    enabled: has,
    run: () => {
      pause();
      p?.stepOp(-1);
    },
  });
  useAction(A.stepEventForward, {
    enabled: has,
    run: () => {
      pause();
      p?.stepEvent(1);
    },
  });
  useAction(A.stepEventBack, {
    enabled: has,
    run: () => {
      pause();
      p?.stepEvent(-1);
    },
  });
  useAction(A.home, {
    enabled: has,
    run: () => {
      pause();
      p?.home();
    },
  });
  useAction(A.end, {
    enabled: has,
    run: () => {
      pause();
      p?.end();
    },
  });
  useAction<number | undefined>(A.scrub, {
    enabled: has,
    run: (g) => {
      if (g === undefined) return;
      pause();
      if (g < 0) p?.home();
      else p?.seekEvent(g);
    },
  });
  useAction(A.nextMarker, {
    enabled: has,
    run: () => {
      pause();
      p?.seekMarker(1);
    },
  });
  useAction(A.prevMarker, {
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
  useAction(A.faster, {
    enabled: has,
    run: () => shift(1),
  });
  useAction(A.slower, {
    enabled: has,
    run: () => shift(-1),
  });
  useAction(A.grain, {
    enabled: has,
    run: () => clock?.setGrain(clock.grain === 'op' ? 'event' : 'op'),
  });
  useAction<number | undefined>(A.branch, {
    enabled: () => (p?.branchList.length ?? 0) > 1,
    run: (id) => {
      if (id === undefined) return;
      pause();
      p?.switchBranch(id);
    },
  });
}
