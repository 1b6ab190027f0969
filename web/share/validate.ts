/*
 * validate.ts: a link's decoded JSON checked field by field before anything uses it. A link is
 * input from anyone: a wrong type or an absurd number must end as a message, never reach the core.
 */
import {
  isProfileName,
  MAX_CPUS,
  MAX_CPUS_PER_NODE,
  MAX_FRAMES,
  MAX_NR_ZONES,
  MAX_NUMNODES,
  MAX_PAGE_ORDER_LIMIT,
  MAX_PCP_BATCH,
  frameStampProblem,
  zoneListProblem,
  type CapturedPcp,
  type CapturedState,
  type CapturedZone,
  type ExplicitMachine,
  type ZoneSpan,
} from '../core/machine-config';
import { MAX_OPS, MAX_SOURCE_CHARS } from '../workload/limits';
import type { ShareState } from './state';

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function int(v: unknown, lo: number, hi: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
}

function checkZone(z: unknown): ZoneSpan | null {
  if (!isObject(z)) return null;
  const { startPfn, spanned, present, managed } = z;
  const U32 = 0xffffffff;
  if (
    !int(startPfn, 0, U32) ||
    !int(spanned, 0, U32) ||
    !int(present, 0, U32) ||
    !int(managed, 0, MAX_FRAMES)
  )
    return null;
  if (managed > present || present > spanned || startPfn + spanned > U32) return null;
  return { startPfn, spanned, present, managed };
}

/** A captured state for a machine of this shape (nodes, CPUs, orders), or null. */
function checkCaptured(
  c: unknown,
  nodes: number,
  cpus: number,
  maxOrder: number,
): CapturedState | null {
  if (!isObject(c) || !Array.isArray(c.zones) || !Array.isArray(c.pcps)) return null;
  if (c.zones.length > nodes * MAX_NR_ZONES || c.pcps.length > cpus * nodes * MAX_NR_ZONES)
    return null;
  const zones: CapturedZone[] = [];
  for (const z of c.zones as unknown[]) {
    if (!isObject(z) || !int(z.node, 0, nodes - 1) || !int(z.zone, 0, MAX_NR_ZONES - 1))
      return null;
    const { free, pageblocks, lru, boost } = z;
    if (!Array.isArray(free) || free.length > 5) return null;
    const rows: number[][] = [];
    for (const row of free as unknown[]) {
      if (!Array.isArray(row) || row.length > maxOrder + 1) return null;
      if (!row.every((n) => int(n, 0, MAX_FRAMES))) return null;
      rows.push(row as number[]);
    }
    if (
      pageblocks !== null &&
      (!Array.isArray(pageblocks) ||
        pageblocks.length > 5 ||
        !pageblocks.every((n) => int(n, 0, MAX_FRAMES)))
    )
      return null;
    if (
      lru !== undefined &&
      (!Array.isArray(lru) || lru.length !== 4 || !lru.every((n) => int(n, 0, MAX_FRAMES)))
    )
      return null;
    if (boost !== undefined && !int(boost, 1, MAX_FRAMES)) return null;
    zones.push({
      node: z.node,
      zone: z.zone,
      free: rows,
      pageblocks: pageblocks === null ? null : (pageblocks as number[]),
      ...(lru !== undefined ? { lru: lru as number[] } : {}),
      ...(boost !== undefined ? { boost } : {}),
    });
  }
  const pcps: CapturedPcp[] = [];
  for (const p of c.pcps as unknown[]) {
    if (
      !isObject(p) ||
      !int(p.cpu, 0, cpus - 1) ||
      !int(p.node, 0, nodes - 1) ||
      !int(p.zone, 0, MAX_NR_ZONES - 1)
    )
      return null;
    if (!int(p.count, 0, MAX_FRAMES) || !int(p.high, 0, 0x7fffffff)) return null;
    const pcp: CapturedPcp = {
      cpu: p.cpu,
      node: p.node,
      zone: p.zone,
      count: p.count,
      high: p.high,
    };
    if (p.lists !== undefined) {
      if (!Array.isArray(p.lists) || p.lists.length > 64) return null;
      const lists: NonNullable<CapturedPcp['lists']> = [];
      for (const l of p.lists as unknown[]) {
        if (
          !isObject(l) ||
          !int(l.order, 0, maxOrder) ||
          !int(l.mt, 0, 2) ||
          !int(l.blocks, 0, MAX_FRAMES)
        )
          return null;
        lists.push({ order: l.order, mt: l.mt, blocks: l.blocks });
      }
      pcp.lists = lists;
    }
    pcps.push(pcp);
  }
  return { zones, pcps };
}

/** An explicit machine as the core accepts it, or why not. */
export function checkMachine(m: unknown): Checked<ExplicitMachine> {
  const bad = (why: string): Checked<ExplicitMachine> => ({
    ok: false,
    message: `its machine ${why}`,
  });
  if (!isObject(m) || m.kind !== 'explicit') return bad('is not an explicit machine');
  const { nodes, cpusPerNode, maxOrder, pageblockOrder, thp, batch, zones, captured } = m;
  if (!int(nodes, 1, MAX_NUMNODES)) return bad(`needs 1..${MAX_NUMNODES} nodes`);
  if (!int(cpusPerNode, 1, MAX_CPUS_PER_NODE))
    return bad(`needs 1..${MAX_CPUS_PER_NODE} CPUs per node`);
  if (nodes * cpusPerNode > MAX_CPUS) return bad(`needs at most ${MAX_CPUS} CPUs in all`);
  if (!int(maxOrder, 1, MAX_PAGE_ORDER_LIMIT))
    return bad(`needs max_order 1..${MAX_PAGE_ORDER_LIMIT}`);
  if (!int(pageblockOrder, 0, maxOrder)) return bad('needs pageblock_order 0..max_order');
  if (typeof thp !== 'boolean') return bad('needs thp true or false');
  if (batch !== undefined && !int(batch, 1, MAX_PCP_BATCH))
    return bad(`needs batch 1..${MAX_PCP_BATCH}`);
  if (!Array.isArray(zones) || zones.length !== nodes) return bad('needs one zone list per node');
  const spans: ZoneSpan[][] = [];
  let managed = 0;
  for (const row of zones) {
    if (!Array.isArray(row) || row.length > MAX_NR_ZONES)
      return bad(`needs at most ${MAX_NR_ZONES} zones per node`);
    const out: ZoneSpan[] = [];
    for (const z of row) {
      const span = checkZone(z);
      if (!span) return bad('has a zone whose spans are not managed <= present <= spanned');
      managed += span.managed;
      out.push(span);
    }
    const problem = zoneListProblem(out, spans.length);
    if (problem) return bad(`is refused: ${problem.message}`);
    spans.push(out);
  }
  if (managed === 0 || managed > MAX_FRAMES) return bad(`needs 1..${MAX_FRAMES} managed pages`);
  const high = frameStampProblem(spans, maxOrder);
  if (high) return bad(`is refused: ${high.message}`);
  const machine: ExplicitMachine = {
    kind: 'explicit',
    nodes,
    cpusPerNode,
    maxOrder,
    pageblockOrder,
    thp,
    zones: spans,
  };
  if (batch !== undefined) machine.batch = batch;
  if (captured !== undefined) {
    const c = checkCaptured(captured, nodes, nodes * cpusPerNode, maxOrder);
    if (!c) return bad('has a captured state that is not counts of its own zones and CPUs');
    machine.captured = c;
  }
  return { ok: true, value: machine };
}

/** The state of a format-1 payload: {t: text, x: machine or null, p: [op, event], v: {c: profile or null}}. */
export function checkFormat1(json: unknown): Checked<ShareState> {
  const bad = (message: string): Checked<ShareState> => ({ ok: false, message });
  if (!isObject(json)) return bad('its payload is not an object');
  const { t, x, p, v } = json;
  if (typeof t !== 'string') return bad('it carries no workload text');
  if (t.length > MAX_SOURCE_CHARS) return bad('its workload is above the 16 MiB limit');
  let machine = null;
  if (x !== null && x !== undefined) {
    const m = checkMachine(x);
    if (!m.ok) return m;
    machine = m.value;
  }
  if (!Array.isArray(p) || p.length !== 2 || !int(p[0], 0, MAX_OPS) || !int(p[1], -1, 0x7fffffff)) {
    return bad('its timeline position is not [op, event]');
  }
  let compare = null;
  if (v !== undefined) {
    if (!isObject(v)) return bad('its views are not an object');
    if (v.c !== null && v.c !== undefined) {
      if (typeof v.c !== 'string' || !isProfileName(v.c))
        return bad('its comparison names no known kernel profile');
      compare = v.c;
    }
  }
  return {
    ok: true,
    value: { text: t, machine, position: { op: p[0], event: p[1] }, views: { compare } },
  };
}
