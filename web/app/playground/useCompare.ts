/*
 * useCompare.ts: compare mode: the same workload on a second kernel profile, in a session of its
 * own that follows the playground's cursor op by op (Session.follow), on the same machine (the
 * reader's own when one is loaded). Rebuilt when the profile or the main session's program
 * changes, not on each keystroke.
 */
import { DEFAULT_PROFILE } from '../../core/profiles';
import { useState } from 'react';
import { useAction } from '../../actions/context';
import { A } from '../../actions/definitions';
import type { ExplicitMachine, ProfileName } from '../../core/machine-config';
import type { Core } from '../../core/module';
import { compileText } from '../compile';
import { Session } from '../session';
import { useResource } from '../useResource';
import { setHeader } from '../workload-text';

export interface Compare {
  profile: ProfileName | null; // the second profile, null when not comparing
  setProfile: (p: ProfileName | null) => void;
  session: Session | null;
}

export function useCompare(
  core: Core,
  session: Session | null,
  text: string,
  profile: ProfileName, // the main session's
  initial: ProfileName | null,
  // the reader's own machine when one stands in for the text's `machine` line: the compared run
  // is the same machine (without it, a Your machine page's 1 TiB machine was compared with the
  // text's default machine)
  machine: ExplicitMachine | null = null,
): Compare {
  const [compareProfile, setProfile] = useState<ProfileName | null>(initial);
  const compare = useResource(
    () => {
      if (!compareProfile || !session) return null;
      const out = compileText(setHeader(text, 'profile', compareProfile), machine);
      if (!out.ok) return null;
      const s = new Session(core, out.program);
      s.follow(session.player);
      return s;
    },
    (s) => s.dispose(),
    [
      core,
      compareProfile,
      session,
      session?.player.length,
      session?.player.activeBranch,
      session?.config,
      machine,
    ],
  );
  useAction(A.compare, {
    run: () => setProfile((c) => (c ? null : profile === '5.13' ? DEFAULT_PROFILE : '5.13')),
  });
  return { profile: compareProfile, setProfile, session: compare };
}
