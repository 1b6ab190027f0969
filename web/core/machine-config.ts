/*
 * machine-config.ts: what a Sim is built from, as a TypeScript object: a named machine of the
 * core (sim_config_preset) or explicit nodes, CPUs and zone spans, a kernel profile, tunables.
 * Sim writes it into a struct sim_config through the layout the wasm publishes.
 */
import { MAX_FRAME_STAMPS, PRESETS } from './generated/machine';

import { PROFILE_NAMES, type ProfileName } from './generated/profile-names';

/** The profile names, index = enum profile_id (base/profiles.def). */
export { PROFILE_NAMES, type ProfileName };

/** enum zone_type of x86-64 with ZONE_DEVICE: index = zone_idx. */
export const ZONE_NAMES = ['DMA', 'DMA32', 'Normal', 'Movable', 'Device'] as const;
export type ZoneName = (typeof ZONE_NAMES)[number];
export const MAX_NR_ZONES = ZONE_NAMES.length;

/** The model's limits and named machines: generated from wasm-core/src/base/machine.def. */
export {
  DEFAULT_EVENT_CAPACITY,
  DEFAULT_MAX_HANDLES,
  MAX_CPUS,
  MAX_CPUS_PER_NODE,
  MAX_EVENT_CAPACITY,
  MAX_FRAMES,
  MAX_FRAME_STAMPS,
  MAX_HANDLES_LIMIT,
  MAX_NUMNODES,
  MAX_PAGEBLOCKS,
  MAX_PAGE_ORDER_LIMIT,
  MAX_PCP_BATCH,
  MAX_SWAP_PAGES,
  MAX_TICKS_PER_OP,
  PCP_BATCH_SCALE_MAX,
  PRESETS,
} from './generated/machine';
export type PresetName = keyof typeof PRESETS;

export function isPresetName(name: string): name is PresetName {
  return Object.prototype.hasOwnProperty.call(PRESETS, name);
}

export function isProfileName(name: string): name is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(name);
}

/** struct zone_config: one zone's pfn span. */
export interface ZoneSpan {
  startPfn: number; // zone_start_pfn
  spanned: number; // spanned_pages, holes included
  present: number; // present_pages
  managed: number; // managed_pages: frames the model materialises; 0 = unpopulated
}

/** zone_idx of ZONE_DEVICE. */
const ZONE_DEVICE = ZONE_NAMES.indexOf('Device');

/**
 * What the core refuses in one node's zone list beyond each zone's own spans (config_valid in
 * wasm-core/src/base/machine.c): a Device zone with managed pages, and zones out of pfn order or
 * overlapping. Every importer of machines (links, zoneinfo files) asks this one rule, so a machine
 * the core would refuse is refused where it came in, naming the zone. Null when the list is sound.
 */
export function zoneListProblem(
  zones: readonly ZoneSpan[],
  node: number,
): { zone: number; message: string } | null {
  let prevEnd = 0;
  let prev = -1;
  for (let zid = 0; zid < zones.length; zid++) {
    const z = zones[zid];
    if (!z || (!z.spanned && !z.managed)) continue;
    const name = `zone ${ZONE_NAMES[zid] ?? zid} of node ${node}`;
    if (zid === ZONE_DEVICE && z.managed)
      return {
        zone: zid,
        message: `${name} has ${z.managed} managed pages: ZONE_DEVICE memory is never given to the page allocator`,
      };
    if (z.startPfn < prevEnd)
      return {
        zone: zid,
        message: `${name} starts at pfn ${z.startPfn}, inside zone ${ZONE_NAMES[prev] ?? prev} (which ends at ${prevEnd}): a node's zones follow one another in pfn order`,
      };
    prevEnd = z.startPfn + z.spanned;
    prev = zid;
  }
  return null;
}

/**
 * What the core refuses in where a machine's memory ends (config_valid): it keeps one change stamp
 * per max-order block from pfn 0 to the end of the highest zone with pages, at most
 * MAX_FRAME_STAMPS, so a zone near the top of the 32-bit pfn range needs a large max order.
 * Null when the machine is within the limit; else the node and zone that end too high.
 */
export function frameStampProblem(
  zones: readonly (readonly ZoneSpan[])[],
  maxOrder: number,
): { node: number; zone: number; message: string } | null {
  for (let node = 0; node < zones.length; node++) {
    const row = zones[node] ?? [];
    for (let zid = 0; zid < row.length; zid++) {
      const z = row[zid];
      if (!z?.managed) continue;
      const end = z.startPfn + z.spanned;
      const stamps = Math.ceil(end / 2 ** maxOrder);
      if (stamps > MAX_FRAME_STAMPS)
        return {
          node,
          zone: zid,
          message: `zone ${ZONE_NAMES[zid] ?? zid} of node ${node} ends at pfn ${end}: with max_order ${maxOrder} the model would keep ${stamps} change stamps (one per block of 2^max_order pages from pfn 0), above its limit of ${MAX_FRAME_STAMPS}; a larger max_order or lower pfns fit`,
        };
    }
  }
  return null;
}

/** One zone as a capture showed it: free blocks per migratetype and order, pageblocks per type. */
export interface CapturedZone {
  node: number;
  zone: number; // zone_idx
  free: number[][]; // [migratetype][order]: free blocks; empty rows: none
  pageblocks: number[] | null; // [migratetype]; null: unknown (in-use memory then UNMOVABLE)
  lru?: number[]; // pages per enum lru_list (inactive/active anon, inactive/active file); absent: none
  boost?: number; // watermark_boost (zoneinfo's "boost"); absent: 0
}

/** One pageset as zoneinfo showed it. */
export interface CapturedPcp {
  cpu: number;
  node: number;
  zone: number;
  count: number; // pages on the lists
  high: number;
  lists?: { order: number; mt: number; blocks: number }[]; // which lists hold them; absent: order-0 MOVABLE
}

/** A memory cgroup of a captured machine, in mem_cgroup_iter's order (reclaim/memcg.c). */
export interface CapturedMemcg {
  ino: number; // its cgroup's inode number (0: an offline one, whose inode no file names)
  online: boolean;
}

/** Folios of one order on one list of one memcg in one zone (an lru-state file's counts). */
export interface CapturedFolios {
  node: number;
  zone: number; // zone_idx
  memcg: number; // index into CapturedState.memcgs
  lru: number; // enum lru_list
  order: number;
  count: number;
}

/** A block the kernel's reclaim freed in a capture's trace that was in use before it (lru-tail.ts). */
export interface ReclaimedFolio {
  node: number;
  zone: number; // zone_idx
  order: number;
}

/** The state a real machine was in (web/workload/captured-state.ts builds it from /proc files). */
export interface CapturedState {
  zones: CapturedZone[];
  pcps: CapturedPcp[];
  /** with an lru-state file: the memcgs (the root first) and the LRU folios, which then stand
   * for the zones' `lru` page counts */
  memcgs?: CapturedMemcg[];
  folios?: CapturedFolios[];
  /** what the trace replayed on it shows reclaim freeing of this memory, in order: the folios at
   * the tails of the LRU lists (lru-tail.ts) */
  reclaimed?: ReclaimedFolio[];
  /** the nodes whose workingset refaults of a type moved since reclaim last took its snapshot, so
   * that its next scan ages that type's active lists (a trace's first kswapd pass shows it) */
  refaults?: NodeRefaults[];
}

/** Which of a node's refault counters moved since reclaim last ran (the kernel compares them with
 * target_lruvec->refaults; the model keeps no refaults). */
export interface NodeRefaults {
  node: number;
  anon: boolean;
  file: boolean;
}

/** An explicit machine: nodes, CPUs and zone spans. */
export interface ExplicitMachine {
  kind: 'explicit';
  nodes: number; // 1 .. MAX_NUMNODES
  cpusPerNode: number; // 1 .. MAX_CPUS_PER_NODE
  maxOrder: number; // MAX_PAGE_ORDER
  pageblockOrder: number;
  thp: boolean;
  batch?: number; // teaching override of every zone's pcp batch (not a kernel knob); absent = zone_batchsize()
  swap?: number; // swap space in pages; absent = none
  zones: ZoneSpan[][]; // [node][zone_idx]; missing entries are empty zones
  captured?: CapturedState; // boot into this state instead of with every page free
}

/** A machine the core knows by name. */
export interface PresetMachine {
  kind: 'preset';
  name: PresetName;
}

/** Sysctls the machine boots with (unset ones keep the preset's or the kernel's default). */
export interface Tunables {
  minFreeKbytes: number; // -1: the kernel's own rule
  watermarkScaleFactor: number;
  watermarkBoostFactor: number;
  percpuPagelistHighFraction: number;
  lowmemReserveRatio: number[]; // per zone_idx
  zoneReclaimMode: number;
}

/** Everything a Sim is created from. */
export interface MachineConfig {
  machine: PresetMachine | ExplicitMachine;
  profile?: ProfileName; // default 6.18
  tunables?: Partial<Tunables>;
  seed?: bigint;
  maxHandles?: number; // handle table entries; default: the core's
  percpuHandles?: number; // percpu handle table entries (the highest percpu handle + 1); default: the core's
  eventCapacity?: number; // events kept between clears; default: the core's
  percpuPeakKib?: number; // the most percpu KiB per unit held at once: sizes the core's chunk table
  percpuStaticSize?: number; // static percpu bytes of the kernel image; default: the core's (185560)
}

/** How many CPUs a machine has (before the wasm is loaded). */
export function machineCpuCount(m: PresetMachine | ExplicitMachine): number {
  if (m.kind === 'preset') return PRESETS[m.name].nodes * PRESETS[m.name].cpusPerNode;
  return m.nodes * m.cpusPerNode;
}

/** The populated zone of m whose span holds pfn, as node and zone_idx; null when none does. */
export function zoneOfPfn(m: ExplicitMachine, pfn: number): { node: number; zone: number } | null {
  for (let node = 0; node < m.zones.length; node++) {
    const row = m.zones[node] ?? [];
    for (let zone = 0; zone < row.length; zone++) {
      const z = row[zone];
      if (z && z.managed && pfn >= z.startPfn && pfn < z.startPfn + z.spanned)
        return { node, zone };
    }
  }
  return null;
}

/** MAX_PAGE_ORDER of a machine. */
export function machineMaxOrder(m: PresetMachine | ExplicitMachine): number {
  return m.kind === 'preset' ? PRESETS[m.name].maxOrder : m.maxOrder;
}

/** Whether two configs build the same machine (then a new op list is a branch, not a new run). */
export function sameMachine(a: MachineConfig, b: MachineConfig): boolean {
  const key = (c: MachineConfig) =>
    JSON.stringify(
      { ...c, seed: c.seed === undefined ? null : String(c.seed) },
      (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v),
    );
  return key(a) === key(b);
}
