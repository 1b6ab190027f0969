// Acceptance of issue 16: a percpu trace captured on this project's machine (traces/) imports and
// replays on the model: every imported op is accepted, the model reports one percpu_alloc_percpu
// per imported allocation and one percpu_free_percpu per imported free, and sim_check is clean
// after every op. Then the model's own events, printed as trace text, import again to the same ops.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compileWorkload } from '../workload/compiler';
import { EV } from '../core/events';
import { loadCore } from '../core/module';
import { importTrace } from '../workload/trace-import';

const text = gunzipSync(
  readFileSync(join(process.cwd(), 'traces', 'percpu-netns.trace.gz')),
).toString('utf8');

describe('a percpu capture of this machine', async () => {
  const core = await loadCore();

  it('imports and replays: every op accepted, one tracepoint per op, checker clean', () => {
    const imported = importTrace(text);
    if (!imported.ok) throw new Error(`${imported.error.line}: ${imported.error.message}`);
    expect(imported.stats.percpuAllocs).toBe(224);
    expect(imported.stats.percpuFrees).toBe(215);
    const compiled = compileWorkload(imported.workload);
    if (!compiled.ok) throw new Error(compiled.error.message);
    const sim = core.createSim(compiled.program.config);
    const counts = new Map<number, number>();
    const errors: string[] = [];
    sim.runOps(compiled.program.ops, (i, err) => {
      if (err !== 0) errors.push(`op ${i}: error ${err}`);
      for (const e of sim.events()) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
      const bad = sim.check();
      if (bad) errors.push(`op ${i}: ${bad}`);
    });
    expect(errors.slice(0, 5)).toEqual([]);
    expect(counts.get(EV.PERCPU_ALLOC_PERCPU)).toBe(224);
    expect(counts.get(EV.PERCPU_FREE_PERCPU)).toBe(215);
    expect(counts.get(EV.PERCPU_ALLOC_PERCPU_FAIL) ?? 0).toBe(0);
    sim.dispose();
  });

  it("the model's own trace text imports back to the same ops", () => {
    const imported = importTrace(text);
    if (!imported.ok) throw new Error(imported.error.message);
    const compiled = compileWorkload(imported.workload);
    if (!compiled.ok) throw new Error(compiled.error.message);
    const sim = core.createSim(compiled.program.config);
    const lines: string[] = [];
    sim.runOps(compiled.program.ops, () => lines.push(sim.trace()));
    const again = importTrace(lines.join(''));
    if (!again.ok) throw new Error(`${again.error.line}: ${again.error.message}`);
    expect(again.stats.percpuAllocs).toBe(224);
    expect(again.stats.percpuFrees).toBe(215);
    // the percpu ops, in order (the vmstat ticks the importer places follow the trace's clock,
    // which the model's own text keeps only at its own op times)
    const sizes = (w: typeof imported.workload) =>
      w.ops
        .filter((o) => o.kind !== 'tick')
        .map((o) => (o.kind === 'percpu_alloc' ? `${o.cpu}:${o.size}/${o.align}` : o.kind));
    expect(sizes(again.workload)).toEqual(sizes(imported.workload));
    sim.dispose();
  });
});
