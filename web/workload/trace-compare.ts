/*
 * trace-compare.ts: a kernel trace and the model's replay of it, counted the same way: per CPU
 * and order, the pcp refill runs and drain runs (trace-runs.ts), the mm_page_alloc_extfrag
 * fallbacks, and the vmstat worker's runs. The command line's --compare-trace and the fidelity
 * tests both use it.
 */
import { EV } from '../core/events';
import type { Core } from '../core/module';
import { SIM_ERRORS, type Sim } from '../core/sim';
import {
  zoneOfPfn,
  type CapturedState,
  type ExplicitMachine,
  type MachineConfig,
  type ReclaimedFolio,
} from '../core/machine-config';
import { OpBuffer, OpKind, type OpList } from '../core/ops';
import {
  machineFromCapture,
  minFreeKbytesFromZoneinfo,
  tunablesFromSysctl,
} from './captured-state';
import { compileWorkload } from './compiler';
import type { SourceMap } from './ast';
import type { WorkloadError } from './errors';
import { parseTraceLine, traceNumber } from './ftrace';
import { memcgsFromLruState, parseLruState } from './lru-state';
import { agedActiveLists, firstPassVisits } from './reclaim-first-pass';
import { pcpListsFromTrace } from './pcp-from-trace';
import { importTrace, type ReclaimedBlock, type TraceImportStats } from './trace-import';
import { parseZoneinfo } from './zoneinfo-machine';
import { RunCounter, runKey, type RunLengths } from './trace-runs';

/** A pageset's key: cpu/node/zone. */
export function pcpKey(cpu: number, node: number, zone: number): string {
  return `${cpu}/${node}/${zone}`;
}

/** What one side (kernel or model) did, counted per CPU and order. */
export interface TraceCounts {
  runs: RunLengths;
  extfrag: Map<string, number>; // runKey(cpu, alloc_order) -> mm_page_alloc_extfrag count
  ticks: Map<number, number>; // cpu -> vmstat_update runs
  kswapd: Map<string, number>; // kswapdKey(cpu, what) -> count (KSWAPD_ROWS)
}

/**
 * The kswapd rows both sides are counted in, per CPU: wakeup_kswapd calls that woke it
 * (mm_vmscan_wakeup_kswapd) from the slow path (wake_all_kswapds, the request's gfp flags) or
 * after a fallback boosted a watermark (rmqueue's ZONE_BOOSTED_WATERMARK wake, gfp 0, printed
 * "none"), on the allocating CPU; the runs of balance_pgdat (mm_vmscan_kswapd_wake) and the
 * sleeps (mm_vmscan_kswapd_sleep) on kswapd's CPU. The kernel traces a sleep only when kswapd
 * goes to sleep for good after its HZ/10 nap, and so does the model (its sleep event's a = 1).
 */
export const KSWAPD_ROWS = ['wakeup (slow path)', 'wakeup (boost)', 'kswapd_wake', 'kswapd_sleep'];

/** The key of a kswapd row for a CPU. */
export function kswapdKey(cpu: number, what: string): string {
  return `${cpu}/${what}`;
}

function bump<K>(m: Map<K, number>, k: K): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

/** The kernel's side, from the trace text. */
export function kernelCounts(text: string): TraceCounts {
  const runs = new RunCounter();
  const extfrag = new Map<string, number>();
  const ticks = new Map<number, number>();
  const kswapd = new Map<string, number>();
  for (const line of text.split('\n')) {
    const t = parseTraceLine(line);
    if (t.kind !== 'record') continue;
    const r = t.record;
    const order = traceNumber(r.fields.get('order')) ?? 0;
    if (r.event === 'mm_page_alloc_zone_locked' && r.fields.get('percpu_refill') === '1') {
      runs.add({ cpu: r.cpu, kind: 'refill', order });
    } else if (r.event === 'mm_page_pcpu_drain') {
      runs.add({ cpu: r.cpu, kind: 'drain', order });
    } else {
      runs.add({ cpu: r.cpu, kind: 'other', order });
      if (r.event === 'mm_page_alloc_extfrag')
        bump(extfrag, runKey(r.cpu, traceNumber(r.fields.get('alloc_order')) ?? 0));
      else if (r.event === 'workqueue_execute_start' && /function vmstat_update\b/.test(line))
        bump(ticks, r.cpu);
      else if (r.event === 'mm_vmscan_wakeup_kswapd')
        bump(
          kswapd,
          kswapdKey(r.cpu, KSWAPD_ROWS[r.fields.get('gfp_flags') === 'none' ? 1 : 0] ?? ''),
        );
      else if (r.event === 'mm_vmscan_kswapd_wake') bump(kswapd, kswapdKey(r.cpu, 'kswapd_wake'));
      else if (r.event === 'mm_vmscan_kswapd_sleep') bump(kswapd, kswapdKey(r.cpu, 'kswapd_sleep'));
    }
  }
  return { runs: runs.finish(), extfrag, ticks, kswapd };
}

/** What running the model did besides its counts. */
export interface ReplaySummary {
  ops: number;
  refused: Map<string, number>; // sim_err name -> ops the core refused (SIM_ENOMEM is not one)
  eventsDropped: number;
  frozen: string | null;
}

/**
 * The model's side: config's machine runs ops one at a time, its events counted as kernelCounts
 * counts the trace. Only events that are kernel tracepoints count: the trace has nothing else.
 */
export function modelCounts(
  core: Core,
  config: MachineConfig,
  ops: OpList,
  inspect?: (sim: Sim) => void, // sees the final state before the Sim is disposed
): { counts: TraceCounts; summary: ReplaySummary } {
  const sim = core.createSim(config);
  const runs = new RunCounter();
  const extfrag = new Map<string, number>();
  const ticks = new Map<number, number>();
  const kswapd = new Map<string, number>();
  const summary: ReplaySummary = { ops: 0, refused: new Map(), eventsDropped: 0, frozen: null };
  try {
    summary.ops = sim.runOps(ops, (_index, err) => {
      if (err !== 0 && err !== 1) bump(summary.refused, SIM_ERRORS[err] ?? `error ${err}`);
      summary.eventsDropped += sim.eventsDropped();
      for (const e of sim.events()) {
        if (e.kind === EV.MM_PAGE_ALLOC_ZONE_LOCKED && e.a === 1)
          runs.add({ cpu: e.cpu, kind: 'refill', order: e.order });
        else if (e.kind === EV.MM_PAGE_PCPU_DRAIN)
          runs.add({ cpu: e.cpu, kind: 'drain', order: e.order });
        else if (e.kind >= EV.MM_PAGE_ALLOC && e.kind <= EV.MM_PAGE_ALLOC_EXTFRAG) {
          runs.add({ cpu: e.cpu, kind: 'other', order: e.order });
          if (e.kind === EV.MM_PAGE_ALLOC_EXTFRAG) bump(extfrag, runKey(e.cpu, e.order));
        } else if (e.kind === EV.VMSTAT_TICK) bump(ticks, e.cpu);
        else if (e.kind === EV.KSWAPD_WAKE)
          bump(kswapd, kswapdKey(e.cpu, KSWAPD_ROWS[e.a === 0 ? 1 : 0] ?? ''));
        else if (e.kind === EV.VMSCAN_KSWAPD_WAKE) bump(kswapd, kswapdKey(e.cpu, 'kswapd_wake'));
        else if (e.kind === EV.VMSCAN_KSWAPD_SLEEP && e.a === 1)
          bump(kswapd, kswapdKey(e.cpu, 'kswapd_sleep'));
      }
    });
    summary.frozen = sim.frozen() ? (sim.check() ?? 'corrupted') : null;
    inspect?.(sim);
  } finally {
    sim.dispose();
  }
  return { counts: { runs: runs.finish(), extfrag, ticks, kswapd }, summary };
}

/** mm_page_alloc_extfrag per CPU and order, kernel beside model. */
export function compareExtfragTable(kernel: TraceCounts, model: TraceCounts): string {
  const keys = [...new Set([...kernel.extfrag.keys(), ...model.extfrag.keys()])].sort();
  const out = ['mm_page_alloc_extfrag, per CPU and alloc_order:'];
  out.push(
    `  ${'cpu'.padStart(3)} ${'order'.padStart(5)}  ${'real'.padStart(6)}  ${'sim'.padStart(6)}`,
  );
  if (keys.length === 0) out.push('  (none in either)');
  for (const key of keys) {
    const [cpu, order] = key.split('/');
    out.push(
      `  ${String(cpu).padStart(3)} ${String(order).padStart(5)}  ${String(kernel.extfrag.get(key) ?? 0).padStart(6)}  ${String(model.extfrag.get(key) ?? 0).padStart(6)}`,
    );
  }
  return out.join('\n') + '\n';
}

/** kswapd's wakes and sleeps per CPU (KSWAPD_ROWS), kernel beside model. */
export function compareKswapdTable(kernel: TraceCounts, model: TraceCounts): string {
  const cpus = [...new Set([...kernel.kswapd.keys(), ...model.kswapd.keys()])]
    .map((k) => Number(k.split('/')[0]))
    .filter((c, i, all) => all.indexOf(c) === i)
    .sort((a, b) => a - b);
  const out = ["kswapd, per CPU (wakeups on the allocating CPU; wake and sleep on kswapd's):"];
  out.push(
    `  ${'cpu'.padStart(3)} ${'what'.padEnd(18)}  ${'real'.padStart(6)}  ${'sim'.padStart(6)}`,
  );
  if (cpus.length === 0) out.push('  (none in either)');
  for (const cpu of cpus)
    for (const what of KSWAPD_ROWS) {
      const real = kernel.kswapd.get(kswapdKey(cpu, what)) ?? 0;
      const sim = model.kswapd.get(kswapdKey(cpu, what)) ?? 0;
      if (real || sim)
        out.push(
          `  ${String(cpu).padStart(3)} ${what.padEnd(18)}  ${String(real).padStart(6)}  ${String(sim).padStart(6)}`,
        );
    }
  return out.join('\n') + '\n';
}

/** A capture's texts: the trace and the /proc files taken just before it (scripts/capture). */
export interface CaptureTexts {
  trace: string;
  zoneinfo: string;
  buddyinfo?: string;
  pagetypeinfo?: string;
  sysctl?: string; // `sysctl vm`
  lruState?: string; // lru-state (gunzipped): the LRU folios' memcgs, lists and orders
}

export type CaptureReplay =
  | {
      ok: true;
      config: MachineConfig;
      ops: OpList;
      opTimes: Float64Array; // each op's trace time in seconds (NaN: none, the clock's own ops)
      stats: TraceImportStats;
    }
  | { ok: false; file: string; error: WorkloadError };

/** The capture's machine as its /proc files show it (pcp lists not yet inferred). */
function capturedMachine(files: CaptureTexts) {
  return machineFromCapture(
    { name: 'zoneinfo', text: files.zoneinfo },
    {
      ...(files.buddyinfo !== undefined
        ? { buddyinfo: { name: 'buddyinfo', text: files.buddyinfo } }
        : {}),
      ...(files.pagetypeinfo !== undefined
        ? { pagetypeinfo: { name: 'pagetypeinfo', text: files.pagetypeinfo } }
        : {}),
    },
  );
}

/**
 * The captured pagesets with their lists as the trace shows them (pcp-from-trace.ts), each
 * starting from the count `counts` gives it (pcpKey -> pages), else from zoneinfo's.
 */
function pagesetsFromTrace(
  machine: ExplicitMachine,
  captured: CapturedState,
  files: CaptureTexts,
  counts?: ReadonlyMap<string, number>,
): CapturedState {
  const zones = parseZoneinfo(files.zoneinfo);
  const pcps = captured.pcps.map((p) => {
    const count = counts?.get(pcpKey(p.cpu, p.node, p.zone));
    return count === undefined ? p : { ...p, count };
  });
  return pcpListsFromTrace(
    { ...captured, pcps },
    machine,
    files.trace,
    zones.ok ? zones.zones : undefined,
  );
}

/**
 * The replay with the pagesets in `counts` (pcpKey -> pages) starting from those counts instead of
 * zoneinfo's, their lists inferred again; the trace's ops are the same.
 */
export function withPcpCounts(
  replay: Extract<CaptureReplay, { ok: true }>,
  files: CaptureTexts,
  counts: ReadonlyMap<string, number>,
): Extract<CaptureReplay, { ok: true }> {
  const machine = replay.config.machine;
  const m = capturedMachine(files);
  if (machine.kind !== 'explicit' || !machine.captured || !m.ok || !m.machine.captured)
    return replay;
  const { pcps } = pagesetsFromTrace(m.machine, m.machine.captured, files, counts);
  return {
    ...replay,
    config: { ...replay.config, machine: { ...machine, captured: { ...machine.captured, pcps } } },
  };
}

/**
 * What replays a capture: its machine in the captured state (pcp lists as the trace shows them,
 * the capture's vm sysctls) and its trace imported with time (each CPU's vmstat runs where the
 * trace has them).
 */
export function captureReplay(files: CaptureTexts, eventCapacity: number): CaptureReplay {
  const m = capturedMachine(files);
  if (!m.ok) return m;
  const zones = parseZoneinfo(files.zoneinfo);
  let machine = m.machine.captured
    ? { ...m.machine, captured: pagesetsFromTrace(m.machine, m.machine.captured, files) }
    : m.machine;
  // kswapd's first pass shows what each memcg held, and whether refaults had moved
  const visits = machine.captured ? firstPassVisits(files.trace.split('\n')) : null;
  if (machine.captured && visits && agedActiveLists(visits))
    machine = {
      ...machine,
      captured: { ...machine.captured, refaults: [{ node: 0, anon: false, file: true }] },
    };
  if (files.lruState !== undefined && machine.captured) {
    const lru = parseLruState(files.lruState);
    if (!lru.ok) return { ok: false, file: 'lru-state', error: lru.error };
    machine = {
      ...machine,
      captured: { ...machine.captured, ...memcgsFromLruState(lru.state, visits) },
    };
  }
  // capture.sh always traces the vmstat worker: a capture without its runs had none
  const imported = importTrace(files.trace, {
    ticks: 'traced',
    capturedFrees: !!machine.captured,
    pageblockOrder: machine.pageblockOrder,
  });
  if (!imported.ok) return { ok: false, file: 'trace', error: imported.error };
  // what the kernel's reclaim freed of the captured memory was at its lists' tails (lru-tail.ts)
  if (machine.captured && imported.reclaimed.length)
    machine = {
      ...machine,
      captured: { ...machine.captured, reclaimed: reclaimedFolios(machine, imported.reclaimed) },
    };
  // each statement's position is its index (from 1), so each op finds its trace time
  const positions: SourceMap = new WeakMap();
  imported.workload.ops.forEach((op, i) => positions.set(op, { line: i + 1, col: 0 }));
  const compiled = compileWorkload(imported.workload, { machine, positions });
  if (!compiled.ok) return { ok: false, file: 'trace', error: compiled.error };
  let tunables = compiled.program.config.tunables;
  // without the capture's sysctls, min_free_kbytes is what the zones' min watermarks say
  const minFreeKbytes = zones.ok ? minFreeKbytesFromZoneinfo(zones.zones) : null;
  if (minFreeKbytes !== null) tunables = { ...tunables, minFreeKbytes };
  if (files.sysctl !== undefined) {
    const t = tunablesFromSysctl(files.sysctl);
    if (!t.ok) return { ok: false, file: 'sysctl', error: t.error };
    tunables = { ...tunables, ...t.tunables };
  }
  const clocked = withTraceClock(compiled.program.ops, compiled.program.lines, imported.times);
  return {
    ok: true,
    config: { ...compiled.program.config, ...(tunables ? { tunables } : {}), eventCapacity },
    ops: clocked.ops,
    opTimes: clocked.times,
    stats: imported.stats,
  };
}

/** Each reclaimed block's node and zone, from the machine's zone spans (none: left out). */
function reclaimedFolios(machine: ExplicitMachine, blocks: ReclaimedBlock[]): ReclaimedFolio[] {
  const out: ReclaimedFolio[] = [];
  for (const b of blocks) {
    const z = zoneOfPfn(machine, b.pfn);
    if (z) out.push({ ...z, order: b.order });
  }
  return out;
}

/**
 * The ops with the trace's clock among them: an OP_CLOCK (microseconds since the trace's first
 * op) before the first op of each new millisecond, so kswapd's HZ/10 nap ends when the kernel's
 * did; and each resulting op's trace time (NaN for the clock's ops and ops without one). lines[i]
 * is op i's statement index + 1 (0: the captured state's ops, which have no time).
 */
export function withTraceClock(
  ops: OpList,
  lines: Uint32Array,
  times: number[],
): { ops: OpList; times: Float64Array } {
  const out = new OpBuffer(ops.length + 1024);
  const opTimes: number[] = [];
  const first = times.find((t) => t > 0) ?? 0;
  let lastMs = -1;
  for (let i = 0; i < ops.length; i++) {
    const line = lines[i] ?? 0;
    const t = line > 0 ? (times[line - 1] ?? 0) : 0;
    if (t >= first && line > 0) {
      const us = Math.round((t - first) * 1e6);
      const ms = Math.floor(us / 1000);
      if (ms > lastMs) {
        out.pushFields(OpKind.CLOCK, 0, 0, 0, 0, us);
        opTimes.push(NaN);
        lastMs = ms;
      }
    }
    const op = ops.at(i);
    if (op) {
      out.push(op);
      opTimes.push(line > 0 ? t : NaN);
    }
  }
  return { ops: out.finish(), times: Float64Array.from(opTimes) };
}
