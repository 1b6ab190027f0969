/*
 * lru-state.ts: a capture's lru-state file (scripts/capture/lru-state.c; the format is in
 * traces/README.md): which memory cgroup, LRU list and folio order the live machine's LRU folios
 * had, and the memory cgroups' list sizes. parseLruState reads it (errors name a line and column);
 * memcgsFromLruState turns it into the captured memcgs and folios the core is booted with
 * (capture-ops.ts), offline memcgs included, which /proc/kpagecgroup cannot name (see there).
 */
import type { CapturedFolios, CapturedMemcg } from '../core/machine-config';
import { ZONE_NAMES } from '../core/machine-config';
import type { WorkloadError } from './errors';
import { planFromVisits, type OfflineShare, type ReclaimVisit } from './reclaim-first-pass';

/** The lists, in enum lru_list order, as lru-state names them. */
export const LRU_NAMES = ['inactive_anon', 'active_anon', 'inactive_file', 'active_file'] as const;

/** One `memcg` line: an online memory cgroup (path "-": pages charged to a cgroup not in the tree). */
export interface LruStateMemcg {
  ino: number;
  own: number[] | null; // pages per list charged to it alone (cgroup v1), null when unknown
  tree: number[] | null; // pages per list of its subtree, itself included
  path: string;
}

/** One `folios` line. */
export interface LruStateFolios {
  node: number;
  zone: number; // zone_idx
  ino: number;
  lru: number; // enum lru_list
  order: number;
  count: number;
}

export interface LruState {
  cgroups: number | null; // /proc/cgroups num_cgroups of the memory controller
  memcgs: LruStateMemcg[];
  folios: LruStateFolios[];
}

const HEADER = '# buddyscope lru-state 1';
const MAX_COUNT = 2 ** 40;

/** Parse an lru-state text; an error names the line and column. */
export function parseLruState(
  text: string,
): { ok: true; state: LruState } | { ok: false; error: WorkloadError } {
  const lines = text.split('\n');
  const state: LruState = { cgroups: null, memcgs: [], folios: [] };
  const fail = (line: number, col: number, message: string) =>
    ({ ok: false, error: { line, col, message } }) as const;
  if ((lines[0] ?? '').trimEnd() !== HEADER)
    return fail(1, 1, `expected "${HEADER}" (an lru-state file from scripts/capture/lru-state.c)`);
  const inos = new Set<number>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || line.startsWith('#')) continue;
    // the fields and the column each starts at
    const fields: { text: string; col: number }[] = [];
    for (const m of line.matchAll(/\S+/g)) fields.push({ text: m[0], col: (m.index ?? 0) + 1 });
    const num = (k: number, what: string, max = MAX_COUNT): number | WorkloadError => {
      const f = fields[k];
      if (!f) return { line: i + 1, col: line.length + 1, message: `missing ${what}` };
      if (!/^\d{1,15}$/.test(f.text) || Number(f.text) > max)
        return {
          line: i + 1,
          col: f.col,
          message: `expected ${what} (a whole number up to ${max}), found "${f.text}"`,
        };
      return Number(f.text);
    };
    const kind = fields[0]?.text ?? '';
    if (kind === 'cgroups') {
      const n = num(1, 'the number of memory cgroups', 1 << 30);
      if (typeof n !== 'number') return { ok: false, error: n };
      state.cgroups = n;
      if (fields.length > 2) return fail(i + 1, fields[2]?.col ?? 1, 'unexpected field');
    } else if (kind === 'memcg') {
      const ino = num(1, "the cgroup's inode number", 2 ** 32 - 1);
      if (typeof ino !== 'number') return { ok: false, error: ino };
      if (inos.has(ino)) return fail(i + 1, fields[1]?.col ?? 1, `memcg ${ino} listed twice`);
      inos.add(ino);
      const sizes: number[] = [];
      const unknown = fields.slice(2, 10).every((f) => f.text === '-');
      for (let k = 2; k < 10 && !unknown; k++) {
        const v = num(k, `a list size in pages (field ${k + 1})`);
        if (typeof v !== 'number') return { ok: false, error: v };
        sizes.push(v);
      }
      const path = fields[10];
      if (!path) return fail(i + 1, line.length + 1, 'missing the cgroup path');
      if (fields.length > 11) return fail(i + 1, fields[11]?.col ?? 1, 'unexpected field');
      state.memcgs.push({
        ino,
        own: unknown ? null : sizes.slice(0, 4),
        tree: unknown ? null : sizes.slice(4, 8),
        path: path.text,
      });
    } else if (kind === 'folios') {
      const node = num(1, 'a node', 63);
      if (typeof node !== 'number') return { ok: false, error: node };
      const zoneField = fields[2];
      const zone = ZONE_NAMES.indexOf((zoneField?.text ?? '') as (typeof ZONE_NAMES)[number]);
      if (zone < 0)
        return fail(
          i + 1,
          zoneField?.col ?? line.length + 1,
          `expected a zone (${ZONE_NAMES.join(', ')}), found "${zoneField?.text ?? ''}"`,
        );
      const ino = num(3, "the memcg's inode number", 2 ** 32 - 1);
      if (typeof ino !== 'number') return { ok: false, error: ino };
      if (!inos.has(ino))
        return fail(i + 1, fields[3]?.col ?? 1, `memcg ${ino} has no memcg line before it`);
      const lruField = fields[4];
      const lru = LRU_NAMES.indexOf((lruField?.text ?? '') as (typeof LRU_NAMES)[number]);
      if (lru < 0)
        return fail(
          i + 1,
          lruField?.col ?? line.length + 1,
          `expected a list (${LRU_NAMES.join(', ')}), found "${lruField?.text ?? ''}"`,
        );
      const order = num(5, 'a folio order', 20);
      if (typeof order !== 'number') return { ok: false, error: order };
      const count = num(6, 'a number of folios');
      if (typeof count !== 'number') return { ok: false, error: count };
      if (fields.length > 7) return fail(i + 1, fields[7]?.col ?? 1, 'unexpected field');
      state.folios.push({ node, zone, ino, lru, order, count });
    } else {
      return fail(i + 1, fields[0]?.col ?? 1, `expected cgroups, memcg or folios, found "${kind}"`);
    }
  }
  if (!state.memcgs.some((m) => m.path === '/'))
    return fail(lines.length, 1, 'no memcg line for the root ("/")');
  return { ok: true, state };
}

/** The parent path of a cgroup path ("/a/b" -> "/a", "/a" -> "/"). */
function parentPath(path: string): string {
  const at = path.lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}

/** The median of some numbers (the mean of the middle two of an even count); null for none. */
function median(values: number[]): number | null {
  const v = [...values].sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = v.length >> 1;
  return v.length % 2 ? (v[mid] ?? 0) : ((v[mid - 1] ?? 0) + (v[mid] ?? 0)) / 2;
}

/** Split n into k parts as evenly as can be, the larger ones first. */
function split(n: number, k: number): number[] {
  return Array.from({ length: k }, (_, i) => Math.floor(n / k) + (i < n % k ? 1 : 0));
}

/**
 * How many folios of each line (one memcg's list, one line per order) each of its offline memcgs
 * takes, row per line: `pool` is each line's folios that offline memcgs hold, `targets` each
 * offline memcg's pages on the list. A size the first pass saw is filled from the smallest folios
 * up; the rest shares evenly among the 'share' memcgs, or, where there are none, stays with the
 * ancestor.
 */
function offlineRows(
  lines: readonly LruStateFolios[],
  pool: number[],
  targets: readonly OfflineShare[],
): number[][] {
  const rows = lines.map(() => targets.map(() => 0));
  const bySize = [...lines.keys()].sort((a, b) => (lines[a]?.order ?? 0) - (lines[b]?.order ?? 0));
  targets.forEach((t, j) => {
    let want = t === 'share' ? 0 : t;
    for (const i of bySize) {
      const order = lines[i]?.order ?? 0;
      const n = Math.min(pool[i] ?? 0, Math.floor(want / 2 ** order));
      const row = rows[i];
      if (row) row[j] = n;
      pool[i] = (pool[i] ?? 0) - n;
      want -= n * 2 ** order;
    }
  });
  const sharers = targets.flatMap((t, j) => (t === 'share' ? [j] : []));
  rows.forEach((row, i) =>
    split(sharers.length ? (pool[i] ?? 0) : 0, sharers.length).forEach((n, s) => {
      const j = sharers[s];
      if (j !== undefined) row[j] = (row[j] ?? 0) + n;
    }),
  );
  return rows;
}

/**
 * The captured memcgs in mem_cgroup_iter's order (the root first) and each one's folios.
 *
 * /proc/kpagecgroup gives a deleted (offline) memcg's pages its nearest online ancestor's inode, so
 * an online memcg's folios there are its own plus those of its offline descendants. cgroup v1's
 * memory.stat tells them apart in sum: what its subtree holds beyond its own pages and its online
 * children's subtrees is held by offline descendants. That share of each of its folio counts
 * moves to offline memcgs. How many there are is known only overall (num_cgroups less the online
 * ones) and how the pages spread over them not at all: the model gives each ancestor with such
 * pages as many offline memcgs as memcgs the size of its online children would take (a deleted
 * reclaim test's memcg was like the live ones beside it: the captures' kswapd met as many
 * order-8 folios at priority 12 as that gives), splits the pages evenly among them, and places them right after the ancestor in the walk (older than its online
 * children, as cgroups are made in inode order). Without memory.stat figures (cgroup v2), no
 * memcg is taken for offline.
 */
export function memcgsFromLruState(
  state: LruState,
  visits: readonly ReclaimVisit[] | null = null,
): {
  memcgs: CapturedMemcg[];
  folios: CapturedFolios[];
} {
  const online = state.memcgs.filter((m) => m.path !== '-');
  const byPath = new Map(online.map((m) => [m.path, m]));
  const byIno = new Map(online.map((m) => [m.ino, m]));
  // pages per list held by offline descendants whose nearest online ancestor is m
  const excess = new Map<number, number[]>();
  for (const m of online) {
    if (!m.own || !m.tree) continue;
    const rest = m.tree.map((t, lru) => t - (m.own?.[lru] ?? 0));
    for (const c of online)
      if (c !== m && c.path !== '/' && parentPath(c.path) === m.path && c.tree)
        c.tree.forEach((t, lru) => (rest[lru] = (rest[lru] ?? 0) - t));
    if (m.path === '/' || byPath.get(m.path) === m)
      excess.set(
        m.ino,
        rest.map((v) => Math.max(0, v)),
      );
  }
  const heldBy = [...excess.entries()].filter(([, e]) => e.some((v) => v > 0));
  const offlineTotal = Math.max(0, (state.cgroups ?? online.length) - online.length);
  // How many offline memcgs hold each ancestor's pages: as many as memcgs the size of its online
  // children (the median of their page cache: a deleted memcg's anonymous memory is gone) would
  // take, at least one; the ancestors whose children are largest first, while there are enough,
  // and the last of them the rest.
  const file = (lists: number[] | null | undefined) =>
    (lists?.[LRU_NAMES.indexOf('inactive_file')] ?? 0) +
    (lists?.[LRU_NAMES.indexOf('active_file')] ?? 0);
  const filePages = (m: LruStateMemcg) => file(m.tree);
  const sizes = (ms: LruStateMemcg[]) => ms.map(filePages).filter((n) => n > 0);
  const everyChild = sizes(online.filter((c) => c.path !== '/'));
  const typical = new Map<number, number>();
  for (const [ino, e] of heldBy) {
    const m = online.find((o) => o.ino === ino);
    const children = sizes(
      online.filter((c) => c !== m && c.path !== '/' && parentPath(c.path) === m?.path),
    );
    typical.set(ino, median(children.length ? children : everyChild) ?? file(e));
  }
  const share = new Map<number, number>();
  let left = offlineTotal;
  const byTypical = [...heldBy].sort((a, b) => (typical.get(b[0]) ?? 0) - (typical.get(a[0]) ?? 0));
  byTypical.forEach(([ino, e], i) => {
    const later = byTypical.length - 1 - i;
    const want = Math.max(1, Math.round(file(e) / Math.max(1, typical.get(ino) ?? 1)));
    const k = later ? Math.min(want, Math.max(0, left - later)) : left;
    share.set(ino, Math.max(0, k));
    left -= Math.max(0, k);
  });
  // what each ancestor's offline memcgs hold: what kswapd's first pass saw of them, or else as many
  // as counted above, each an even share of every list. The pass is node 0's kswapd: its sizes are
  // that node's lists, so a machine of more nodes keeps the even shares
  const oneNode = state.folios.every((f) => f.node === 0);
  const plan =
    (visits && oneNode ? planFromVisits(online, state.folios, excess, visits) : null) ??
    new Map(
      [...share].map(([ino, k]) => [
        ino,
        Array.from({ length: k }, () => LRU_NAMES.map((): OfflineShare => 'share')),
      ]),
    );
  // the walk: each online memcg, then its offline descendants, then its online children
  const memcgs: CapturedMemcg[] = [];
  const index = new Map<number, number>(); // ino -> memcg index
  const offlineOf = new Map<number, number[]>(); // ancestor ino -> its offline memcgs' indices
  for (const m of online) {
    index.set(m.ino, memcgs.length);
    memcgs.push({ ino: m.ino, online: true });
    const k = plan.get(m.ino)?.length ?? 0;
    const mine: number[] = [];
    for (let j = 0; j < k; j++) {
      mine.push(memcgs.length);
      memcgs.push({ ino: 0, online: false });
    }
    offlineOf.set(m.ino, mine);
  }
  const root = index.get(byPath.get('/')?.ino ?? -1) ?? 0;
  // per folio line, how many of its folios each of its memcg's offline memcgs takes
  const taken = new Map<LruStateFolios, number[]>();
  const groups = new Map<string, LruStateFolios[]>(); // "ino lru" -> its folio lines
  for (const f of state.folios) {
    const key = `${f.ino} ${f.lru}`;
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  for (const lines of groups.values()) {
    const first = lines[0];
    const lists = first ? (plan.get(first.ino) ?? []) : [];
    if (!first || !lists.length) continue;
    const m = byIno.get(first.ino);
    const e = excess.get(first.ino)?.[first.lru] ?? 0;
    // the share of this memcg's kpagecgroup pages on the list that offline descendants hold
    const seen = m?.own && m.tree ? (m.own[first.lru] ?? 0) + e : 0;
    const pool = lines.map((f) => (seen ? Math.round((f.count * Math.min(e, seen)) / seen) : 0));
    const rows = offlineRows(
      lines,
      pool,
      lists.map((l) => l[first.lru] ?? 'share'),
    );
    lines.forEach((f, i) => taken.set(f, rows[i] ?? []));
  }
  const folios: CapturedFolios[] = [];
  for (const f of state.folios) {
    const own = index.get(f.ino) ?? root; // "-" lines: charged to no online memcg: the root's
    const mine = offlineOf.get(f.ino) ?? [];
    const row = taken.get(f) ?? [];
    const moved = row.reduce((a, b) => a + b, 0);
    const base = { node: f.node, zone: f.zone, lru: f.lru, order: f.order };
    if (f.count - moved) folios.push({ ...base, memcg: own, count: f.count - moved });
    row.forEach((n, j) => {
      if (n) folios.push({ ...base, memcg: mine[j] ?? own, count: n });
    });
  }
  return { memcgs, folios };
}
