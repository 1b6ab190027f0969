/*
 * Tools.tsx: the playground's folding panels: open a scenario, share a link, keep workloads in
 * this browser, and import or export files and kernel traces. Each one hands a whole new text to
 * the page (replace) or reads the current one.
 */
import type { ExplicitMachine, ProfileName } from '../../core/machine-config';
import type { Core } from '../../core/module';
import { MyWorkloads } from '../../saved/MyWorkloads';
import type { WorkloadStore } from '../../saved/store';
import { SCENARIOS } from '../../scenarios/index';
import type { ShareState } from '../../share/state';
import { FilesPanel } from '../FilesPanel';
import { draftMachine } from '../workload-source';
import { SharePanel } from '../SharePanel';

export function Tools({
  core,
  store,
  text,
  machine,
  opCount,
  shareState,
  replace,
  openScenario,
}: {
  core: Core;
  store: WorkloadStore;
  text: string;
  machine: ExplicitMachine | null;
  opCount: number;
  shareState: () => ShareState;
  /** Replace the text (keeping the one it replaces, named for the reason) and run it. */
  replace: (next: string, machine: ExplicitMachine | null | undefined, reason: string) => void;
  /** A scenario's text, the profile it compares with, and its story for the banner. */
  openScenario: (text: string, compare: ProfileName | null, story: string) => void;
}) {
  return (
    <>
      <details className="tools" open>
        <summary>Scenarios</summary>
        <label className="scenario-pick">
          Open a scenario{' '}
          <select
            value=""
            onChange={(e) => {
              const s = SCENARIOS.find((x) => x.id === e.target.value);
              if (s) openScenario(s.text, s.compare ?? null, `${s.title}: ${s.story}`);
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
        <SharePanel getState={shareState} modelVersion={core.modelVersion()} opCount={opCount} />
      </details>
      <details className="tools">
        <summary>My workloads</summary>
        <MyWorkloads
          store={store}
          text={text}
          onOpen={(w) => replace(w.text, null, 'a saved workload')}
          onOpenDraft={(d) => replace(d.text, draftMachine(d.machine), 'a draft from another tab')}
        />
      </details>
      <details className="tools">
        <summary>Files and kernel traces</summary>
        <FilesPanel
          core={core}
          text={text}
          machine={machine}
          replace={(t, why) =>
            replace(t, undefined, why === 'restore' ? 'the restored text' : 'an imported file')
          }
        />
      </details>
    </>
  );
}
