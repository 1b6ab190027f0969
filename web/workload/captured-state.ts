/*
 * captured-state.ts: the state a real machine was in, from its /proc files, as the core's capture
 * ops (page_alloc/capture.c, reclaim/capture.c). zoneinfo gives each zone's free pages, its LRU
 * sizes and each pageset's count and high; buddyinfo, when given, the free blocks per order; pagetypeinfo, when given, the free
 * blocks per order and migratetype and the pageblocks per type. The finest source wins; the
 * rest of the memory is in use. Every complaint names the file, line and column.
 */
import {
  MAX_NR_ZONES,
  ZONE_NAMES,
  type CapturedState,
  type ExplicitMachine,
  type Tunables,
} from '../core/machine-config';
import type { WorkloadError } from './errors';
import { parseBuddyinfo, parsePagetypeinfo } from './free-blocks';
import { machineFromZoneinfo, parseZoneinfo, type ZoneinfoZone } from './zoneinfo-machine';

const MIGRATE_MOVABLE = 1;
/** zoneinfo's per-zone LRU sizes, in enum lru_list order. */
const LRU_FIGURES = [
  'nr_zone_inactive_anon',
  'nr_zone_active_anon',
  'nr_zone_inactive_file',
  'nr_zone_active_file',
] as const;

/** A capture's files, by what the user calls them (for messages). */
export interface CaptureTexts {
  buddyinfo?: { name: string; text: string };
  pagetypeinfo?: { name: string; text: string };
}

export type CapturedResult =
  { ok: true; state: CapturedState } | { ok: false; file: string; error: WorkloadError };

/** Free blocks of pages: the largest blocks first (what a zone with only "pages free" is given). */
function blocksOfPages(pages: number, maxOrder: number): number[] {
  const free = new Array<number>(maxOrder + 1).fill(0);
  free[maxOrder] = Math.floor(pages / 2 ** maxOrder);
  let rest = pages % 2 ** maxOrder;
  for (let order = maxOrder - 1; order >= 0; order--) {
    if (rest >= 2 ** order) {
      free[order] = 1;
      rest -= 2 ** order;
    }
  }
  return free;
}

/**
 * The captured state of the zones zoneinfo lists, refined by buddyinfo and pagetypeinfo when
 * given. maxOrder and pageblockOrder are the machine's: tables of other shapes are refused.
 */
export function capturedState(
  zoneinfoName: string,
  zones: ZoneinfoZone[],
  texts: CaptureTexts,
  maxOrder: number,
  pageblockOrder: number,
): CapturedResult {
  const key = (node: number, zone: number) => node * MAX_NR_ZONES + zone;
  const populated = new Map<number, ZoneinfoZone>();
  for (const z of zones)
    if ((z.figures.get('managed') ?? 0) > 0) populated.set(key(z.node, z.idx), z);
  const state: CapturedState = { zones: [], pcps: [] };
  const free = new Map<number, number[][]>(); // [migratetype][order]
  const blocks = new Map<number, number[]>();
  const fail = (file: string, error: WorkloadError): CapturedResult => ({ ok: false, file, error });
  const unknownZone = (file: string, line: number, node: number, zone: number) =>
    fail(file, {
      line,
      col: 1,
      message: `node ${node}, zone ${ZONE_NAMES[zone] ?? zone} has no managed pages in ${zoneinfoName}: are these files from the same machine?`,
    });

  for (const [k, z] of populated) {
    const pages = z.figures.get('pages free');
    if (pages === undefined)
      return fail(zoneinfoName, {
        line: z.line,
        col: 1,
        message: `zone ${ZONE_NAMES[z.idx] ?? z.idx} of node ${z.node} lacks its "pages free" line`,
      });
    const perType = Array.from({ length: 5 }, () => new Array<number>(maxOrder + 1).fill(0));
    perType[MIGRATE_MOVABLE] = blocksOfPages(pages, maxOrder);
    free.set(k, perType);
  }
  const shape = (file: string, line: number, n: number): CapturedResult | null =>
    n === maxOrder + 1
      ? null
      : fail(file, {
          line,
          col: 1,
          message: `expected ${maxOrder + 1} orders (0..${maxOrder}), found ${n}`,
        });

  if (texts.buddyinfo) {
    const { name, text } = texts.buddyinfo;
    const b = parseBuddyinfo(text);
    if (!b.ok) return fail(name, b.error);
    for (const z of b.value) {
      if (!populated.has(key(z.node, z.zone))) {
        if (z.free.every((n) => n === 0)) continue;
        return unknownZone(name, z.line, z.node, z.zone);
      }
      const bad = shape(name, z.line, z.free.length);
      if (bad) return bad;
      const perType = Array.from({ length: 5 }, () => new Array<number>(maxOrder + 1).fill(0));
      perType[MIGRATE_MOVABLE] = z.free;
      free.set(key(z.node, z.zone), perType);
    }
  }
  if (texts.pagetypeinfo) {
    const { name, text } = texts.pagetypeinfo;
    const p = parsePagetypeinfo(text);
    if (!p.ok) return fail(name, p.error);
    if (p.value.pageblockOrder !== null && p.value.pageblockOrder !== pageblockOrder)
      return fail(name, {
        line: 1,
        col: 1,
        message: `pageblock order ${p.value.pageblockOrder}: the machine's is ${pageblockOrder}`,
      });
    for (const z of p.value.zones) {
      const k = key(z.node, z.zone);
      if (!populated.has(k)) {
        if (
          z.free.every((row) => row.every((n) => n === 0)) &&
          (z.blocks ?? []).every((n) => n === 0)
        )
          continue;
        return unknownZone(name, z.line, z.node, z.zone);
      }
      if (z.free.some((row) => row.length > 0)) {
        for (const row of z.free) {
          if (row.length === 0) continue;
          const bad = shape(name, z.line, row.length);
          if (bad) return bad;
        }
        free.set(
          k,
          z.free.map((row) => (row.length ? row : new Array<number>(maxOrder + 1).fill(0))),
        );
      }
      if (z.blocks) blocks.set(k, z.blocks);
    }
  }
  for (const [k, z] of populated) {
    const lru = LRU_FIGURES.map((name) => z.figures.get(name) ?? 0);
    const boost = z.figures.get('boost') ?? 0;
    state.zones.push({
      node: z.node,
      zone: z.idx,
      free: free.get(k) ?? [],
      pageblocks: blocks.get(k) ?? null,
      ...(lru.some((n) => n > 0) ? { lru } : {}),
      ...(boost > 0 ? { boost } : {}),
    });
    for (const p of z.pagesets) {
      state.pcps.push({
        cpu: p.cpu,
        node: z.node,
        zone: z.idx,
        count: p.figures.get('count') ?? 0,
        high: p.figures.get('high') ?? 0,
      });
    }
  }
  return { ok: true, state };
}

export type CaptureMachineResult =
  | { ok: true; machine: ExplicitMachine; cpus: number }
  | { ok: false; file: string; error: WorkloadError };

/**
 * A machine from a capture, in the captured state: zoneinfo's zones and CPUs (zoneinfo-machine.ts)
 * booted with zoneinfo's free pages and pagesets, refined by buddyinfo and pagetypeinfo if given.
 */
export function machineFromCapture(
  zoneinfo: { name: string; text: string },
  texts: CaptureTexts,
): CaptureMachineResult {
  const z = parseZoneinfo(zoneinfo.text);
  if (!z.ok) return { ok: false, file: zoneinfo.name, error: z.error };
  const m = machineFromZoneinfo(z.zones);
  if (!m.ok) return { ok: false, file: zoneinfo.name, error: m.error };
  const c = capturedState(
    zoneinfo.name,
    z.zones,
    texts,
    m.machine.maxOrder,
    m.machine.pageblockOrder,
  );
  if (!c.ok) return c;
  return { ok: true, machine: { ...m.machine, captured: c.state }, cpus: m.cpus };
}

/**
 * vm.min_free_kbytes as the zones' min watermarks show it (less their boost, which zoneinfo adds
 * in), for a capture without its sysctls:
 * __setup_per_zone_wmarks gives each zone pages_min * managed / lowmem_pages (rounded down), so
 * pages_min is the sum of the zones' mins plus at most one page lost per zone; the first value
 * that gives every zone its min is the kernel's. null when none does (a highmem machine, or
 * figures edited by hand).
 */
export function minFreeKbytesFromZoneinfo(zones: ZoneinfoZone[]): number | null {
  const managed = zones.filter((z) => (z.figures.get('managed') ?? 0) > 0);
  const lowmem = managed.reduce((n, z) => n + (z.figures.get('managed') ?? 0), 0);
  // zoneinfo prints the marks with the zone's watermark_boost added (min_wmark_pages)
  const min = (z: ZoneinfoZone) => (z.figures.get('min') ?? 0) - (z.figures.get('boost') ?? 0);
  const sum = managed.reduce((n, z) => n + min(z), 0);
  if (lowmem === 0 || managed.some((z) => z.figures.get('min') === undefined)) return null;
  for (let pagesMin = sum; pagesMin <= sum + managed.length; pagesMin++) {
    const fits = managed.every(
      (z) =>
        Number((BigInt(pagesMin) * BigInt(z.figures.get('managed') ?? 0)) / BigInt(lowmem)) ===
        min(z),
    );
    // PAGE_SHIFT - 10 = 2: four KiB per page
    if (fits) return pagesMin * 4;
  }
  return null;
}

/** Tunables from `sysctl vm` text ("vm.NAME = VALUE" lines); unknown names are left alone. */
export function tunablesFromSysctl(
  text: string,
): { ok: true; tunables: Partial<Tunables> } | { ok: false; error: WorkloadError } {
  const t: Partial<Tunables> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const m = /^\s*vm\.([\w-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m)
      return {
        ok: false,
        error: {
          line: i + 1,
          col: 1,
          message: 'expected "vm.NAME = VALUE" (the output of sysctl vm)',
        },
      };
    const name = m[1] ?? '';
    const values = (m[2] ?? '').split(/\s+/);
    const field = SYSCTL_TUNABLES[name];
    if (!field) continue;
    const nums = values.map((v) => (/^-?\d{1,10}$/.test(v) ? Number(v) : NaN));
    const bad = nums.findIndex((n) => Number.isNaN(n));
    if (bad >= 0)
      return {
        ok: false,
        error: {
          line: i + 1,
          col: line.indexOf(values[bad] ?? '') + 1,
          message: `expected a number for vm.${name}, found "${values[bad] ?? ''}"`,
        },
      };
    if (field === 'lowmemReserveRatio') t.lowmemReserveRatio = nums;
    else t[field] = nums[0] ?? 0;
  }
  return { ok: true, tunables: t };
}

/** The vm sysctls a machine boots with, by their /proc/sys/vm names. */
const SYSCTL_TUNABLES: Record<string, keyof Tunables | undefined> = {
  min_free_kbytes: 'minFreeKbytes',
  watermark_scale_factor: 'watermarkScaleFactor',
  watermark_boost_factor: 'watermarkBoostFactor',
  percpu_pagelist_high_fraction: 'percpuPagelistHighFraction',
  lowmem_reserve_ratio: 'lowmemReserveRatio',
  zone_reclaim_mode: 'zoneReclaimMode',
};
