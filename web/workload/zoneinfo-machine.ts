/*
 * zoneinfo-machine.ts: a real machine's /proc/zoneinfo
 * (docs/kernel/page_alloc/formats.md#e5-proczoneinfo) read back into the model's machine
 * description: nodes, zones with start_pfn, spanned, present and managed pages, and the CPU count
 * from the pagesets' `cpu:` blocks. The kernel's own figures (watermarks, protection, pcp batch
 * and high limits) are kept too, so the model's zoneinfo can be compared with them.
 */
import {
  MAX_CPUS,
  MAX_CPUS_PER_NODE,
  MAX_FRAMES,
  MAX_NUMNODES,
  MAX_NR_ZONES,
  ZONE_NAMES,
  frameStampProblem,
  zoneListProblem,
  type ExplicitMachine,
  type ZoneSpan,
} from '../core/machine-config';
import type { WorkloadError } from './errors';

/** MAX_PAGE_ORDER of the x86-64 kernels zoneinfo files come from (zoneinfo does not print it). */
const X86_64_MAX_PAGE_ORDER = 10;

export interface ZoneinfoPageset {
  cpu: number;
  figures: Map<string, number>; // count, high, batch, high_min, high_max
}

export interface ZoneinfoZone {
  node: number;
  idx: number; // enum zone_type
  line: number; // where its "Node N, zone NAME" line is
  figures: Map<string, number>; // pages free, boost, min, low, high, promo, spanned, present, managed, cma, start_pfn, nr_zone_{in,}active_{anon,file}
  protection: number[] | null;
  pagesets: ZoneinfoPageset[];
}

export type ZoneinfoResult =
  { ok: true; zones: ZoneinfoZone[] } | { ok: false; error: WorkloadError };

const HEADER = /^Node\s+(\d+),\s+zone\s+(\S+)\s*$/;
const FIGURE =
  /^\s+(pages free|boost|min|low|high|promo|spanned|present|managed|cma|nr_zone_(?:in)?active_(?:anon|file))\s+(-?\d+)\s*$/;
const PROTECTION = /^\s+protection:\s+\(([-\d,\s]*)\)\s*$/;
const CPU = /^\s+cpu:\s+(\d+)\s*$/;
const PCP_FIGURE = /^\s+(count|high|batch|high_min|high_max):\s+(-?\d+)\s*$/;
const START_PFN = /^\s+start_pfn:\s+(\d+)\s*$/;

/** Parse zoneinfo text; unknown lines (per-node stats, counters) are ignored. */
export function parseZoneinfo(text: string): ZoneinfoResult {
  const zones: ZoneinfoZone[] = [];
  const seen = new Map<number, number>(); // node * MAX_NR_ZONES + zone_idx -> its header's line
  let zone: ZoneinfoZone | null = null;
  let pageset: ZoneinfoPageset | null = null;
  let inPagesets = false;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const lineNo = i + 1;
    const fail = (message: string): ZoneinfoResult => ({
      ok: false,
      error: { line: lineNo, col: 1, message },
    });
    const header = HEADER.exec(line);
    if (header) {
      const idx = (ZONE_NAMES as readonly string[]).indexOf(header[2] ?? '');
      if (idx < 0)
        return fail(`unknown zone "${header[2] ?? ''}": expected ${ZONE_NAMES.join(', ')}`);
      const node = Number(header[1]);
      if (node >= MAX_NUMNODES)
        return fail(`node ${node} is above the model's limit of ${MAX_NUMNODES} nodes`);
      const first = seen.get(node * MAX_NR_ZONES + idx);
      if (first !== undefined)
        return fail(
          `zone ${ZONE_NAMES[idx] ?? idx} of node ${node} appears a second time (first at line ${first}): the kernel prints each zone once`,
        );
      seen.set(node * MAX_NR_ZONES + idx, lineNo);
      zone = { node, idx, line: lineNo, figures: new Map(), protection: null, pagesets: [] };
      zones.push(zone);
      pageset = null;
      inPagesets = false;
      continue;
    }
    if (!zone) {
      if (line.trim() !== '')
        return fail('expected a "Node N, zone NAME" line first: is this /proc/zoneinfo?');
      continue;
    }
    if (/^\s+pagesets\s*$/.test(line)) {
      inPagesets = true;
      continue;
    }
    const cpu = CPU.exec(line);
    if (cpu && inPagesets) {
      pageset = { cpu: Number(cpu[1]), figures: new Map() };
      zone.pagesets.push(pageset);
      continue;
    }
    const pcp = PCP_FIGURE.exec(line);
    if (pcp && pageset) {
      pageset.figures.set(pcp[1] ?? '', Number(pcp[2]));
      continue;
    }
    const start = START_PFN.exec(line);
    if (start) {
      zone.figures.set('start_pfn', Number(start[1]));
      continue;
    }
    const fig = FIGURE.exec(line);
    if (fig && !inPagesets) {
      zone.figures.set(fig[1] ?? '', Number(fig[2]));
      continue;
    }
    const prot = PROTECTION.exec(line);
    if (prot) {
      zone.protection = (prot[1] ?? '').split(',').map((v) => Number(v.trim()));
      continue;
    }
  }
  if (zones.length === 0)
    return {
      ok: false,
      error: { line: 1, col: 1, message: 'no "Node N, zone NAME" line: is this /proc/zoneinfo?' },
    };
  return { ok: true, zones };
}

export type ZoneinfoMachineResult =
  { ok: true; machine: ExplicitMachine; cpus: number } | { ok: false; error: WorkloadError };

/**
 * The model's machine for parsed zoneinfo: x86-64 with THP, so pageblock_order 9 and
 * MAX_PAGE_ORDER 10. zoneinfo lists every online CPU in each populated zone's pagesets; the model
 * gives each node the same number of CPUs.
 */
export function machineFromZoneinfo(zones: ZoneinfoZone[]): ZoneinfoMachineResult {
  const fail = (line: number, message: string): ZoneinfoMachineResult => ({
    ok: false,
    error: { line, col: 1, message },
  });
  // loops, not Math.max(...list): a spread of ~100k zones or CPUs overflows the stack
  let nodes = 0;
  for (const z of zones) nodes = Math.max(nodes, z.node + 1);
  const spans: ZoneSpan[][] = Array.from({ length: nodes }, () =>
    Array.from({ length: MAX_NR_ZONES }, () => ({
      startPfn: 0,
      spanned: 0,
      present: 0,
      managed: 0,
    })),
  );
  let cpus = 0;
  let managedTotal = 0;
  for (const z of zones) {
    const get = (key: string) => z.figures.get(key);
    const spanned = get('spanned');
    const present = get('present');
    const managed = get('managed');
    if (spanned === undefined || present === undefined || managed === undefined) {
      return fail(
        z.line,
        `zone ${ZONE_NAMES[z.idx] ?? z.idx} of node ${z.node} lacks a spanned, present or managed line`,
      );
    }
    const startPfn = get('start_pfn');
    if (managed > 0 && startPfn === undefined) {
      return fail(
        z.line,
        `zone ${ZONE_NAMES[z.idx] ?? z.idx} of node ${z.node} has pages but no start_pfn line`,
      );
    }
    if (managed > present || present > spanned || (startPfn ?? 0) + spanned > 0xffffffff) {
      return fail(
        z.line,
        `zone ${ZONE_NAMES[z.idx] ?? z.idx} of node ${z.node}: expected managed <= present <= spanned within 32-bit pfns`,
      );
    }
    const row = spans[z.node];
    if (row) row[z.idx] = { startPfn: startPfn ?? 0, spanned, present, managed };
    managedTotal += managed;
    if (managed > 0) {
      cpus = Math.max(cpus, z.pagesets.length);
      for (const p of z.pagesets) cpus = Math.max(cpus, p.cpu + 1);
    }
  }
  for (let node = 0; node < spans.length; node++) {
    const problem = zoneListProblem(spans[node] ?? [], node);
    if (problem) {
      const at = zones.find((z) => z.node === node && z.idx === problem.zone);
      return fail(at?.line ?? 1, problem.message);
    }
  }
  const high = frameStampProblem(spans, X86_64_MAX_PAGE_ORDER);
  if (high) {
    const at = zones.find((z) => z.node === high.node && z.idx === high.zone);
    return fail(at?.line ?? 1, high.message);
  }
  if (managedTotal === 0) return fail(1, 'no zone has managed pages');
  if (managedTotal > MAX_FRAMES) {
    return fail(
      1,
      `the machine manages ${managedTotal} pages: above the model's limit of ${MAX_FRAMES} (16 TiB) managed pages`,
    );
  }
  if (cpus === 0)
    return fail(1, 'no pagesets "cpu: N" blocks: cannot tell how many CPUs the machine has');
  if (cpus % nodes !== 0)
    return fail(1, `${cpus} CPUs do not split evenly over ${nodes} nodes, as the model needs`);
  if (cpus > MAX_CPUS) return fail(1, `${cpus} CPUs: above the model's limit of ${MAX_CPUS}`);
  if (cpus / nodes > MAX_CPUS_PER_NODE)
    return fail(
      1,
      `${cpus / nodes} CPUs per node: above the model's limit of ${MAX_CPUS_PER_NODE}`,
    );
  return {
    ok: true,
    cpus,
    machine: {
      kind: 'explicit',
      nodes,
      cpusPerNode: cpus / nodes,
      maxOrder: X86_64_MAX_PAGE_ORDER,
      pageblockOrder: 9,
      thp: true,
      zones: spans,
    },
  };
}

/** What a model must reproduce of a real zoneinfo: per zone, its watermarks, spans, protection and pcp limits. */
export const COMPARED_FIGURES = [
  'min',
  'low',
  'high',
  'promo',
  'spanned',
  'present',
  'managed',
] as const;
export const COMPARED_PCP_FIGURES = ['batch', 'high_min', 'high_max'] as const;

/** Those figures as lines ("Node 0, zone DMA: min 43"), in file order, for a side-by-side diff. */
export function comparedLines(zones: ZoneinfoZone[]): string[] {
  const out: string[] = [];
  for (const z of zones) {
    const name = `Node ${z.node}, zone ${ZONE_NAMES[z.idx] ?? z.idx}`;
    for (const key of COMPARED_FIGURES) out.push(`${name}: ${key} ${z.figures.get(key) ?? '?'}`);
    out.push(`${name}: protection (${(z.protection ?? []).join(', ')})`);
    for (const p of z.pagesets) {
      for (const key of COMPARED_PCP_FIGURES)
        out.push(`${name}: cpu ${p.cpu} ${key} ${p.figures.get(key) ?? '?'}`);
    }
  }
  return out;
}
