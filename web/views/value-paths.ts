/*
 * value-paths.ts: the names of the numbers the views print, in the lesson snapshot's path
 * language (web/lessons/snapshot.ts): `pcp.cpu0.Normal.high`, `zones.Normal._watermark.min`. A
 * question names the values it asks for (its `hides:` field) and the views print `?` for them
 * until the answer is revealed, so the screen does not give the answer away. A `*` stands for any
 * one segment: `pcp.*.Normal.high` is every CPU's.
 */
import { ZONE_NAMES } from '../core/machine-config';
import { MIGRATETYPE_NAMES } from '../core/state';

const ZONE = `(?:${ZONE_NAMES.join('|')}|\\*)`;
const MT = `(?:${MIGRATETYPE_NAMES.join('|')}|\\*)`;

/** Every value a view can hide, as a pattern (`*` allowed where a CPU, zone or type goes). */
const MASKABLE = new RegExp(
  `^(?:pcp\\.(?:cpu\\d+|\\*)\\.${ZONE}\\.(?:count|high|high_min|high_max|batch)` +
    `|zones\\.${ZONE}\\.(?:nr_free_pages|managed|pgalloc|lock_pages_moved` +
    `|lock\\.(?:acquisitions|contended|handovers|wait_ns|hold_ns)` +
    `|_watermark\\.(?:min|low|high|promo)|pageset_(?:batch|high_min|high_max)|pageblocks\\.${MT}))$`,
);

/** Whether a view can hide this path (the lesson schema refuses others). */
export function isMaskable(pattern: string): boolean {
  return MASKABLE.test(pattern);
}

/**
 * The path a check reads, without the `a.`/`b.` that picks a machine of a comparison: a hidden
 * value is hidden in both columns.
 */
export function withoutMachine(path: string): string {
  return path.replace(/^[ab]\./, '');
}

/** Whether a path is one the pattern names (`*` matches one segment). */
export function matchesPath(pattern: string, path: string): boolean {
  const p = pattern.split('.');
  const q = path.split('.');
  return p.length === q.length && p.every((s, i) => s === '*' || s === q[i]);
}

/** Paths of the values the views print, built one way everywhere. */
export const valuePath = {
  pcp: (cpu: number, zone: string, field: string) => `pcp.cpu${cpu}.${zone}.${field}`,
  zone: (zone: string, field: string) => `zones.${zone}.${field}`,
};
