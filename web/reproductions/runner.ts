/*
 * runner.ts: runs a reproduction's workloads on the wasm core the way the command-line runner
 * runs a workload (scripts/sim/main.ts): parse, compile with the profile replaced, apply the ops
 * one at a time and keep each op's events before the buffer is cleared. Shared by
 * `npm run sim -- --reproduce` and the #/reproductions page.
 */
import type { ProfileName } from '../core/machine-config';
import type { Core } from '../core/module';
import { compileWorkload } from '../workload/compiler';
import { formatError } from '../workload/errors';
import { parseWorkload } from '../workload/parser';
import type {
  NamedEvent,
  Reproduction,
  ReproductionResult,
  ReproductionRow,
  RunRecord,
} from './types';

/** Events a run may buffer within one op (the command-line runner's capacity). */
const EVENT_CAPACITY = 1 << 18;

/**
 * Run a definition's workload under profile; throws when the definition itself is broken. Without
 * events (withEvents false) the ops go down in chunks and only the final state comes back.
 */
export function runWorkload(
  core: Core,
  text: string,
  profile: ProfileName,
  withEvents = true,
): RunRecord {
  const parsed = parseWorkload(text);
  if (!parsed.ok) throw new Error(`reproduction workload: ${formatError(parsed.error)}`);
  const compiled = compileWorkload({ ...parsed.workload, profile });
  if (!compiled.ok) throw new Error(`reproduction workload: ${formatError(compiled.error)}`);
  const program = compiled.program;
  const sim = core.createSim({
    ...program.config,
    eventCapacity: withEvents ? EVENT_CAPACITY : 1024,
  });
  try {
    if (!withEvents) {
      sim.replay(program.ops, 0, program.ops.length);
      return { profile, state: sim.state(), events: [] };
    }
    const names = new Map<number, string>();
    const events: NamedEvent[] = [];
    let dropped = 0;
    sim.runOps(program.ops, () => {
      dropped += sim.eventsDropped();
      for (const e of sim.events()) {
        let name = names.get(e.kind);
        if (name === undefined) names.set(e.kind, (name = core.eventKindName(e.kind)));
        events.push({ ...e, name });
      }
    });
    // A lost event would make a figure wrong without saying so.
    if (dropped) throw new Error(`reproduction workload: ${dropped} events were dropped`);
    return { profile, state: sim.state(), events };
  } finally {
    sim.dispose();
  }
}

/** Every metric of r under each of its profiles, with the source's figures beside them. */
export function reproduce(core: Core, r: Reproduction): ReproductionResult {
  // Metrics that read the same workload under the same profile share one run.
  const runs = new Map<string, RunRecord>();
  const run = (text: string, profile: ProfileName, withEvents: boolean): RunRecord => {
    const key = `${profile}\n${withEvents}\n${text}`;
    let record = runs.get(key);
    if (!record) runs.set(key, (record = runWorkload(core, text, profile, withEvents)));
    return record;
  };
  const rows: ReproductionRow[] = r.metrics.map((m) => {
    const model: Record<string, number> = {};
    for (const p of m.profiles) model[p] = m.measure(run(m.workload, p, m.events !== false));
    const seed: Record<string, number> = {};
    for (const p of m.profiles) {
      const v = m.seed?.[p];
      if (v !== undefined) seed[p] = v;
    }
    return { metric: m.key, unit: m.unit, model, seed };
  });
  return { seed: r.name, title: r.title, rows, notes: r.notes };
}
