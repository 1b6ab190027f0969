/*
 * Every scenario through the real wasm core: it compiles, runs without a refused op, and its
 * story's claim holds (each claim below restates the story in numbers).
 */
import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileText } from '../app/compile';
import type { ProfileName } from '../core/machine-config';
import { loadCore, type Core } from '../core/module';
import type { SimEvent } from '../core/events';
import type { Sim } from '../core/sim';
import { setHeader } from '../app/workload-text';
import { SCENARIOS, scenarioById } from './index';

interface Ran {
  sim: Sim;
  perOp: SimEvent[][]; // events of each op
  all: SimEvent[];
  errors: number[]; // enum sim_err of each op
}

let core: Core;
const live: Sim[] = [];
beforeAll(async () => {
  core = await loadCore();
  return () => live.forEach((s) => s.dispose());
});

function run(text: string, profile?: ProfileName): Ran {
  const out = compileText(profile ? setHeader(text, 'profile', profile) : text);
  if (!out.ok) throw new Error(`${out.error.line}:${out.error.col}: ${out.error.message}`);
  const sim = core.createSim(out.program.config);
  live.push(sim);
  const perOp: SimEvent[][] = [];
  const errors: number[] = [];
  for (const op of out.program.ops.toArray()) {
    sim.clearEvents();
    errors.push(sim.apply(op));
    perOp.push(sim.events());
  }
  return { sim, perOp, all: perOp.flat(), errors };
}

const kind = (name: string) => (e: SimEvent) => core.eventKindName(e.kind) === name;
const scenario = (id: string) => {
  const s = scenarioById(id);
  if (!s) throw new Error(`no scenario ${id}`);
  return s;
};

describe('scenario library', () => {
  it('has one index entry per .workload file, each with a title and a one-line story', () => {
    const files = readdirSync(new URL('.', import.meta.url)).filter((f) => f.endsWith('.workload'));
    expect(SCENARIOS.map((s) => `${s.id}.workload`).sort()).toEqual(files.sort());
    for (const s of SCENARIOS) {
      expect(s.title.length).toBeGreaterThan(5);
      expect(s.story).not.toMatch(/\n/);
    }
  });

  for (const s of SCENARIOS) {
    it(`${s.id}: runs, with no op refused and the state consistent`, () => {
      const r = run(s.text);
      // 0 = SIM_OK, 1 = SIM_ENOMEM (the allocator said no: part of some stories), 6 = the
      // corruption a story asks for.
      expect(r.errors.filter((e) => e !== 0 && e !== 1 && e !== 6)).toEqual([]);
      if (!r.sim.frozen()) expect(r.sim.check()).toBeNull();
    });
  }

  it('fragmentation: the last order-3 allocation fails while free pages > 2^3', () => {
    const r = run(scenario('fragmentation').text);
    const last = r.perOp[r.perOp.length - 1] ?? [];
    const alloc = last.find(kind('mm_page_alloc'));
    expect(alloc).toMatchObject({ order: 3, pfn: 0, b: 0 });
    expect(last.some(kind('alloc_fail'))).toBe(true);
    const zone = r.sim.state().nodes[0]?.zones.find((z) => z.name === 'Normal');
    expect(zone?.nrFreePages).toBeGreaterThan(1 << 3);
    expect(zone?.nrFreePages).toBe(128);
    // Every free block is a single page: nothing to merge.
    expect(zone?.freeArea.slice(1).every((a) => a.nrFree === 0)).toBe(true);
  });

  it('drain-storm: every failed allocation stalls in direct reclaim, frees nothing, skips the drain and reaches the OOM decision', () => {
    const r = run(scenario('drain-storm').text);
    const failed = r.perOp.filter((ev) => ev.some(kind('alloc_fail')));
    expect(failed.length).toBeGreaterThanOrEqual(10);
    for (const ev of failed) {
      expect(ev.some(kind('mm_vmscan_direct_reclaim_begin'))).toBe(true);
      const end = ev.find(kind('mm_vmscan_direct_reclaim_end'));
      expect(end?.a).toBe(0);
      // __alloc_pages_direct_reclaim drains all CPUs only when reclaim made progress
      expect(ev.some((e) => kind('drain')(e) && core.eventFnName(e.fn) === 'drain_all_pages')).toBe(
        false,
      );
      expect(ev.some(kind('out_of_memory'))).toBe(true);
    }
  });

  it('fallback-steal: unmovable and reclaimable requests fall back to Movable and claim pageblocks', () => {
    const r = run(scenario('fallback-steal').text);
    const extfrag = r.all.filter(kind('mm_page_alloc_extfrag'));
    expect(extfrag.length).toBeGreaterThanOrEqual(2);
    // mt = the request's type, b = the fallback type (Movable = 1); c bit 1 = change_ownership.
    expect(extfrag.every((e) => e.mt !== 1 && e.b === 1)).toBe(true);
    expect(extfrag.some((e) => (e.c & 2) !== 0)).toBe(true);
    expect(r.sim.state().vm.pageblockClaimed).toBeGreaterThanOrEqual(2);
  });

  it('batch-scaling: 6.18 refills grow and take the lock far fewer times than 6.6', () => {
    const s = scenario('batch-scaling');
    const got = (r: Ran) => r.all.filter(kind('pcp_refill')).map((e) => e.b);
    const new618 = got(run(s.text));
    const old66 = got(run(s.text, s.compare));
    expect(new618.slice(0, 6)).toEqual([63, 126, 252, 504, 1008, 2016]);
    expect(new Set(old66)).toEqual(new Set([63]));
    expect(new618.length * 5).toBeLessThan(old66.length);
  });

  it('lock-contention: both CPUs wait for the zone lock the other holds', () => {
    const r = run(scenario('lock-contention').text);
    const waits = r.all.filter((e) => kind('zone_lock')(e) && e.a > 0);
    expect(new Set(waits.map((e) => e.cpu))).toEqual(new Set([0, 1]));
    const cpus = r.sim.cpus();
    expect(cpus[0]?.lockWaitNs).toBeGreaterThan(0);
    expect(cpus[1]?.lockWaitNs).toBeGreaterThan(0);
  });

  it('fairness-2016: the drain frees 9 >= 7 pages and never reaches the order-3 list', () => {
    const s = scenario('fairness-2016');
    const r = run(s.text);
    const last = r.perOp[r.perOp.length - 1] ?? [];
    const drained = last.filter(kind('mm_page_pcpu_drain'));
    expect(drained.reduce((n, e) => n + (1 << e.order), 0)).toBe(9);
    expect(drained.some((e) => e.order === 3)).toBe(false);
    const pcp = r.sim.pcps().find((p) => p.cpu === 0 && p.zone === 2);
    expect(pcp?.nrBlocks[5]).toBeGreaterThan(0); // pindex 5: the 2016 order-3 list
  });

  it('corrupt-runaway: the pre-v5 drain runs away and freezes the machine; v5 does not', () => {
    const s = scenario('corrupt-runaway');
    const r = run(s.text);
    expect(r.all.some(kind('bad_page'))).toBe(true);
    expect(r.all.some(kind('runaway_loop'))).toBe(true);
    expect(r.sim.frozen()).toBe(true);
    const v5 = run(s.text, s.compare);
    expect(v5.all.some(kind('runaway_loop'))).toBe(false);
    expect(v5.sim.frozen()).toBe(false);
  });
});
