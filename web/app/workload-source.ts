/*
 * workload-source.ts: what the playground opens with. In order: a share link in the address
 * (#/playground?s=...), a scenario (#/playground?scenario=ID), the draft saved as you typed, the
 * default workload. Opening a link never costs the reader their work: this tab's draft, when no
 * saved entry holds it, is saved in My workloads under a name first; when storage is full it is
 * held (left in place, not overwritten) until the reader says what to do; and a link that cannot
 * be read leaves the draft in place and says why.
 */
import type { ExplicitMachine } from '../core/machine-config';
import type { ProfileName } from '../core/machine-config';
import type { HeldDraft, WorkloadStore } from '../saved/store';
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
  /** This tab's draft, which could not be kept (storage full): it must not be overwritten. */
  held: HeldDraft | null;
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

/** Keep this tab's draft before `incoming` replaces it: a notice, or the text to hold. */
function keepDraft(
  store: WorkloadStore,
  incoming: string,
  reason: string,
): { notice: string | null; held: HeldDraft | null } {
  const d = store.ownDraft();
  if (!d) return { notice: null, held: null };
  const r = store.keep(d.text, reason, { incoming, trivial: [DEFAULT_WORKLOAD] });
  if (r.kept) {
    return {
      notice: `Your previous draft is kept in My workloads as “${r.kept.name}”.`,
      held: null,
    };
  }
  return { notice: null, held: r.why === 'nothing to keep' ? null : { text: d.text, reason } };
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
        held: null,
      }
    : {
        text: DEFAULT_WORKLOAD,
        machine: null,
        position: null,
        compare: null,
        from: 'default',
        notice: null,
        error: null,
        held: null,
      };
  if (params.s !== null) {
    const d = await decodeState(params.s);
    if (!d.ok) {
      return {
        ...fallback,
        error: `This link cannot be opened (column ${d.error.col}): ${d.error.message}. Your own workload is unchanged.`,
      };
    }
    const kept = keepDraft(store, d.state.text, 'a link');
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
      notice: [kept.notice, older].filter(Boolean).join(' ') || null,
      error: null,
      held: kept.held,
    };
  }
  if (params.scenario !== null) {
    const s = scenarioById(params.scenario);
    if (!s)
      return {
        ...fallback,
        error: `There is no scenario called “${params.scenario.slice(0, 40)}”.`,
      };
    const kept = keepDraft(store, s.text, 'a scenario');
    return {
      text: s.text,
      machine: null,
      position: null,
      compare: s.compare ?? null,
      from: 'scenario',
      notice: kept.notice,
      error: null,
      held: kept.held,
    };
  }
  return fallback;
}
