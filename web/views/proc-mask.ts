/*
 * proc-mask.ts: /proc/zoneinfo with the values a lesson question asks for replaced by `?`
 * (value-paths.ts). Lines are read the way zoneinfo prints them: a "Node N, zone NAME" header,
 * the zone's own fields, then "pagesets" with a "cpu: N" block per CPU.
 */
import { ZONE_NAMES } from '../core/machine-config';
import { valuePath } from './value-paths';

/** Which value a zoneinfo line prints, given the zone and CPU block it sits in. */
function pathOf(line: string, zone: string, cpu: number | null): string | null {
  const m =
    /^\s*(pages free|nr_free_pages|min|low|high|promo|managed|count:|high:|batch:|high_min:|high_max:)\s+-?\d+\s*$/.exec(
      line,
    );
  if (!m) return null;
  const key = m[1] ?? '';
  if (key.endsWith(':')) return cpu === null ? null : valuePath.pcp(cpu, zone, key.slice(0, -1));
  if (cpu !== null) return null;
  if (key === 'pages free' || key === 'nr_free_pages') return valuePath.zone(zone, 'nr_free_pages');
  if (key === 'managed') return valuePath.zone(zone, 'managed');
  return valuePath.zone(zone, `_watermark.${key}`);
}

/** The lines of zoneinfo text, each with `?` for a hidden value. Node 0's zones only. */
export function maskZoneinfo(lines: string[], hidden: (path: string) => boolean): string[] {
  let zone = '';
  let node = -1;
  let cpu: number | null = null;
  return lines.map((l) => {
    const head = /^Node (\d+), zone\s+(\S+)/.exec(l);
    if (head) {
      node = Number(head[1]);
      zone = head[2] ?? '';
      cpu = null;
      return l;
    }
    const c = /^\s*cpu: (\d+)\s*$/.exec(l);
    if (c) {
      cpu = Number(c[1]);
      return l;
    }
    if (node !== 0) return l;
    const path = pathOf(l, zone, cpu);
    return path && hidden(path) ? l.replace(/-?\d+(\s*)$/, '?$1') : l;
  });
}

/**
 * The lines of /proc/vmstat: its machine-wide nr_free_pages is hidden while any zone's free pages
 * are (on a one-zone machine they are the same number).
 */
export function maskVmstat(lines: string[], hidden: (path: string) => boolean): string[] {
  if (!ZONE_NAMES.some((z) => hidden(valuePath.zone(z, 'nr_free_pages')))) return lines;
  return lines.map((l) => (/^nr_free_pages \d+$/.test(l) ? 'nr_free_pages ?' : l));
}
