/*
 * types.ts: what a seed reproduction is. A seed is a published source (a patch series, a review
 * thread, a commit) about a kernel mechanism; its reproduction names the workloads that exercise
 * that mechanism, the profiles to run them under, what to measure from the core's counters and
 * events, and the figures the source itself gives. The command line (`npm run sim -- --reproduce`)
 * and the #/reproductions page run the same definitions through web/reproductions/runner.ts.
 */
import type { SimEvent } from '../core/events';
import type { ProfileName } from '../core/machine-config';
import type { ModelState } from '../core/state';

/** One workload run to its end under one profile: what a metric may read. */
export interface RunRecord {
  profile: ProfileName;
  state: ModelState; // the state after the last op
  events: readonly NamedEvent[]; // every event of the run, in order
}

/** A decoded event with its kind's name from the core ("pcp_refill", "runaway_loop"). */
export interface NamedEvent extends SimEvent {
  name: string;
}

/** One figure measured under several profiles. */
export interface Metric {
  key: string; // the JSON `metric` field, snake_case
  unit: string; // "acquisitions", "pages", "1 = yes" ...
  label: string; // what is measured, in a sentence a reader can check against the source
  workload: string; // workload text (docs/workload-language.md) with no profile line
  profiles: readonly ProfileName[];
  measure: (run: RunRecord) => number;
  /** false: the measure reads only the final state, so the run keeps no events (million-op runs). */
  events?: boolean;
  /** The source's own figure per profile; absent where the source gives none. */
  seed?: Partial<Record<ProfileName, number>>;
}

export interface Reproduction {
  name: string; // "seed-000": the CLI argument and the page's anchor
  title: string;
  source: string; // who, what, when, where it landed: a citation in words
  notes: string; // what the source says and how the model's figures should compare
  metrics: readonly Metric[];
  /** Too long to hold a browser tab (seed-002 runs 30 million-op workloads): command line only. */
  commandLineOnly?: boolean;
}

/** One line of the output: the model's figure and the source's beside it, per profile. */
export interface ReproductionRow {
  metric: string;
  unit: string;
  model: Record<string, number>;
  seed: Record<string, number>;
}

/** The JSON of `--reproduce NAME --json`, exactly. */
export interface ReproductionResult {
  seed: string;
  title: string;
  rows: ReproductionRow[];
  notes: string;
}
