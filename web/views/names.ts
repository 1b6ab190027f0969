/*
 * names.ts: kernel names for numbers the core reports (zones, pcp list indexes, sysctls, bad page
 * reasons), and the elixir link for a kernel function.
 */
import { FN_FILES, FN_NAMES, KIND_NAMES } from '../core/generated/events';
import { SYSCTLS, type SysctlName } from '../core/generated/sysctls';
import { ZONE_NAMES } from '../core/machine-config';
import { pcpLayoutOf, pcpListOf } from '../core/pcp-index';
import { migratetypeName } from './palette';

export function zoneName(idx: number): string {
  return ZONE_NAMES[idx] ?? `zone ${idx}`;
}

/** What list pindex is under profile profileId's pcp layout: order, migratetype (-1 when shared). */
export function pindexList(
  profileId: number,
  pindex: number,
): { order: number; mt: number; thp: boolean } {
  return pcpListOf(pcpLayoutOf(profileId), pindex);
}

export function pindexLabel(profileId: number, pindex: number): string {
  const l = pindexList(profileId, pindex);
  const order = l.thp ? 'THP' : `order ${l.order}`;
  return l.mt < 0 ? order : `${order} ${migratetypeName(l.mt)}`;
}

/** What vm.* tunable an OP_SYSCTL handle names (an array tunable with its zone), or undefined. */
/** The tunable an OP_SYSCTL id writes (an array tunable's every id names it). */
export function sysctlName(id: number): SysctlName | undefined {
  return SYSCTLS.find((t) => id >= t.id && id < t.id + t.count)?.name;
}

export function sysctlLabel(id: number): string | undefined {
  const s = SYSCTLS.find((t) => id >= t.id && id < t.id + t.count);
  if (!s) return undefined;
  return s.count > 1 ? `${s.name}[${zoneName(id - s.id)}]` : s.name;
}

/** Where to read a kernel function's source. */
export function elixirUrl(fn: string): string {
  return `https://elixir.bootlin.com/linux/v6.18/C/ident/${encodeURIComponent(fn)}`;
}

export function fnName(fn: number): string {
  return FN_NAMES[fn] ?? '';
}

/** The kernel source file that defines a function, by name ("mm/page_alloc.c"), or "". */
export function fnFile(name: string): string {
  const i = (FN_NAMES as readonly string[]).indexOf(name);
  return i > 0 ? (FN_FILES[i] ?? '') : '';
}

export function kindName(kind: number): string {
  return KIND_NAMES[kind] ?? `kind ${kind}`;
}

/** enum lru_list in words, in its order. */
export const LRU_NAMES = ['inactive anon', 'active anon', 'inactive file', 'active file'];
