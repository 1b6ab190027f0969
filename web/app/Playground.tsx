/*
 * Playground.tsx: run any workload on any machine and kernel profile, step through what the
 * allocator did, add ops by hand, and compare two profiles on the same workload.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAction, useActions } from '../actions/context';
import { A } from '../actions/ids';
import type { ProfileName } from '../core/machine-config';
import { narrate } from '../views/narrate';
import { describeOp } from '../views/describe-op';
import type { WorkloadError } from '../workload/errors';
import { compileText } from './compile';
import { useAnnounce } from './LiveRegion';
import { OpButtons } from './OpButtons';
import { DEFAULT_WORKLOAD, MACHINES, PROFILES } from './presets';
import { Session } from './session';
import { SessionViews } from './SessionViews';
import { exposeTestApi } from './test-api';
import { useReducedMotion } from './theme';
import { Transport } from './Transport';
import { useCore } from './useCore';
import { useResource } from './useResource';
import { usePlayerVersion } from './usePlayer';
import { useTimelineActions } from './useTimelineActions';
import { appendStatement, headerValue, setHeader, setSysctl, sysctlValue } from './workload-text';
import { WorkloadEditor } from './WorkloadEditor';
import type { Theme } from '../views/palette';
import { PcpLists } from '../views/PcpLists';
import { Counters } from '../views/Counters';

export default function Playground({ theme }: { theme: Theme }) {
  const core = useCore();
  const reducedMotion = useReducedMotion();
  const announce = useAnnounce();
  const registry = useActions();
  const [text, setText] = useState(DEFAULT_WORKLOAD);
  const [error, setError] = useState<WorkloadError | null>(null);
  const [compareProfile, setCompareProfile] = useState<ProfileName | null>(null);

  // The session lives as long as the page; later runs branch or reset it in place.
  const firstText = useRef(text);
  const session = useResource(
    () => {
      if (core.state !== 'ready') return null;
      const out = compileText(firstText.current);
      return out.ok ? new Session(core.core, out.program) : null;
    },
    (s) => s.dispose(),
    [core],
  );

  /** Compile text and run it on the session: a branch when the machine is unchanged. */
  const run = useCallback(
    (src: string, toEnd: boolean) => {
      if (!session) return;
      const out = compileText(src);
      if (!out.ok) {
        setError(out.error);
        return;
      }
      setError(null);
      session.load(out.program);
      if (toEnd) session.player.end();
    },
    [session],
  );

  // The comparison session: the same text with the other profile, following the cursor by op.
  // Rebuilt when the profile or the program of the main session changes, not on each keystroke.
  const compare = useResource(
    () => {
      if (core.state !== 'ready' || !compareProfile || !session) return null;
      const out = compileText(setHeader(text, 'profile', compareProfile));
      return out.ok ? new Session(core.core, out.program) : null;
    },
    (s) => s.dispose(),
    [
      core,
      compareProfile,
      session,
      session?.player.length,
      session?.player.activeBranch,
      session?.config,
    ],
  );

  const version = usePlayerVersion(session?.player ?? null);
  useEffect(() => {
    if (compare && session) compare.player.seekOp(session.player.position.op);
  }, [compare, session, version]);

  useEffect(() => {
    exposeTestApi(session, compare);
    return () => exposeTestApi(null, null);
  }, [session, compare]);

  // Narrate the current event (or the op, when it produced none).
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
      announce(`Op ${p.position.op}: ${describeOp(p.ops[p.position.op - 1])}. No events.`);
    else announce('The machine as booted.');
  }, [session, version, announce]);

  useTimelineActions(session);

  const append = useCallback(
    (stmt: string) => {
      const next = appendStatement(text, stmt);
      setText(next);
      run(next, true);
    },
    [text, run],
  );

  const setAndRun = (next: string) => {
    setText(next);
    run(next, false);
  };

  const machine = headerValue(text, 'machine') ?? 'tiny';
  const profile = (headerValue(text, 'profile') ?? '6.18') as ProfileName;
  useAction({
    id: A.profile,
    label: 'Next kernel profile',
    group: 'machine',
    keys: ['p'],
    run: () => {
      const i = PROFILES.findIndex((x) => x.name === profile);
      setAndRun(setHeader(text, 'profile', PROFILES[(i + 1) % PROFILES.length]?.name ?? '6.18'));
    },
  });
  useAction({
    id: A.compare,
    label: 'Compare with another profile',
    group: 'view',
    keys: ['c'],
    run: () => setCompareProfile((c) => (c ? null : profile === '5.13' ? '6.18' : '5.13')),
  });

  const state = session?.state();
  const cpus = state?.nrCpus ?? 2;
  const maxOrder = state?.maxOrder ?? 6;
  const line =
    session && session.player.position.op > 0
      ? (session.lines[session.player.position.op - 1] ?? 0)
      : 0;
  const wsf = sysctlValue(text, 'watermark_scale_factor') ?? '10';
  const mfk = sysctlValue(text, 'min_free_kbytes') ?? '';
  const compareState = useMemo(() => (compare ? compare.state() : null), [compare, version]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <main id="main" className="playground">
      <h1>Playground</h1>
      {core.state === 'loading' && <p role="status">Starting the simulation…</p>}
      {core.state === 'failed' && (
        <p role="alert" className="error">
          The simulation could not start: {core.error}
        </p>
      )}
      <div className="pg-layout">
        <div className="setup">
          <div className="machine-setup">
            <label>
              Machine{' '}
              <select
                aria-label="Machine"
                value={machine}
                onChange={(e) => setAndRun(setHeader(text, 'machine', e.target.value))}
              >
                {MACHINES.map((m) => (
                  <option key={m.name} value={m.name}>
                    {m.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Kernel{' '}
              <select
                aria-label="Kernel"
                value={profile}
                onChange={(e) => setAndRun(setHeader(text, 'profile', e.target.value))}
              >
                {PROFILES.map((p) => (
                  <option key={p.name} value={p.name}>
                    {p.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              watermark_scale_factor{' '}
              <input
                type="number"
                min={1}
                max={3000}
                defaultValue={wsf}
                key={`wsf-${wsf}`}
                onBlur={(e) =>
                  e.target.value !== wsf &&
                  setAndRun(setSysctl(text, 'watermark_scale_factor', e.target.value))
                }
              />
            </label>
            <label>
              min_free_kbytes{' '}
              <input
                type="number"
                min={0}
                placeholder="kernel default"
                defaultValue={mfk}
                key={`mfk-${mfk}`}
                onBlur={(e) =>
                  e.target.value !== mfk &&
                  e.target.value !== '' &&
                  setAndRun(setSysctl(text, 'min_free_kbytes', e.target.value))
                }
              />
            </label>
            <div className="compare-toggle">
              <label>
                <input
                  type="checkbox"
                  checked={!!compareProfile}
                  onChange={() => registry.dispatch(A.compare, undefined, 'button')}
                />{' '}
                Compare with
              </label>
              {compareProfile && (
                <select
                  aria-label="Profile to compare with"
                  value={compareProfile}
                  onChange={(e) => setCompareProfile(e.target.value as ProfileName)}
                >
                  {PROFILES.map((p) => (
                    <option key={p.name} value={p.name}>
                      {p.label}
                    </option>
                  ))}
                </select>
              )}
            </div>
          </div>
          <WorkloadEditor
            text={text}
            onChange={setText}
            onRun={() => run(text, false)}
            error={error}
            currentLine={line}
          />
          <OpButtons cpus={cpus} maxOrder={maxOrder} append={append} />
        </div>
        <div className="pg-main">
          {session && (
            <>
              <Transport session={session} />
              {compare && compareState && state && (
                <section
                  className="compare"
                  aria-labelledby="cmp-h"
                  data-compare-profile={compareProfile ?? ''}
                >
                  <h2 id="cmp-h">
                    {profile} against {compareProfile}, at op {session.player.position.op}
                  </h2>
                  <div className="compare-cols">
                    <div>
                      <h3 className="compare-title">{profile}</h3>
                      <PcpLists
                        state={state}
                        event={null}
                        opEvents={[]}
                        options={{ theme, reducedMotion }}
                      />
                      <Counters
                        state={state}
                        event={null}
                        opEvents={[]}
                        options={{ theme, reducedMotion, compare: compareState }}
                      />
                    </div>
                    <div>
                      <h3 className="compare-title">{compareProfile}</h3>
                      <PcpLists
                        state={compareState}
                        event={null}
                        opEvents={[]}
                        options={{ theme, reducedMotion }}
                      />
                      <Counters
                        state={compareState}
                        event={null}
                        opEvents={[]}
                        options={{ theme, reducedMotion, compare: state }}
                      />
                    </div>
                  </div>
                </section>
              )}
              <SessionViews session={session} theme={theme} reducedMotion={reducedMotion} />
            </>
          )}
        </div>
      </div>
    </main>
  );
}
