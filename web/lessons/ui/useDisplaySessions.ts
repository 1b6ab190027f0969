/*
 * useDisplaySessions.ts: the machines the lesson's views draw: the app's Session (a Sim, a
 * player over its ops, a clock) for the first profile and, with `compare`, one for the second.
 * Rebuilt when the spec's key changes; the lesson's ops are few, so replaying them is instant.
 * The cursor lands after the last op, so the views show what the block did; the timeline can step
 * back through how it got there, and the second machine follows it.
 */
import type { CoreStatus } from '../../app/useCore';
import { Session } from '../../app/session';
import { useResource } from '../../app/useResource';
import { displayProgram, type DisplaySpec } from './display';

export interface DisplaySessions {
  a: Session;
  b: Session | null;
}

export function useDisplaySessions(
  core: CoreStatus,
  spec: DisplaySpec | null,
): DisplaySessions | null {
  return useResource<DisplaySessions>(
    () => {
      if (core.state !== 'ready' || !spec) return null;
      const a = new Session(core.core, displayProgram(spec, 'a'));
      const b = spec.session.compare ? new Session(core.core, displayProgram(spec, 'b')) : null;
      a.player.end();
      b?.follow(a.player); // the second machine follows the first op by op
      return { a, b };
    },
    (s) => {
      s.a.dispose();
      s.b?.dispose();
    },
    [core, spec?.key],
  );
}
