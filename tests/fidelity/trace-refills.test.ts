/*
 * Fidelity: per-CPU list refills, the model against real 6.18 kernels. A refill shows in a trace
 * as a run of `mm_page_alloc_zone_locked ... percpu_refill=1` lines on one CPU, one line per block
 * taken off the buddy lists. We replay a trace's requests (imported) on the machine the trace ran
 * on (its zoneinfo) and compare the model's runs with the kernel's.
 *
 * The shared traces have no refill lines (their per-CPU lists were full while they ran); the traces
 * in traces/ were captured on these machines with the refill tracepoints on (traces/README.md).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

import { EV } from '../../web/core/events';
import { loadCore } from '../../web/core/module';
import { compileWorkload } from '../../web/workload/compiler';
import { importTrace } from '../../web/workload/trace-import';
import { machineFromZoneinfo, parseZoneinfo } from '../../web/workload/zoneinfo-machine';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const shared = join(resolve(repo, process.env.BUDDYSCOPE_SHARED ?? '../shared'), 'traces');
const ours = join(repo, 'traces');
const DOUBLING = [63, 126, 252, 504, 1008, 2016]; // batch 63 << alloc_factor, 0..PCP_BATCH_SCALE_MAX

/** Run lengths per "cpu/order", in trace order. */
type Runs = Map<string, number[]>;

/** Collects refill runs: a run on a CPU ends when that CPU traces anything else or the order changes. */
class RefillRuns {
  readonly runs: Runs = new Map();
  private open = new Map<number, { order: number; length: number }>();

  /** One tracepoint hit on cpu; refill says whether it was a pcp refill block. */
  add(cpu: number, refill: boolean, order: number): void {
    const cur = this.open.get(cpu);
    if (cur && (!refill || cur.order !== order)) this.close(cpu);
    if (!refill) return;
    const still = this.open.get(cpu);
    if (still) still.length++;
    else this.open.set(cpu, { order, length: 1 });
  }

  private close(cpu: number): void {
    const cur = this.open.get(cpu);
    if (!cur) return;
    this.open.delete(cpu);
    const key = `${cpu}/${cur.order}`;
    this.runs.set(key, [...(this.runs.get(key) ?? []), cur.length]);
  }

  finish(): Runs {
    for (const cpu of [...this.open.keys()]) this.close(cpu);
    return this.runs;
  }
}

function readTrace(path: string): string {
  const bytes = readFileSync(path);
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** The kernel's refill runs, from the trace text. */
function realRuns(text: string): Runs {
  const runs = new RefillRuns();
  const line = /\[(\d+)\].*?: (mm_\w+): .*?order=(\d+)/;
  for (const l of text.split('\n')) {
    const m = line.exec(l);
    if (!m) continue;
    const refill = m[2] === 'mm_page_alloc_zone_locked' && l.includes('percpu_refill=1');
    runs.add(Number(m[1]), refill, Number(m[3]));
  }
  return runs.finish();
}

/**
 * The model's refill sizes (blocks moved by each rmqueue_bulk, from its pcp_refill events) after
 * replaying the trace's requests on the zoneinfo machine. Not its tracepoint runs: when a refill
 * claims a pageblock, the claimed block has no mm_page_alloc_zone_locked line (as in the kernel)
 * and an mm_page_alloc_extfrag line splits the run.
 */
async function modelRefills(tracePath: string, zoneinfoPath: string): Promise<Runs> {
  const imported = importTrace(readTrace(tracePath));
  if (!imported.ok) throw new Error(`import: ${imported.error.message}`);
  const zi = parseZoneinfo(readFileSync(zoneinfoPath, 'utf8'));
  if (!zi.ok) throw new Error(`zoneinfo: ${zi.error.message}`);
  const machine = machineFromZoneinfo(zi.zones);
  if (!machine.ok) throw new Error(`machine: ${machine.error.message}`);
  const compiled = compileWorkload(imported.workload, { machine: machine.machine });
  if (!compiled.ok) throw new Error(`compile: ${compiled.error.message}`);
  const program = compiled.program;
  const core = await loadCore();
  const sim = core.createSim({ ...program.config, eventCapacity: 1 << 20 });
  const refills: Runs = new Map();
  sim.runOps(program.ops, () => {
    for (const e of sim.events()) {
      if (e.kind !== EV.PCP_REFILL || e.b === 0) continue;
      const key = `${e.cpu}/${e.order}`;
      refills.set(key, [...(refills.get(key) ?? []), e.b]);
    }
  });
  sim.dispose();
  return refills;
}

/** Whether seq appears in runs as consecutive elements. */
function containsRun(runs: number[], seq: number[]): boolean {
  return runs.some((_, i) => seq.every((v, j) => runs[i + j] === v));
}

describe('order-0 refills scale with alloc_factor (6.7+)', () => {
  it('real kernel: touch64 refills CPU 0 with 63, 126, 252, 504, 1008, 2016 pages and never more', () => {
    const real = realRuns(readTrace(join(ours, 'touch64-cpu0.trace.gz'))).get('0/0') ?? [];
    expect(real.slice(0, DOUBLING.length)).toEqual(DOUBLING);
    expect(Math.max(...real)).toBe(2016);
  });

  it('model: replaying touch64 on its machine doubles the same way, capped at 63 << 5', async () => {
    const sim =
      (
        await modelRefills(
          join(ours, 'touch64-cpu0.trace.gz'),
          join(ours, 'zoneinfo-at-capture.txt'),
        )
      ).get('0/0') ?? [];
    expect(containsRun(sim, DOUBLING)).toBe(true);
    expect(Math.max(...sim)).toBe(2016);
  });

  it('model: replaying the shared touch8 trace on the shared zoneinfo machine starts 63, 126, 252, 504, 1008', async () => {
    const shared8 = join(shared, 'touch8-cpu0.trace.gz');
    // the real trace has no refill lines to compare with: its CPU's list was already full
    expect(realRuns(readTrace(shared8)).size).toBe(0);
    const sim =
      (await modelRefills(shared8, join(shared, 'zoneinfo-at-capture.txt'))).get('0/0') ?? [];
    expect(containsRun(sim, DOUBLING.slice(0, 5))).toBe(true);
    expect(Math.max(...sim)).toBeLessThanOrEqual(2016);
  });
});

describe('high-order refills take max(batch >> order, 2) blocks', () => {
  it('real kernel: order-3 refills move 7 blocks and an order-1 refill 31', () => {
    const real = realRuns(readTrace(join(ours, 'tcp-loopback-8m-cpu1.trace.gz')));
    const order3 = real.get('1/3') ?? [];
    expect(order3.length).toBeGreaterThan(5);
    expect(new Set(order3)).toEqual(new Set([7]));
    expect(real.get('1/1')).toEqual([31]);
  });

  it('model: replaying the loopback TCP traces, every order-3 refill moves 7 blocks', async () => {
    for (const [trace, zoneinfo] of [
      [join(ours, 'tcp-loopback-8m-cpu1.trace.gz'), join(ours, 'zoneinfo-at-capture.txt')],
      [join(shared, 'tcp-loopback-8m.trace.gz'), join(shared, 'zoneinfo-at-capture.txt')],
    ] as const) {
      const refills = await modelRefills(trace, zoneinfo);
      const order3 = [...refills].filter(([key]) => key.endsWith('/3')).flatMap(([, r]) => r);
      expect(order3.length, trace).toBeGreaterThan(0);
      expect(new Set(order3), trace).toEqual(new Set([7]));
    }
  });
});
