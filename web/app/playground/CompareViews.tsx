/*
 * CompareViews.tsx: compare mode's two columns: the views the registry marks for comparison
 * (web/views/registry.tsx), for the playground's machine and for the one that follows it on the
 * other profile, each measured against the other. A view with a `shows` rule (a subsystem's) joins
 * when either machine uses its subsystem.
 */
import { usePlayerVersion } from '../usePlayer';
import type { Theme } from '../../views/palette';
import { COMPARE_VIEWS, RegisteredView, VIEWS } from '../../views/registry';
import type { Session } from '../session';

export function CompareViews({
  session,
  compare,
  profile,
  compareProfile,
  theme,
  reducedMotion,
}: {
  session: Session;
  compare: Session;
  profile: string;
  compareProfile: string;
  theme: Theme;
  reducedMotion: boolean;
}) {
  usePlayerVersion(session.player);
  usePlayerVersion(compare.player);
  const common = { opEvents: [], theme, reducedMotion };
  const names = COMPARE_VIEWS.filter((n) => {
    const shows = VIEWS[n].shows;
    return !shows || shows(session.state()) || shows(compare.state());
  });
  return (
    <section className="compare" aria-labelledby="cmp-h" data-compare-profile={compareProfile}>
      <h2 id="cmp-h">
        {profile} against {compareProfile}, at op {session.player.position.op}
      </h2>
      <div className="compare-cols">
        <div>
          <h3 className="compare-title">{profile}</h3>
          {names.map((n) => (
            <RegisteredView
              key={n}
              name={n}
              machine={session}
              // Only the leader stops inside an op: the follower is at the op's end.
              event={VIEWS[n].compare === 'highlight' ? session.player.currentEvent : null}
              other={compare.state()}
              {...common}
            />
          ))}
        </div>
        <div>
          <h3 className="compare-title">{compareProfile}</h3>
          {names.map((n) => (
            <RegisteredView
              key={n}
              name={n}
              machine={compare}
              event={null}
              other={session.state()}
              {...common}
            />
          ))}
        </div>
      </div>
    </section>
  );
}
