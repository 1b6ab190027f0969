/*
 * workload-source.ts: what the playground opens with. In order: a share link in the address
 * (#/playground?s=...), a scenario (#/playground?scenario=ID), the draft saved as you typed, the
 * default workload. Opening a link never costs the reader their work: a draft that no saved entry
 * holds is saved under a name first, and a link that cannot be read leaves the draft in place
 * and says why.
 */
import type { ExplicitMachine } from '../core/machine-config';
import type { ProfileName } from '../core/machine-config';
import { WorkloadStore } from '../saved/store';
import { scenarioById } from '../scenarios/index';
import { decodeState, readLinkParams } from '../share/link';
import type { SharePosition } from '../share/state';
import { checkMachine } from '../share/validate';
import { DEFAULT_WORKLOAD } from './presets';

export interface WorkloadSource {
  text: string;
  machine: ExplicitMachine | null;
  position: SharePosition | null; // where to put the cursor once loaded
  compare: ProfileName | null;
  from: 'link' | 'scenario' | 'draft' | 'default';
  notice: string | null; // said once, politely (a saved draft, an older model)
  error: string | null; // why the link could not be opened
}

/** The machine a draft saved beside its text, if any. */
export function draftMachine(json: string | null): ExplicitMachine | null {
  if (!json) return null;
  try {
    const m = checkMachine(JSON.parse(json));
    return m.ok ? m.value : null;
  } catch {
    return null;
  }
}

function keepDraft(store: WorkloadStore, incoming: string): string | null {
  const d = store.draft();
  if (!d || d.text === incoming || d.text === DEFAULT_WORKLOAD || store.holds(d.text)) return null;
  const name = `Draft before opening a link (${new Date().toLocaleString('en-GB')})`;
  return store.add(name, d.text)
    ? `Your previous draft is kept in My workloads as “${name}”.`
    : null;
}

export async function resolveSource(
  hash: string,
  store: WorkloadStore,
  modelVersion: number,
): Promise<WorkloadSource> {
  const params = readLinkParams(hash);
  const draft = store.draft();
  const fallback: WorkloadSource = draft
    ? {
        text: draft.text,
        machine: draftMachine(draft.machine),
        position: null,
        compare: null,
        from: 'draft',
        notice: null,
        error: null,
      }
    : {
        text: DEFAULT_WORKLOAD,
        machine: null,
        position: null,
        compare: null,
        from: 'default',
        notice: null,
        error: null,
      };
  if (params.s !== null) {
    const d = await decodeState(params.s);
    if (!d.ok) {
      return {
        ...fallback,
        error: `This link cannot be opened (column ${d.error.col}): ${d.error.message}. Your own workload is unchanged.`,
      };
    }
    const kept = keepDraft(store, d.state.text);
    const older =
      d.modelVersion !== modelVersion
        ? `This link was made with model version ${d.modelVersion}; this site runs version ${modelVersion}, so some events may differ.`
        : null;
    return {
      text: d.state.text,
      machine: d.state.machine,
      position: d.state.position,
      compare: d.state.views.compare,
      from: 'link',
      notice: [kept, older].filter(Boolean).join(' ') || null,
      error: null,
    };
  }
  if (params.scenario !== null) {
    const s = scenarioById(params.scenario);
    if (!s)
      return {
        ...fallback,
        error: `There is no scenario called “${params.scenario.slice(0, 40)}”.`,
      };
    const kept = keepDraft(store, s.text);
    return {
      text: s.text,
      machine: null,
      position: null,
      compare: s.compare ?? null,
      from: 'scenario',
      notice: kept,
      error: null,
    };
  }
  return fallback;
}
