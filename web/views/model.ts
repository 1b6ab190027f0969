/*
 * model.ts: what views draw: the binding's ModelState (web/core/state.ts), read once per cursor
 * move, and small lookups over it. Views import their types from here, so they depend on one file.
 */
import type { ModelState, PcpState, ZoneState } from '../core/state';
import type { SimEvent } from '../core/events';

export type { SimEvent };
export type {
  CpuState,
  FrameArrays,
  FreeAreaState,
  ModelState,
  NodeState,
  PcpState,
  VmCounters,
  ZoneState,
} from '../core/state';
export { FC, PB_ISOLATE, PG } from '../core/state';

/** Every zone of every node, in node then zone order. */
export function allZones(s: ModelState): ZoneState[] {
  return s.nodes.flatMap((n) => n.zones);
}

export function findZone(s: ModelState, node: number, zone: number): ZoneState | undefined {
  return s.nodes[node]?.zones.find((z) => z.idx === zone);
}

export function findPcp(
  s: ModelState,
  cpu: number,
  node: number,
  zone: number,
): PcpState | undefined {
  return s.pcps.find((p) => p.cpu === cpu && p.node === node && p.zone === zone);
}
