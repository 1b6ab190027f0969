/*
 * PlaygroundBody.tsx: the playground once its workload is known: the machine form, the editor,
 * the tools and op buttons on one side; the timeline, compare mode and the views on the other.
 * The jobs live beside it: the session and its runs (usePlaygroundSession), the edited text
 * (useWorkloadDraft), compare mode (useCompare, CompareViews), the form (MachineForm).
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useAction } from '../../actions/context';
import { A } from '../../actions/definitions';
import type { ExplicitMachine } from '../../core/machine-config';
import type { Core } from '../../core/module';
import { DraftStatus } from '../../saved/DraftStatus';
import type { WorkloadStore } from '../../saved/store';
import type { ShareState } from '../../share/state';
import type { Theme } from '../../views/palette';
import { OpButtons } from '../OpButtons';
import { SessionViews } from '../SessionViews';
import { useReducedMotion } from '../theme';
import { Transport } from '../Transport';
import { usePlayerVersion } from '../usePlayer';
import { exposeTestApi } from '../test-api';
import { useTimelineActions } from '../useTimelineActions';
import type { WorkloadSource } from '../workload-source';
import { WorkloadEditor } from '../WorkloadEditor';
import { CompareViews } from './CompareViews';
import { LoadProgress } from './LoadProgress';
import { MachineForm, profileOf } from './MachineForm';
import { ModelMemory } from './ModelMemory';
import { Tools } from './Tools';
import { useCompare } from './useCompare';
import { useNarration } from './useNarration';
import { usePlaygroundSession } from './usePlaygroundSession';
import { useWorkloadDraft } from './useWorkloadDraft';

// The editor (CodeMirror) loads on its own; the plain textarea stands in until it arrives.
const CodeEditor = lazy(() => import('../../editor/CodeEditor'));

interface Banner {
  error: boolean;
  text: string;
}

export function PlaygroundBody({
  theme,
  source,
  store,
  core,
}: {
  theme: Theme;
  source: WorkloadSource;
  store: WorkloadStore;
  core: Core;
}) {
  const reducedMotion = useReducedMotion();
  const [machineOverride, setMachineOverride] = useState<ExplicitMachine | null>(source.machine);
  const [banner, setBanner] = useState<Banner | null>(
    source.error
      ? { error: true, text: source.error }
      : source.notice
        ? { error: false, text: source.notice }
        : null,
  );
  const {
    session,
    run,
    cancel: cancelRun,
    error,
    loading,
  } = usePlaygroundSession(core, source, machineOverride, (text) =>
    setBanner({ error: true, text }),
  );
  const draft = useWorkloadDraft({
    initial: source.text,
    saveInitial: source.from !== 'draft',
    held: source.held,
    store,
    machine: machineOverride,
    setMachine: setMachineOverride,
    run,
  });
  const { text } = draft;
  const profile = profileOf(text);
  const compare = useCompare(core, session, text, profile, source.compare, machineOverride);

  usePlayerVersion(session?.player ?? null);
  useEffect(() => {
    exposeTestApi(session, compare.session);
    return () => exposeTestApi(null, null);
  }, [session, compare.session]);
  useNarration(session);
  useTimelineActions(session);
  useAction(A.runWorkload, { run: () => run(text, false) });

  const shareState = (): ShareState => ({
    text,
    machine: machineOverride,
    position: session ? { ...session.player.position } : { op: 0, event: -1 },
    views: { compare: compare.profile },
  });

  const state = session?.state();
  const line =
    session && session.player.position.op > 0
      ? (session.lines[session.player.position.op - 1] ?? 0)
      : 0;

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
      <DraftStatus saving={draft.saving} text={text} />
      {loading && (
        <LoadProgress
          loading={loading}
          onCancel={() => {
            cancelRun();
            setBanner({ error: false, text: 'Loading stopped: the previous run is still shown.' });
          }}
        />
      )}
      <div className="pg-layout">
        <div className="setup">
          <MachineForm
            text={text}
            machineOverride={machineOverride}
            onUseTextMachine={() => draft.replace(text, null)}
            setAndRun={draft.setAndRun}
            compare={compare}
          />
          {session && (
            <ModelMemory
              session={session}
              compare={compare.session}
              profile={profile}
              compareProfile={compare.profile}
            />
          )}
          <Suspense
            fallback={
              <WorkloadEditor
                text={text}
                onChange={draft.onEdit}
                onRun={() => run(text, false)}
                error={error}
                currentLine={line}
              />
            }
          >
            <CodeEditor
              text={text}
              onChange={draft.onEdit}
              onRun={() => run(text, false)}
              error={error}
              currentLine={line}
              check={draft.check}
            />
          </Suspense>
          <Tools
            core={core}
            store={store}
            text={text}
            machine={machineOverride}
            opCount={session?.player.length ?? 0}
            shareState={shareState}
            replace={draft.replace}
            openScenario={(t, cmp, story) => {
              draft.replace(t, null, 'a scenario');
              compare.setProfile(cmp);
              setBanner({ error: false, text: story });
            }}
          />
          <OpButtons
            cpus={state?.nrCpus ?? 2}
            maxOrder={state?.maxOrder ?? 6}
            append={draft.append}
          />
        </div>
        <div className="pg-main">
          {session && (
            <>
              <Transport session={session} />
              {compare.session && compare.profile && (
                <CompareViews
                  session={session}
                  compare={compare.session}
                  profile={profile}
                  compareProfile={compare.profile}
                  theme={theme}
                  reducedMotion={reducedMotion}
                />
              )}
              <SessionViews session={session} theme={theme} reducedMotion={reducedMotion} />
            </>
          )}
        </div>
      </div>
    </main>
  );
}
