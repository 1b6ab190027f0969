/*
 * reclaim-first-pass.ts: what kswapd's first pass over the memory cgroups shows of each one's
 * page-cache lists.
 *
 * balance_pgdat starts at DEF_PRIORITY (12) and shrink_node walks every memcg (kswapd never stops a
 * walk early). For each it scans each list nr = size >> priority pages (6.18 get_scan_count), and
 * an offline memcg, where that is 0, min(size, SWAP_CLUSTER_MAX): so at priority 12 each offline
 * memcg's lists are scanned at most 32 pages, in one shrink_inactive_list call (traced only when it
 * took a folio) and one shrink_active_list call (traced always, called while file deactivation is
 * on), in that order. The trace's first pass thus reads as one visit per memcg with something to
 * scan, and a visit's count below 32 is that list's size. /proc/kpagecgroup cannot say which
 * offline memcg held which pages (lru-state.ts); these visits can.
 */
import { parseTraceLine, traceNumber } from './ftrace';
import type { LruStateFolios, LruStateMemcg } from './lru-state';
import { KSWAPD_TASK } from './reclaim-singles';

/** The kernel's DEF_PRIORITY, where every balance_pgdat starts. */
export const DEF_PRIORITY = 12;
/** SWAP_CLUSTER_MAX: an offline memcg's lists are scanned min(size, this) at every priority. */
export const SWAP_CLUSTER_MAX = 32;

/** One memcg's visit: pages the scan took from its inactive and active file lists (null: no call). */
export interface ReclaimVisit {
  inactive: number | null;
  active: number | null;
}

/**
 * kswapd0's visits in its first pass at DEF_PRIORITY, in walk order; null when the trace has no
 * such pass or it cannot be read as one visit per memcg (anonymous lists scanned: with swap, each
 * memcg has up to four calls). A memcg with only an inactive call followed by one with only an
 * active call reads as one visit: the trace does not tell them apart.
 */
export function firstPassVisits(lines: readonly string[]): ReclaimVisit[] | null {
  const visits: ReclaimVisit[] = [];
  let woken = false;
  let last: ReclaimVisit | null = null;
  for (const line of lines) {
    const task = KSWAPD_TASK.exec(line);
    if (!task || task[1] !== '0') continue;
    const p = parseTraceLine(line);
    if (p.kind !== 'record') continue;
    const r = p.record;
    if (r.event === 'mm_vmscan_kswapd_wake') {
      if (woken) break;
      woken = true;
      continue;
    }
    if (r.event === 'mm_vmscan_kswapd_sleep') break;
    const inactive = r.event === 'mm_vmscan_lru_shrink_inactive';
    if (!woken || (!inactive && r.event !== 'mm_vmscan_lru_shrink_active')) continue;
    if (traceNumber(r.fields.get('priority')) !== DEF_PRIORITY) break;
    if ((r.fields.get('flags') ?? '').includes('RECLAIM_WB_ANON')) return null;
    const pages = traceNumber(r.fields.get(inactive ? 'nr_scanned' : 'nr_taken'));
    if (pages === null) return null;
    if (inactive) visits.push((last = { inactive: pages, active: null }));
    else if (last && last.active === null) last.active = pages;
    else visits.push((last = { inactive: null, active: pages }));
  }
  return visits.length ? visits : null;
}

/**
 * Whether the pass aged active lists: with the inactive list not low, 6.18's prepare_scan_control
 * does so only when the refault counters moved since reclaim last took their snapshot (the model
 * keeps no refaults: a captured node then carries refaults_moved).
 */
export function agedActiveLists(visits: readonly ReclaimVisit[]): boolean {
  return visits.some((v) => v.active !== null);
}

/** What an offline memcg holds of one list: a size the first pass saw, or an even share of the rest. */
export type OfflineShare = number | 'share';
/** An offline memcg's four lists, in enum lru_list order. */
export type OfflineLists = OfflineShare[];

const INACTIVE_FILE = 2;
/** Online memcgs times visits beyond which the alignment is not tried (the even shares stand). */
const MAX_ALIGNMENT = 1 << 22;
const ACTIVE_FILE = 3;

/** A cgroup path's depth: "/" 0, "/a" 1, "/a/b" 2. */
function depth(path: string): number {
  return path === '/' ? 0 : path.split('/').length - 1;
}

/** A cgroup path's ancestors, nearest first ("/a/b" -> "/a", "/"). */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let p = path; p !== '/';) {
    const at = p.lastIndexOf('/');
    p = at <= 0 ? '/' : p.slice(0, at);
    out.push(p);
  }
  return out;
}

/**
 * Each ancestor's offline memcgs (one per visit the first pass made to an offline memcg of its,
 * in walk order) and what they hold; null when the visits cannot be placed (cgroup v2: no own
 * figures). `online` is the online memcgs in walk order, `excess` the pages per list each one's
 * offline descendants hold (lru-state.ts).
 *
 * The online memcgs' visits are found first: at priority 12 an online memcg's lists are scanned
 * size >> 12 pages (its kpagecgroup pages less its offline descendants'), and the trace shows the
 * call for each that is not 0 (a folio can take the scan past its target; the lists moved a little
 * since the capture). The visits left are offline
 * memcgs'. One between the visits of online memcgs A and B in the walk is an offline child of a
 * memcg the walk passes between them (A or an ancestor of A's, or an ancestor of B's): of those
 * with offline pages on the lists it scanned, the deepest. A visit's count below
 * SWAP_CLUSTER_MAX is that list's size; the rest of an ancestor's offline pages on a list share
 * evenly among its visits that scanned a full cluster of it, or stay with the ancestor where none
 * did (the pass found no offline memcg of its with more). Anonymous lists, never scanned without
 * swap, and the active lists when file deactivation was off, share evenly.
 */
export function planFromVisits(
  online: readonly LruStateMemcg[],
  folios: readonly LruStateFolios[],
  excess: ReadonlyMap<number, readonly number[]>,
  visits: readonly ReclaimVisit[],
): Map<number, OfflineLists[]> | null {
  if (online.some((m) => !m.own)) return null;
  const deactivating = agedActiveLists(visits);
  // each memcg's kpagecgroup pages per list, and its largest folio there (how far one call can
  // overshoot), in one pass over the folio lines: "ino lru" -> figures
  const lists = new Map<string, { pages: number; largest: number }>();
  for (const f of folios) {
    const key = `${f.ino} ${f.lru}`;
    const l = lists.get(key) ?? { pages: 0, largest: 1 };
    lists.set(key, {
      pages: l.pages + 2 ** f.order * f.count,
      largest: Math.max(l.largest, 2 ** f.order),
    });
  }
  // what an online memcg's list holds as the model boots it: less its offline descendants' pages
  const target = (m: LruStateMemcg, lru: number) => {
    const pages = lists.get(`${m.ino} ${lru}`)?.pages ?? 0;
    return Math.floor(Math.max(0, pages - (excess.get(m.ino)?.[lru] ?? 0)) / 2 ** DEF_PRIORITY);
  };
  const largest = (m: LruStateMemcg, lru: number) => lists.get(`${m.ino} ${lru}`)?.largest ?? 1;
  // how far a call's count is from a target: an overshoot by less than a folio costs little
  const off = (seen: number | null, t: number, folio: number) => {
    if (t === 0) return seen === null ? 0 : 1 + seen;
    if (seen === null || seen < t) return t - (seen ?? 0);
    return (seen - t) / folio;
  };
  const expected = online.flatMap((m, pos) => {
    const ti = target(m, INACTIVE_FILE);
    const ta = deactivating ? target(m, ACTIVE_FILE) : 0;
    if (!ti && !ta) return [];
    return [{ pos, ti, ta, fi: largest(m, INACTIVE_FILE), fa: largest(m, ACTIVE_FILE) }];
  });
  const n = expected.length;
  const k = visits.length;
  if (n * k > MAX_ALIGNMENT) return null;
  // the online memcgs' visits: the order-keeping alignment of least cost (a visit left out is an
  // offline memcg's; an online memcg left out costs as if its calls took nothing)
  const cost = Array.from({ length: n + 1 }, () => new Float64Array(k + 1));
  const miss = (e: (typeof expected)[number]) => e.ti + e.ta + 1;
  for (let i = 1; i <= n; i++) {
    const e = expected[i - 1];
    const row = cost[i];
    const up = cost[i - 1];
    if (!e || !row || !up) continue;
    row[0] = (up[0] ?? 0) + miss(e);
    for (let j = 1; j <= k; j++) {
      const v = visits[j - 1];
      const pair = v ? off(v.inactive, e.ti, e.fi) + off(v.active, e.ta, e.fa) : Infinity;
      row[j] = Math.min(
        row[j - 1] ?? Infinity,
        (up[j] ?? Infinity) + miss(e),
        (up[j - 1] ?? Infinity) + pair,
      );
    }
  }
  const onlineAt = new Map<number, number>(); // visit -> walk position of its online memcg
  for (let i = n, j = k; i > 0 && j >= 0;) {
    const e = expected[i - 1];
    const here = cost[i]?.[j] ?? 0;
    if (!e) break;
    if (j > 0 && here === cost[i]?.[j - 1]) j--;
    else if (here === (cost[i - 1]?.[j] ?? Infinity) + miss(e)) i--;
    else {
      onlineAt.set(j - 1, e.pos);
      i--;
      j--;
    }
  }
  const byPath = new Map(online.map((m) => [m.path, m]));
  const plan = new Map<number, OfflineLists[]>();
  visits.forEach((v, u) => {
    if (onlineAt.has(u)) return;
    let before = -1;
    let after = online.length;
    for (const [w, pos] of onlineAt) {
      if (w < u) before = Math.max(before, pos);
      else after = Math.min(after, pos);
    }
    const passed = new Map<string, number>(); // path -> the latest walk position it is passed at
    for (let q = Math.max(0, before); q < after; q++) {
      const m = online[q];
      if (m) for (const p of [m.path, ...ancestors(m.path)]) passed.set(p, q);
    }
    const b = online[after];
    if (b) for (const p of ancestors(b.path)) passed.set(p, Math.max(passed.get(p) ?? -1, after));
    const scanned = [
      ...(v.inactive !== null ? [INACTIVE_FILE] : []),
      ...(v.active !== null ? [ACTIVE_FILE] : []),
    ];
    const holders = [...passed.entries()]
      .map(([p, q]) => ({ m: byPath.get(p), q }))
      .filter(({ m }) => m && scanned.every((lru) => (excess.get(m.ino)?.[lru] ?? 0) > 0))
      .sort((x, y) => depth(y.m?.path ?? '/') - depth(x.m?.path ?? '/') || y.q - x.q);
    const holder = holders[0]?.m;
    if (!holder) return;
    const seen = (pages: number | null): OfflineShare =>
      pages === null ? 0 : pages < SWAP_CLUSTER_MAX ? pages : 'share';
    const lists: OfflineLists = [
      'share',
      'share',
      seen(v.inactive),
      deactivating ? seen(v.active) : 'share',
    ];
    plan.set(holder.ino, [...(plan.get(holder.ino) ?? []), lists]);
  });
  return plan;
}
