/*
 * free-blocks.ts: /proc/buddyinfo and /proc/pagetypeinfo read back into counts
 * (docs/kernel/page_alloc/formats.md): per zone, the free blocks of each order (buddyinfo), of
 * each order and migratetype, and the pageblocks of each migratetype (pagetypeinfo). Every
 * complaint names the line and the column of the text it is about.
 */
import { ZONE_NAMES } from '../core/machine-config';
import type { WorkloadError } from './errors';

/** The migratetype names pagetypeinfo prints, index = enum migratetype; CMA has no model type. */
export const MIGRATETYPE_NAMES = [
  'Unmovable',
  'Movable',
  'Reclaimable',
  'HighAtomic',
  'Isolate',
] as const;

/** One zone's free blocks per order (buddyinfo). */
export interface BuddyinfoZone {
  node: number;
  zone: number; // zone_idx
  line: number;
  free: number[]; // index = order
}

/** One zone's pagetypeinfo tables. */
export interface PagetypeinfoZone {
  node: number;
  zone: number;
  line: number;
  free: number[][]; // [migratetype][order]; CMA rows are left out
  blocks: number[] | null; // [migratetype] pageblocks; null when the table lacks the zone
}

export interface Pagetypeinfo {
  pageblockOrder: number | null;
  zones: PagetypeinfoZone[];
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: WorkloadError };

/** Column (1-based) of the n-th whitespace-separated field of a line, or of its end. */
function fieldCol(line: string, n: number): number {
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  let i = 0;
  while ((m = re.exec(line))) {
    if (i++ === n) return m.index + 1;
  }
  return line.length + 1;
}

/** A count field: digits only, safe as a JS number. */
function count(text: string): number | null {
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}

function zoneIndex(name: string): number {
  return (ZONE_NAMES as readonly string[]).indexOf(name);
}

const ZONE_PREFIX = /^Node\s+(\d+),\s+zone\s+(\w+)/;

/**
 * Read the counts after "Node N, zone NAME" (and `, type T` for pagetypeinfo rows) up to the end of
 * the line; a message with its column when one is not a count.
 */
function counts(
  line: string,
  lineNo: number,
  first: number,
  what: string,
): { ok: true; values: number[] } | { ok: false; error: WorkloadError } {
  const fields = line.trim().split(/\s+/);
  const values: number[] = [];
  for (let i = first; i < fields.length; i++) {
    const v = count(fields[i] ?? '');
    if (v === null)
      return {
        ok: false,
        error: {
          line: lineNo,
          col: fieldCol(line, i),
          message: `expected a count of ${what}, found "${fields[i] ?? ''}"`,
        },
      };
    values.push(v);
  }
  return { ok: true, values };
}

/** "Node 0, zone Normal" at the start of a line: node and zone_idx, or why not (with its column). */
function zoneOf(
  line: string,
  lineNo: number,
): { ok: true; node: number; zone: number; rest: number } | { ok: false; error: WorkloadError } {
  const m = ZONE_PREFIX.exec(line);
  if (!m)
    return {
      ok: false,
      error: { line: lineNo, col: 1, message: 'expected "Node N, zone NAME" at the start' },
    };
  const zone = zoneIndex(m[2] ?? '');
  if (zone < 0)
    return {
      ok: false,
      error: {
        line: lineNo,
        col: line.indexOf(m[2] ?? '') + 1,
        message: `unknown zone "${m[2] ?? ''}": expected ${ZONE_NAMES.join(', ')}`,
      },
    };
  return { ok: true, node: Number(m[1]), zone, rest: m[0].length };
}

/** Parse /proc/buddyinfo: one line per zone, the free blocks of each order. */
export function parseBuddyinfo(text: string): Parsed<BuddyinfoZone[]> {
  const zones: BuddyinfoZone[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    const z = zoneOf(line, i + 1);
    if (!z.ok)
      return {
        ok: false,
        error: { ...z.error, message: `${z.error.message}: is this /proc/buddyinfo?` },
      };
    // "Node", "0,", "zone", "NAME" are the first four fields
    const c = counts(line, i + 1, 4, 'free blocks');
    if (!c.ok) return c;
    if (c.values.length < 1)
      return {
        ok: false,
        error: {
          line: i + 1,
          col: line.length + 1,
          message: 'expected the free blocks of each order',
        },
      };
    zones.push({ node: z.node, zone: z.zone, line: i + 1, free: c.values });
  }
  if (zones.length === 0)
    return {
      ok: false,
      error: { line: 1, col: 1, message: 'no "Node N, zone NAME" line: is this /proc/buddyinfo?' },
    };
  return { ok: true, value: zones };
}

/** Parse /proc/pagetypeinfo: its free-blocks table and its pageblock table. */
export function parsePagetypeinfo(text: string): Parsed<Pagetypeinfo> {
  const lines = text.split('\n');
  const zones = new Map<string, PagetypeinfoZone>();
  let pageblockOrder: number | null = null;
  let blockTypes: string[] | null = null; // the pageblock table's column names
  let sawFreeTable = false;
  const zoneEntry = (node: number, zone: number, line: number): PagetypeinfoZone => {
    const key = `${node}/${zone}`;
    let z = zones.get(key);
    if (!z) {
      z = { node, zone, line, free: MIGRATETYPE_NAMES.map(() => []), blocks: null };
      zones.set(key, z);
    }
    return z;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const lineNo = i + 1;
    const err = (col: number, message: string): Parsed<Pagetypeinfo> => ({
      ok: false,
      error: { line: lineNo, col, message },
    });
    if (line.trim() === '') continue;
    const order = /^Page block order:\s*(\S*)/.exec(line);
    if (order) {
      const v = count(order[1] ?? '');
      if (v === null)
        return err(
          line.indexOf(':') + 2,
          `expected the pageblock order, found "${order[1] ?? ''}"`,
        );
      pageblockOrder = v;
      continue;
    }
    if (/^Pages per block:/.test(line)) continue;
    if (/^Free pages count per migrate type/.test(line)) {
      sawFreeTable = true;
      blockTypes = null;
      continue;
    }
    const header = /^Number of blocks type\s+(.*)$/.exec(line);
    if (header) {
      blockTypes = (header[1] ?? '').trim().split(/\s+/);
      continue;
    }
    const z = zoneOf(line, lineNo);
    if (!z.ok) {
      // page_owner adds a "mixed blocks" table: its rows start like ours, anything else is wrong
      return {
        ok: false,
        error: { ...z.error, message: `${z.error.message}: is this /proc/pagetypeinfo?` },
      };
    }
    const typed = /^Node\s+\d+,\s+zone\s+\w+,\s+type\s+(\w+)/.exec(line);
    if (typed) {
      if (!sawFreeTable)
        return err(1, 'expected the "Free pages count per migrate type" header first');
      const name = typed[1] ?? '';
      const c = counts(line, lineNo, 6, `free ${name} blocks`);
      if (!c.ok) return c;
      const mt = (MIGRATETYPE_NAMES as readonly string[]).indexOf(name);
      if (mt < 0 && name !== 'CMA')
        return err(
          line.indexOf(name) + 1,
          `unknown migratetype "${name}": expected ${MIGRATETYPE_NAMES.join(', ')} or CMA`,
        );
      if (mt >= 0) zoneEntry(z.node, z.zone, lineNo).free[mt] = c.values;
      continue;
    }
    if (!blockTypes) return err(1, 'expected the "Number of blocks type" header before this row');
    const c = counts(line, lineNo, 4, 'pageblocks');
    if (!c.ok) return c;
    if (c.values.length !== blockTypes.length)
      return err(
        fieldCol(line, 4 + Math.min(c.values.length, blockTypes.length)),
        `expected ${blockTypes.length} pageblock counts (${blockTypes.join(', ')}), found ${c.values.length}`,
      );
    const blocks = MIGRATETYPE_NAMES.map(() => 0);
    blockTypes.forEach((name, k) => {
      const mt = (MIGRATETYPE_NAMES as readonly string[]).indexOf(name);
      // CMA pageblocks are MOVABLE ones the model has no type for
      blocks[mt >= 0 ? mt : 1] = (blocks[mt >= 0 ? mt : 1] ?? 0) + (c.values[k] ?? 0);
    });
    zoneEntry(z.node, z.zone, lineNo).blocks = blocks;
  }
  if (zones.size === 0)
    return {
      ok: false,
      error: {
        line: 1,
        col: 1,
        message: 'no "Node N, zone NAME" rows: is this /proc/pagetypeinfo?',
      },
    };
  return { ok: true, value: { pageblockOrder, zones: [...zones.values()] } };
}
