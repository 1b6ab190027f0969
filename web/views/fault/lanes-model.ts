/*
 * lanes-model.ts: what the CPU-lanes view draws, as plain numbers: one row per CPU that ran a
 * thread, its kept segments placed on a common window of virtual time (percent of the width),
 * the axis ticks, the segment the current event belongs to, and each lane's totals. The window
 * runs from the earliest kept segment of any lane to the latest, so every lane's present is in
 * it however far the CPUs' clocks drift apart; a lane keeps only its last laneSegs segments, and
 * where a busy lane's older stretches are gone the view hatches the gap. Zoomed, the window
 * narrows to the op at the cursor. D3 does the scale; the view only places boxes.
 */
import { scaleLinear } from 'd3-scale';
import type { FaultCpuState, FaultState, LaneSegment } from '../../core/fault-reader';
import { LANE, LANE_STATES } from '../../core/generated/lanes';
import type { SimEvent } from '../model';

export interface PlacedSegment extends LaneSegment {
  left: number; // percent of the lane's width
  width: number; // percent, clipped to the window
  current: boolean; // the current event is one of its events
  inOp: boolean; // the op at the cursor ran it
}

export interface LaneRow {
  cpu: number;
  mm: number | null;
  segments: PlacedSegment[];
  /** Older segments of this lane were dropped from its ring: the time before its first is unknown. */
  truncated: boolean;
  /** Virtual ns of the kept segments by state id (the lane's summary). */
  byState: number[];
  cpuState: FaultCpuState;
}

export interface LaneTick {
  ns: number;
  left: number;
  label: string;
}

export interface LanesLayout {
  fromNs: number;
  toNs: number;
  rows: LaneRow[];
  ticks: LaneTick[];
  /** The segment the current event falls in, if it is on a lane. */
  current: { cpu: number; segment: PlacedSegment } | null;
  /** The op at the cursor ran segments: the window can zoom to them. */
  opSpan: { fromNs: number; toNs: number } | null;
}

/** Virtual nanoseconds in words a timeline prints: "850 ns", "12.5 µs", "3.20 ms". */
export function formatNs(ns: number): string {
  if (ns < 1000) return `${Math.round(ns)} ns`;
  if (ns < 1e6) return `${+(ns / 1e3).toFixed(ns < 1e4 ? 2 : 1)} µs`;
  if (ns < 1e9) return `${+(ns / 1e6).toFixed(2)} ms`;
  return `${+(ns / 1e9).toFixed(3)} s`;
}

/** A state's label ("waiting for mmap_lock (read)"). */
export function laneLabel(state: number): string {
  return LANE_STATES[state]?.label ?? `state ${state}`;
}

/** Whether a state is a wait (what "who waits for whom" is about). */
export function isWait(state: number): boolean {
  return state === LANE.WAIT_MMAP_READ || state === LANE.WAIT_MMAP_WRITE || state === LANE.WAIT_VMA;
}

/** Does the event belong to this segment: one of its events, or of its op on its CPU. */
function holds(s: LaneSegment, cpu: number, e: SimEvent): boolean {
  return e.cpu === cpu && e.seq >= s.seqFrom && e.seq < s.seqTo;
}

/**
 * The layout of fault's lanes with the current event; zoom: the window is the op at the cursor's
 * segments (with a margin either side) instead of the lanes' common history.
 */
export function laneLayout(
  fault: FaultState,
  event: SimEvent | null,
  op: number | null,
  zoom = false,
): LanesLayout {
  const lanes = fault.cpus.filter((c) => c.threadMm !== null || c.lane.length > 0);
  let toNs = 0;
  let fromNs = Infinity;
  let opFrom = Infinity;
  let opTo = 0;
  for (const c of lanes) {
    const first = c.lane[0];
    const last = c.lane[c.lane.length - 1];
    if (!first || !last) continue;
    toNs = Math.max(toNs, last.toNs);
    fromNs = Math.min(fromNs, first.fromNs);
    for (const s of c.lane)
      if (op !== null && s.op === op) {
        opFrom = Math.min(opFrom, s.fromNs);
        opTo = Math.max(opTo, s.toNs);
      }
  }
  if (!Number.isFinite(fromNs)) fromNs = 0;
  const opSpan = opTo > opFrom ? { fromNs: opFrom, toNs: opTo } : null;
  if (zoom && opSpan) {
    const margin = Math.max((opSpan.toNs - opSpan.fromNs) / 10, 200);
    fromNs = Math.max(fromNs, opSpan.fromNs - margin);
    toNs = Math.min(toNs, opSpan.toNs + margin);
  }
  if (toNs <= fromNs) toNs = fromNs + 1000;
  const x = scaleLinear().domain([fromNs, toNs]).range([0, 100]);
  let current: LanesLayout['current'] = null;
  const rows = lanes.map((c): LaneRow => {
    const byState = LANE_STATES.map(() => 0);
    const segments: PlacedSegment[] = [];
    for (const s of c.lane) {
      byState[s.state] = (byState[s.state] ?? 0) + (s.toNs - s.fromNs);
      if (s.toNs <= fromNs || s.fromNs >= toNs) continue;
      const a = x(Math.max(s.fromNs, fromNs));
      const b = x(Math.min(s.toNs, toNs));
      const placed: PlacedSegment = {
        ...s,
        left: a,
        width: b - a,
        current: event !== null && holds(s, c.cpu, event),
        inOp: op !== null && s.op === op,
      };
      if (placed.current) current = { cpu: c.cpu, segment: placed };
      segments.push(placed);
    }
    return {
      cpu: c.cpu,
      mm: c.threadMm,
      segments,
      truncated: c.laneCount > c.lane.length && (c.lane[0]?.fromNs ?? 0) > fromNs,
      byState,
      cpuState: c,
    };
  });
  // labels closer than a fifth of the width would run into each other on a narrow lane
  const ticks: LaneTick[] = [];
  for (const ns of x.ticks(4)) {
    const left = x(ns);
    const prev = ticks[ticks.length - 1];
    if (!prev || left - prev.left >= 21) ticks.push({ ns, left, label: formatNs(ns) });
  }
  return { fromNs, toNs, rows, ticks, current, opSpan };
}
