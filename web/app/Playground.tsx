/*
 * Playground.tsx: run any workload on any machine and kernel profile, step through what the
 * allocator did, add ops by hand, and compare two profiles on the same workload. It opens on a
 * share link, a scenario, the saved draft or the default (workload-source.ts); edits are saved as
 * a draft as you type and run after a pause; long workloads compile in a worker and load in slices.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAction, useActions } from '../actions/context';
import { A } from '../actions/ids';
import type { ExplicitMachine, ProfileName } from '../core/machine-config';
import type { Core } from '../core/module';
import { DEFAULT_PROFILE } from '../core/profiles';
import { MyWorkloads } from '../saved/MyWorkloads';
import { WorkloadStore } from '../saved/store';
import { SCENARIOS } from '../scenarios/index';
import { Compiler } from '../runner/compile-client';
import { estimateOps } from '../runner/estimate';
import { loadSliced, SLICE_THRESHOLD, type LoadToken } from '../runner/sliced-load';
import type { ShareState } from '../share/state';
import { parseWorkload } from '../workload/parser';
import { FilesPanel } from './FilesPanel';
import { SharePanel } from './SharePanel';
import { resolveSource, type WorkloadSource } from './workload-source';
import { narrate } from '../views/narrate';
import { describeOp } from '../views/describe-op';
import type { WorkloadError } from '../workload/errors';
import { compileText } from './compile';
import { useAnnounce } from './LiveRegion';
import { OpButtons } from './OpButtons';
import { MACHINES, PROFILES } from './presets';
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

// The editor (CodeMirror) loads on its own; the plain textarea stands in until it arrives.
const CodeEditor = lazy(() => import('../editor/CodeEditor'));
// Compare mode shows both machines' memory maps (the same chunk SessionViews loads).
const MemoryMap = lazy(() => import('../views/MemoryMap').then((m) => ({ default: m.MemoryMap })));

/** Pause after the last keystroke before the draft is saved and the edit runs. */
const SAVE_MS = 400;
const RUN_MS = 800;

/** Resolve what to open (a link is decoded asynchronously), then show the playground. */
export default function Playground({ theme }: { theme: Theme }) {
  const core = useCore();
  // Each resolved source gets a number: a new one remounts the body with its initial state.
  const [source, setSource] = useState<{ s: WorkloadSource; n: number } | null>(null);
  const [store] = useState(() => WorkloadStore.ofWindow());
  // A link followed while the playground is open changes only the hash: open it too.
  const [opened, setOpened] = useState(0);
  useEffect(() => {
    const onHash = () => {
      if (window.location.hash.includes('?')) setOpened((n) => n + 1);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    if (core.state !== 'ready') return;
    let live = true;
    void resolveSource(window.location.hash, store, core.core.modelVersion()).then((s) => {
      if (!live) return;
      // The link has been read: a reload should show the reader's edits, not the link again.
      if (s.from === 'link' || s.from === 'scenario' || s.error)
        window.history.replaceState(null, '', '#/playground');
      setSource((prev) => ({ s, n: (prev?.n ?? 0) + 1 }));
    });
    return () => {
      live = false;
    };
  }, [core, store, opened]);
  if (core.state === 'failed') {
    return (
      <main id="main" className="playground">
        <h1>Playground</h1>
        <p role="alert" className="error">
          The simulation could not start: {core.error}
        </p>
      </main>
    );
  }
  if (core.state !== 'ready' || !source) {
    return (
      <main id="main" className="playground">
        <h1>Playground</h1>
        <p role="status">Starting the simulation…</p>
      </main>
    );
  }
  return (
    <PlaygroundBody key={source.n} theme={theme} source={source.s} store={store} core={core.core} />
  );
}
import type { Theme } from '../views/palette';
import { PcpLists } from '../views/PcpLists';
import { Counters } from '../views/Counters';
import { formatCount } from '../core/count';

/** Whether text may compile in place: it parses, and it expands to few ops (else: the worker). */
function small(text: string): boolean {
  if (text.length > 200_000) return false;
  const p = parseWorkload(text);
  return !p.ok || estimateOps(p.workload.ops, SLICE_THRESHOLD + 1) <= SLICE_THRESHOLD;
}

function PlaygroundBody({
  theme,
  source,
  store,
  core: loadedCore,
}: {
  theme: Theme;
  source: WorkloadSource;
  store: WorkloadStore;
  core: Core;
}) {
  const core = useCore();
  const reducedMotion = useReducedMotion();
  const announce = useAnnounce();
  const registry = useActions();
  const [text, setText] = useState(source.text);
  const [machineOverride, setMachineOverride] = useState<ExplicitMachine | null>(source.machine);
  const [error, setError] = useState<WorkloadError | null>(null);
  const [compareProfile, setCompareProfile] = useState<ProfileName | null>(source.compare);
  const [loading, setLoading] = useState<{ done: number; total: number } | null>(null);
  const [banner, setBanner] = useState<{ error: boolean; text: string } | null>(
    source.error
      ? { error: true, text: source.error }
      : source.notice
        ? { error: false, text: source.notice }
        : null,
  );
  const [runCompiler] = useState(() => new Compiler());
  const [lintCompiler] = useState(() => new Compiler());
  useEffect(
    () => () => {
      runCompiler.dispose();
      lintCompiler.dispose();
    },
    [runCompiler, lintCompiler],
  );
  const token = useRef<LoadToken>({ cancelled: false });

  // The session lives as long as the page; later runs branch or reset it in place. A long
  // workload starts on an empty tiny machine and arrives through run() in slices.
  const first = useRef({ text, machine: machineOverride, position: source.position });
  const session = useResource(
    () => {
      if (core.state !== 'ready') return null;
      const f = first.current;
      const out = small(f.text) ? compileText(f.text, f.machine) : null;
      const fallback = compileText('machine tiny\n');
      try {
        if (out?.ok) {
          const s = new Session(core.core, out.program);
          if (f.position) s.player.seek(f.position);
          return s;
        }
      } catch {
        // The core refused the machine (a hand-edited link): start on tiny; run() says why.
      }
      return fallback.ok ? new Session(core.core, fallback.program) : null;
    },
    (s) => s.dispose(),
    [core],
  );

  /** Compile text and run it on the session: a branch when the machine is unchanged. */
  const run = useCallback(
    (
      src: string,
      toEnd: boolean,
      machine: ExplicitMachine | null = machineOverride,
      at: ShareState['position'] | null = null,
    ) => {
      if (!session) return;
      token.current.cancelled = true;
      const mine: LoadToken = { cancelled: false };
      token.current = mine;
      const finish = () => {
        if (at) session.player.seek(at);
        else if (toEnd) session.player.end();
      };
      if (small(src)) {
        const out = compileText(src, machine);
        if (!out.ok) {
          setError(out.error);
          return;
        }
        setError(null);
        try {
          session.load(out.program);
        } catch (e) {
          setBanner({
            error: true,
            text: `The core refused this machine: ${e instanceof Error ? e.message : String(e)}`,
          });
          return;
        }
        finish();
        return;
      }
      setLoading({ done: 0, total: 0 });
      void runCompiler.compile(src, machine, true).then(async (r) => {
        if ('cancelled' in r || mine.cancelled) return;
        if (!r.ok || !r.ops || !r.lines) {
          setLoading(null);
          if (!r.ok) setError(r.error);
          return;
        }
        setError(null);
        const program = { config: r.config, ops: r.ops, lines: r.lines, opCount: r.opCount };
        try {
          const done = await loadSliced(session, program, mine, (d, total) =>
            setLoading({ done: d, total }),
          );
          if (done === 'done') finish();
        } catch (e) {
          setBanner({
            error: true,
            text: `The core refused this machine: ${e instanceof Error ? e.message : String(e)}`,
          });
        }
        if (!mine.cancelled) setLoading(null);
      });
    },
    [session, machineOverride, runCompiler],
  );

  // A long workload from a link, scenario or draft: run it once the session exists.
  const started = useRef(false);
  useEffect(() => {
    if (!session || started.current) return;
    started.current = true;
    const f = first.current;
    const out = small(f.text) ? compileText(f.text, f.machine) : null;
    if (!out?.ok || session.player.length !== out.program.ops.length)
      run(f.text, false, f.machine, f.position);
  }, [session, run]);

  // Saved as you type (after a short pause), restored after a reload or a crash.
  useEffect(() => {
    const t = setTimeout(
      () => store.saveDraft(text, machineOverride ? JSON.stringify(machineOverride) : null),
      SAVE_MS,
    );
    return () => clearTimeout(t);
  }, [text, machineOverride, store]);

  // The simulation follows the edit: a pause in typing runs the text when it compiles.
  const edited = useRef(false);
  useEffect(() => {
    if (!edited.current) return;
    const t = setTimeout(() => {
      edited.current = false;
      run(text, false);
    }, RUN_MS);
    return () => clearTimeout(t);
  }, [text, run]);
  const onEdit = useCallback((next: string) => {
    edited.current = true;
    setText(next);
  }, []);

  const check = useCallback(
    async (src: string) => {
      const r = await lintCompiler.compile(src, machineOverride, false);
      if ('cancelled' in r) return 'cancelled' as const;
      return r.ok ? null : r.error;
    },
    [lintCompiler, machineOverride],
  );

  /** Replace the whole text (an import, a saved workload, a scenario) and run it. */
  const replace = useCallback(
    (next: string, machine: ExplicitMachine | null = machineOverride) => {
      edited.current = false;
      setText(next);
      setMachineOverride(machine);
      run(next, false, machine);
    },
    [run, machineOverride],
  );

  const shareState = (): ShareState => ({
    text,
    machine: machineOverride,
    position: session ? { ...session.player.position } : { op: 0, event: -1 },
    views: { compare: compareProfile },
  });

  useAction({
    id: A.runWorkload,
    label: 'Run the workload',
    group: 'machine',
    keys: ['Ctrl+Enter', 'Meta+Enter'],
    run: () => run(text, false),
  });

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
    edited.current = false;
    setText(next);
    run(next, false);
  };

  const machine = headerValue(text, 'machine') ?? 'tiny';
  const profile = (headerValue(text, 'profile') ?? DEFAULT_PROFILE) as ProfileName;
  useAction({
    id: A.profile,
    label: 'Next kernel profile',
    group: 'machine',
    keys: ['p'],
    run: () => {
      const i = PROFILES.findIndex((x) => x.name === profile);
      setAndRun(
        setHeader(text, 'profile', PROFILES[(i + 1) % PROFILES.length]?.name ?? DEFAULT_PROFILE),
      );
    },
  });
  useAction({
    id: A.compare,
    label: 'Compare with another profile',
    group: 'view',
    keys: ['c'],
    run: () => setCompareProfile((c) => (c ? null : profile === '5.13' ? DEFAULT_PROFILE : '5.13')),
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
  // The comparison follows the cursor by op. Seeking here, not in an effect, so the state drawn
  // is the one at this render's op (an effect ran after the render and drew the previous op's).
  const compareState = useMemo(() => {
    if (!compare || !session) return null;
    compare.player.seekOp(session.player.position.op);
    return compare.state();
  }, [compare, session, version]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <main id="main" className="playground">
      <h1>Playground</h1>
      {banner && (
        <div
          className={banner.error ? 'banner banner-error' : 'banner'}
          role={banner.error ? 'alert' : 'status'}
        >
          <p>{banner.text}</p>
          <button type="button" onClick={() => setBanner(null)}>
            Dismiss
          </button>
        </div>
      )}
      {loading && (
        <p role="status" className="loading-run">
          Running the workload…{' '}
          {loading.total
            ? `${formatCount(loading.done)} of ${formatCount(loading.total)} ops`
            : 'compiling'}
        </p>
      )}
      {core.state === 'loading' && <p role="status">Starting the simulation…</p>}
      {core.state === 'failed' && (
        <p role="alert" className="error">
          The simulation could not start: {core.error}
        </p>
      )}
      <div className="pg-layout">
        <div className="setup">
          <div className="machine-setup">
            {machineOverride && (
              <p className="your-machine small">
                Machine: yours, from /proc/zoneinfo ({machineOverride.nodes} node
                {machineOverride.nodes > 1 ? 's' : ''},{' '}
                {machineOverride.nodes * machineOverride.cpusPerNode} CPUs).{' '}
                <button type="button" onClick={() => replace(text, null)}>
                  Use the text’s machine
                </button>
              </p>
            )}
            {!machineOverride && (
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
            )}
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
          <Suspense
            fallback={
              <WorkloadEditor
                text={text}
                onChange={onEdit}
                onRun={() => run(text, false)}
                error={error}
                currentLine={line}
              />
            }
          >
            <CodeEditor
              text={text}
              onChange={onEdit}
              onRun={() => run(text, false)}
              error={error}
              currentLine={line}
              check={check}
            />
          </Suspense>
          <details className="tools" open>
            <summary>Scenarios</summary>
            <label className="scenario-pick">
              Open a scenario{' '}
              <select
                value=""
                onChange={(e) => {
                  const s = SCENARIOS.find((x) => x.id === e.target.value);
                  if (!s) return;
                  replace(s.text, null);
                  setCompareProfile(s.compare ?? null);
                  setBanner({ error: false, text: `${s.title}: ${s.story}` });
                }}
              >
                <option value="">Choose…</option>
                {SCENARIOS.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.title}
                  </option>
                ))}
              </select>
            </label>
          </details>
          <details className="tools">
            <summary>Share</summary>
            <SharePanel
              getState={shareState}
              modelVersion={loadedCore.modelVersion()}
              opCount={session?.player.length ?? 0}
            />
          </details>
          <details className="tools">
            <summary>My workloads</summary>
            <MyWorkloads store={store} text={text} onOpen={(w) => replace(w.text, null)} />
          </details>
          <details className="tools">
            <summary>Files and kernel traces</summary>
            <FilesPanel
              core={loadedCore}
              text={text}
              machine={machineOverride}
              replace={(t) => replace(t)}
            />
          </details>
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
                      <Suspense fallback={null}>
                        <MemoryMap
                          state={state}
                          event={session.player.currentEvent}
                          opEvents={[]}
                          options={{ theme, reducedMotion }}
                        />
                      </Suspense>
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
                      <Suspense fallback={null}>
                        <MemoryMap
                          state={compareState}
                          event={null}
                          opEvents={[]}
                          options={{ theme, reducedMotion }}
                        />
                      </Suspense>
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
