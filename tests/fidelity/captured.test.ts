/*
 * Fidelity: captures replayed from their captured state. Each folder of traces/captured/ (and of
 * BUDDYSCOPE_CAPTURES, a directory of further captures of the same kinds kept apart) holds a
 * system-wide 6.18 trace and the zoneinfo, buddyinfo, pagetypeinfo and vm sysctls read just
 * before it, and in newer captures lru-state.gz, the LRU folios' memory cgroups, lists and orders
 * (scripts/capture/capture.sh). The model boots in that state, replays the trace with
 * its vmstat ticks, and must give, per CPU and order, the kernel's number of pcp refill runs and
 * drain runs within 20% (or 2 runs) with the same most common run length, and
 * mm_page_alloc_extfrag only where the kernel had them. A capture in which kswapd woke must also
 * give kswapd's wakes and pgscan_kswapd within 25%.
 *
 * Where the model is known to fall short on the captures kept here, the shortfall is listed in
 * KNOWN_GAPS with its cause: the test fails when a listed gap closes (so the list shrinks) and
 * when anything else goes wrong. Captures kept apart get no such list.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { EVENT_KINDS } from '../../web/core/generated/events';
import { MAX_EVENT_CAPACITY } from '../../web/core/machine-config';
import { loadCore } from '../../web/core/module';
import type { Sim } from '../../web/core/sim';
import { captureReplayCounted } from '../../web/workload/pcp-count-replay';
import { kernelCounts, modelCounts, type TraceCounts } from '../../web/workload/trace-compare';
import { describeRuns, type RunTable } from '../../web/workload/trace-runs';
import {
  captureFolderPaths,
  isCaptureFolder,
  readCapture,
  vmstatDelta,
} from '../../scripts/sim/capture-folder';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const kept = join(repo, 'traces', 'captured');
const apart = process.env.BUDDYSCOPE_CAPTURES;

/** Every capture folder: name -> path. */
function captures(): [string, string][] {
  const out: [string, string][] = [];
  for (const root of [kept, apart]) {
    if (!root || !existsSync(root)) continue;
    for (const name of readdirSync(root).sort()) {
      const dir = join(root, name);
      if (isCaptureFolder(dir)) out.push([root === kept ? name : `apart/${name}`, dir]);
    }
  }
  return out;
}

/**
 * Shortfalls of the model on the captures kept here, "capture: what cpu/order", each with its cause
 * (the report of issue 13 gives the numbers).
 */
const KNOWN_GAPS: Record<string, string> = {
  // kswapd: the model's kswapd (on CPU 1, where the trace saw it) reclaims in rounds of 90, 180,
  // 360 ... pages (priority 12 down) from one lruvec: the kernel's rounds took 825, 1499 ...,
  // scanning each memory cgroup apart (an offline one min(size, 32) at every priority: 6.18
  // get_scan_count); the model has no memory cgroups here, and the capture records no folio
  // sizes but those of the folios its trace shows kswapd freeing (34 order-8 ones among single
  // pages), which the replay puts at the tail (see docs/model-notes.md). So the model's
  // balance_pgdat frees in other amounts at other moments, and CPU 1's lists drain and refill on
  // another rhythm.
  'kswapd: refill 0/0': 'kswapd frees in other amounts at other moments (folio sizes, memcgs)',
  'kswapd: drain 1/0': "kswapd's frees drain CPU 1 in other batches (folio sizes, memcgs)",
  'kswapd: drain 1/1': "kswapd's frees drain CPU 1 in other batches (folio sizes, memcgs)",
  'kswapd: drain 1/2': "kswapd's frees drain CPU 1 in other batches (folio sizes, memcgs)",
  'kswapd: drain 1/3': "kswapd's frees drain CPU 1 in other batches (folio sizes, memcgs)",
  // kswapd-memcg has an lru-state: the model boots with its memory cgroups and folio orders, and
  // its kswapd (on CPU 1) scans each memcg apart, paced by the trace's clock (pgscan_kswapd 15958
  // for the kernel's 17096, three wakes as the kernel's). The folios the trace shows kswapd
  // freeing sit at the lists' tails (web/core/lru-tail.ts), the rest spread along them as
  // readahead windows (capture-ops.ts interleavedFolios); but which memcg held each is in no
  // file, nor where the rest sat (see docs/model-notes.md). The kernel's kswapd freed 98 order-1,
  // 169 order-2 and 13 order-3 blocks (beside 16178 pages) to CPU 1's lists, some of them a
  // shrinker's slab pages, which the model frees in its folio batches: CPU 1's order-1 list
  // drains 27 times for the kernel's 25, its order-2 and order-3 lists 15 and 7 times for the
  // kernel's 27 and 8, in other lengths.
  // CPU 1's drains show its order-1 and order-2 lists held exactly what the lower bounds say
  // (pcp-from-trace.ts listsFromDrains), so the 36 pages of zoneinfo's count no list is proven
  // to hold go to its order-0 Movable list, where they had gone to the higher orders: its first
  // refill comes 36 allocations later, and with kswapd's frees halving alloc_factor between, its
  // refills ramp from 63 again and again (55 runs for the kernel's 43, most of 63 pages).
  'kswapd-memcg: refill 1/0': "CPU 1's refills ramp on another rhythm (list contents inferred)",
  'kswapd-memcg: drain 1/2': 'kswapd frees fewer order-2 folios (their list places inferred)',
  'kswapd-memcg: drain 1/3': 'kswapd frees fewer order-3 folios (their list places inferred)',
};

/** The most common run length (ties: the longer), as describeRuns lists them first. */
function commonest(hist: Map<number, number> | undefined): number | null {
  if (!hist || hist.size === 0) return null;
  return [...hist.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? null;
}

/** Every cpu/order of a kind where the model misses the acceptance rule, with the numbers. */
function misses(kind: string, real: RunTable, model: RunTable): Map<string, string> {
  const out = new Map<string, string>();
  for (const key of new Set([...real.keys(), ...model.keys()])) {
    const r = describeRuns(real.get(key));
    const m = describeRuns(model.get(key));
    const close = Math.abs(r.runs - m.runs) <= Math.max(2, 0.2 * r.runs);
    const same = commonest(real.get(key)) === commonest(model.get(key));
    if (!close || !same)
      out.set(
        `${kind} ${key}`,
        `kernel ${r.runs} runs (${r.lengths}), model ${m.runs} runs (${m.lengths})`,
      );
  }
  return out;
}

/** A vm_events counter of the model, if this core has it (the reclaim model adds pgscan_kswapd). */
function vmEvent(sim: Sim, name: string): number | null {
  const entries = sim.core.layout.entries();
  const field = entries.find(([f]) => f === `vm_events.${name}`);
  const ev = entries.find(([f]) => f === 'sim.ev');
  if (!field || !ev) return null;
  return Number(sim.view().getBigUint64(sim.address + ev[1].offset + field[1].offset, true));
}

// the reclaim model's kswapd wake event, once it exists (its name as the kernel's tracepoint)
const KSWAPD_WAKE = (EVENT_KINDS as readonly { id: number; name: string }[]).find(
  (k) => k.name === 'mm_vmscan_kswapd_wake',
);

describe('captures replayed from their captured state', async () => {
  const core = await loadCore();
  for (const [name, dir] of captures()) {
    const paths = captureFolderPaths(dir);
    const texts = readCapture(paths);
    const { trace } = texts;
    const kswapdRun = /mm_vmscan_kswapd_wake:/.test(trace);
    // each pageset's count found once (a bisection of replays) for the three checks
    let replayed: ReturnType<typeof captureReplayCounted> | null = null;
    const replay = () =>
      (replayed ??= captureReplayCounted(core, texts, Math.min(1 << 18, MAX_EVENT_CAPACITY)));

    it(`${name}: refills, drains and fallbacks per CPU and order`, () => {
      const r = replay();
      if (!r.ok)
        throw new Error(`${name}/${r.file}:${r.error.line}:${r.error.col}: ${r.error.message}`);
      const real: TraceCounts = kernelCounts(trace);
      const model = modelCounts(core, r.config, r.ops);
      const found = new Map([
        ...misses('refill', real.runs.refill, model.counts.runs.refill),
        ...misses('drain', real.runs.drain, model.counts.runs.drain),
      ]);
      for (const [key, n] of model.counts.extfrag)
        if (n > 0 && !real.extfrag.get(key)) found.set(`extfrag ${key}`, `model ${n}, kernel 0`);
      const gaps = name.startsWith('apart/')
        ? []
        : Object.keys(KNOWN_GAPS)
            .filter((k) => k.startsWith(`${name}: `))
            .map((k) => k.slice(name.length + 2));
      const report = [...found.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
      expect([...found.keys()].sort(), report).toEqual(gaps.sort());
      expect(model.summary.frozen).toBeNull();
      // the replay had time: a tick per CPU where the kernel's worker ran, or at the interval
      expect(r.stats.ticks).toBe([...real.ticks.values()].reduce((n, t) => n + t, 0));
    }, 240_000);

    /** The kernel's kswapd wakes and pgscan_kswapd (vmstat before/after) beside the model's. */
    const reclaimFigures = () => {
      const r = replay();
      if (!r.ok) throw new Error(r.error.message);
      let scanModel: number | null = null;
      let wakesModel = 0;
      const sim = core.createSim(r.config);
      try {
        sim.runOps(r.ops, () => {
          for (const e of sim.events()) if (e.kind === KSWAPD_WAKE?.id) wakesModel++;
        });
        scanModel = vmEvent(sim, 'pgscan_kswapd');
      } finally {
        sim.dispose();
      }
      return {
        wakesReal: (trace.match(/mm_vmscan_kswapd_wake:/g) ?? []).length,
        wakesModel,
        scanReal: vmstatDelta(paths, 'pgscan_kswapd'),
        scanModel,
      };
    };

    it.runIf(kswapdRun && KSWAPD_WAKE !== undefined)(
      `${name}: pgscan_kswapd within 25%`,
      () => {
        const f = reclaimFigures();
        expect(f.scanModel, 'the model counts pgscan_kswapd').not.toBeNull();
        expect(
          Math.abs((f.scanModel ?? 0) - f.scanReal),
          `kernel ${f.scanReal}, model ${f.scanModel}`,
        ).toBeLessThanOrEqual(0.25 * f.scanReal);
      },
      240_000,
    );

    // The kswapd captures kept here meet the rule: kswapd naps HZ/10 after a balanced run and
    // starts again, unwoken, if the node is unbalanced by then (kswapd-memcg's second and third
    // runs), and the boosted-watermark wakes come where the kernel's did (kswapd's 2).
    it.runIf(kswapdRun && KSWAPD_WAKE !== undefined)(
      `${name}: kswapd wakes within 25%`,
      () => {
        const f = reclaimFigures();
        expect(
          Math.abs(f.wakesModel - f.wakesReal),
          `kernel ${f.wakesReal}, model ${f.wakesModel}`,
        ).toBeLessThanOrEqual(0.25 * f.wakesReal);
      },
      240_000,
    );
  }
});
