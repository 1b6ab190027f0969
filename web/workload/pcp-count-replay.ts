/*
 * pcp-count-replay.ts: each pageset's count when the trace began, found by replaying it. zoneinfo's
 * count is read a moment before tracing starts, and a busy CPU's pageset moves by hundreds of pages
 * in between. Where `high` is fixed, two drains tell the count outright (pcp-from-trace.ts); where
 * it is auto-tuned (6.7+, the default), `high` moves with every refill and vmstat tick, so only a
 * replay knows it at a given moment. A free that brings count to `high` drains
 * clamp(free_count, batch, high - batch) pages (free_frozen_page_commit, nr_pcp_free): the first
 * drains that frees made say, by the free that made each and by how much it took, where count
 * stood. A higher count at the start drains at an earlier free, or at the same folio batch's
 * earlier commit for fewer pages; so the count is bisected, within one refill's worth
 * (batch << PCP_BATCH_SCALE_MAX) of zoneinfo's, until the model's first such drains are the
 * kernel's. Where no count in that range gives them, zoneinfo's stays.
 */
import { EV } from '../core/events';
import { PCP_BATCH_SCALE_MAX, zoneOfPfn } from '../core/machine-config';
import type { Core } from '../core/module';
import { OpKind, type OpList } from '../core/ops';
import { parseTraceLine, traceNumber } from './ftrace';
import {
  captureReplay,
  pcpKey,
  withPcpCounts,
  type CaptureReplay,
  type CaptureTexts,
} from './trace-compare';
import { parseZoneinfo } from './zoneinfo-machine';

/** How many of a pageset's first drains the bisection matches. */
const DRAINS_MATCHED = 4;

/** One drain call as the bisection compares it: the op whose free made it, and its pages. */
interface Drain {
  op: number;
  pages: number;
}

/** The op indices of each CPU's ops that have a trace time, in order (the frees and allocations). */
function timedOpsByCpu(ops: OpList, times: Float64Array): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (let i = 0; i < ops.length; i++) {
    const op = ops.at(i);
    if (!op || Number.isNaN(times[i] ?? NaN) || op.kind === OpKind.CLOCK) continue;
    let list = out.get(op.cpu);
    if (!list) out.set(op.cpu, (list = []));
    list.push(i);
  }
  return out;
}

/** The last of a CPU's ops (indices, in order) whose time is at most t; -1 if none. */
function lastOpAt(indices: readonly number[], times: Float64Array, t: number): number {
  let lo = 0;
  let hi = indices.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const i = indices[mid] ?? 0;
    if ((times[i] ?? Infinity) <= t) {
      found = i;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Each pageset's first drains that frees made, in the kernel's trace: a CPU's consecutive
 * mm_page_pcpu_drain lines are one call, made by the free traced just before them on that CPU
 * (the last op of that CPU by then: the free, or the folio batch whose commit drained). A
 * pageset's list stops at its first drain something else made (the vmstat worker's decay, a
 * drain of every CPU): what follows it depends on that drain's size too.
 */
function kernelDrains(
  replay: Extract<CaptureReplay, { ok: true }>,
  text: string,
): Map<string, Drain[]> {
  const machine = replay.config.machine;
  const out = new Map<string, Drain[]>();
  if (machine.kind !== 'explicit') return out;
  const opsOf = timedOpsByCpu(replay.ops, replay.opTimes);
  const closed = new Set<string>();
  const lastEvent = new Map<number, string>(); // cpu -> its last traced event
  interface OpenCall {
    cpu: number;
    key: string;
    drain: Drain;
    byFree: boolean;
  }
  let open = null as OpenCall | null;
  const close = () => {
    if (!open) return;
    const list = out.get(open.key) ?? [];
    if (!closed.has(open.key) && list.length < DRAINS_MATCHED) {
      if (open.byFree && open.drain.op >= 0) out.set(open.key, [...list, open.drain]);
      else closed.add(open.key);
    }
    open = null;
  };
  for (const line of text.split('\n')) {
    const t = parseTraceLine(line);
    if (t.kind !== 'record') continue;
    const r = t.record;
    if (r.event !== 'mm_page_pcpu_drain') {
      if (open?.cpu === r.cpu) close();
      lastEvent.set(r.cpu, r.event);
      continue;
    }
    const pfn = traceNumber(r.fields.get('pfn'));
    const order = traceNumber(r.fields.get('order')) ?? 0;
    if (open?.cpu !== r.cpu) {
      close();
      const z = pfn === null ? null : zoneOfPfn(machine, pfn);
      if (!z) continue;
      const ops: readonly number[] = opsOf.get(r.cpu) ?? [];
      open = {
        cpu: r.cpu,
        key: pcpKey(r.cpu, z.node, z.zone),
        drain: { op: lastOpAt(ops, replay.opTimes, Number(r.timestamp)), pages: 0 },
        byFree: lastEvent.get(r.cpu) === 'mm_page_free',
      };
    }
    open.drain.pages += 2 ** order;
    lastEvent.set(r.cpu, r.event);
  }
  close();
  return out;
}

/** The model's drain calls of one pageset in ops [0, to], an op's drains summed. */
function modelDrains(
  core: Core,
  replay: Extract<CaptureReplay, { ok: true }>,
  key: string,
  to: number,
): Drain[] {
  const out: Drain[] = [];
  const sim = core.createSim(replay.config);
  try {
    sim.runOps(replay.ops.slice(0, to + 1), (index) => {
      let pages = 0;
      for (const e of sim.events())
        if (e.kind === EV.MM_PAGE_PCPU_DRAIN && pcpKey(e.cpu, e.node, e.zone) === key)
          pages += 2 ** e.order;
      if (pages) out.push({ op: index, pages });
    });
  } finally {
    sim.dispose();
  }
  return out;
}

/**
 * Where the model's first drains stand against the kernel's: 1, the count is too high (a drain
 * came at an earlier op, or the last took less at the same one: a folio batch's commit brought
 * count to high sooner); -1, too low; 0, they are the kernel's. A drain before the last that
 * took other pages at the same op was a folio batch whose commits drained another number of
 * times: count is then in another turn of the batch's drain-refill cycle, and `away` (the
 * direction back towards zoneinfo's count) is returned, so the search stays in zoneinfo's turn.
 */
function compareDrains(model: readonly Drain[], kernel: readonly Drain[], away: number): number {
  for (let i = 0; i < kernel.length; i++) {
    const k = kernel[i];
    const m = model[i];
    if (!k) break;
    if (!m || m.op > k.op) return -1;
    if (m.op < k.op) return 1;
    if (m.pages === k.pages) continue;
    if (i === 0 && kernel.length > 1) return away;
    return m.pages < k.pages ? 1 : -1;
  }
  return 0;
}

/** The count in [lo, hi] whose replay gives the kernel's first drains, found by bisection; null if none. */
function bisectCount(sign: (count: number) => number, lo: number, hi: number): number | null {
  if (sign(lo) > 0 || sign(hi) < 0) return null;
  // sign(lo) <= 0 <= sign(hi); at most log2(hi - lo) + 1 more replays
  for (let i = 0; i < 32 && lo <= hi; i++) {
    const mid = Math.floor((lo + hi) / 2);
    const s = sign(mid);
    if (s === 0) return mid;
    if (s > 0) hi = mid - 1;
    else lo = mid + 1;
  }
  return null;
}

/** A pageset's count at the trace's start, as its first drains show it. */
export interface FoundCount {
  cpu: number;
  node: number;
  zone: number;
  count: number;
}

/**
 * The capture's replay (captureReplay) with each auto-tuned pageset's count at the trace's start
 * found from its first drains (see the top of this file); `found` gets the counts that differ
 * from zoneinfo's.
 */
export function captureReplayCounted(
  core: Core,
  files: CaptureTexts,
  eventCapacity: number,
  found?: FoundCount[],
): CaptureReplay {
  const first = captureReplay(files, eventCapacity);
  const zones = parseZoneinfo(files.zoneinfo);
  if (!first.ok || !zones.ok || first.config.machine.kind !== 'explicit') return first;
  const captured = first.config.machine.captured;
  if (!captured) return first;
  const kernel = kernelDrains(first, files.trace);
  const counts = new Map<string, number>();
  // in the order of their first drains: a pageset found holds for those after it
  const firstOp = (key: string) => kernel.get(key)?.[0]?.op ?? 0;
  const pagesets = captured.pcps
    .map((pcp) => ({ pcp, key: pcpKey(pcp.cpu, pcp.node, pcp.zone) }))
    .filter(({ key }) => kernel.has(key))
    .sort((a, b) => firstOp(a.key) - firstOp(b.key));
  for (const { pcp, key } of pagesets) {
    const drains = kernel.get(key) ?? [];
    const figures = zones.zones
      .find((z) => z.node === pcp.node && z.idx === pcp.zone)
      ?.pagesets.find((p) => p.cpu === pcp.cpu)?.figures;
    const batch = figures?.get('batch');
    const highMin = figures?.get('high_min');
    const highMax = figures?.get('high_max');
    // a fixed high: pcp-from-trace reads the count from the drains themselves
    if (!batch || highMin === undefined || highMax === undefined || highMin === highMax) continue;
    const to = Math.max(...drains.map((d) => d.op));
    const sign = (count: number): number => {
      const r = withPcpCounts(first, files, new Map([...counts, [key, count]]));
      return compareDrains(modelDrains(core, r, key, to), drains, count < pcp.count ? -1 : 1);
    };
    const atZoneinfo = sign(pcp.count);
    if (atZoneinfo === 0) continue;
    const slack = batch << PCP_BATCH_SCALE_MAX;
    const count =
      atZoneinfo > 0
        ? bisectCount(sign, Math.max(0, pcp.count - slack), pcp.count - 1)
        : bisectCount(sign, pcp.count + 1, Math.min(highMax, pcp.count + slack));
    if (count === null) continue;
    counts.set(key, count);
    found?.push({ cpu: pcp.cpu, node: pcp.node, zone: pcp.zone, count });
  }
  return counts.size ? withPcpCounts(first, files, counts) : first;
}
