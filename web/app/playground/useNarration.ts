/*
 * useNarration.ts: say the current event in the live region as the cursor moves (or the op,
 * when it produced none), so a screen reader follows the timeline.
 */
import { useEffect } from 'react';
import { describeOp } from '../../views/describe-op';
import { narrate } from '../../views/narrate';
import { useAnnounce } from '../LiveRegion';
import type { Session } from '../session';
import { usePlayerVersion } from '../usePlayer';

export function useNarration(session: Session | null): void {
  const announce = useAnnounce();
  const version = usePlayerVersion(session?.player ?? null);
  useEffect(() => {
    if (!session) return;
    const p = session.player;
    const e = p.currentEvent;
    const nodes = session.state().nodes.length;
    if (e)
      announce(
        `Event ${p.position.event + 1} of ${p.currentOpEvents.length}: ${narrate(e, nodes).text}`,
      );
    else if (p.position.op > 0)
      announce(`Op ${p.position.op}: ${describeOp(p.ops.at(p.position.op - 1))}. No events.`);
    else announce('The machine as booted.');
  }, [session, version, announce]);
}
