/*
 * names.ts: kernel names for numbers the core reports (zones, pcp list indexes, sysctls, bad page
 * reasons), and the elixir link for a kernel function.
 */
import { FN_FILES, FN_NAMES, KIND_NAMES } from '../core/generated/events';
import { SYSCTLS } from '../core/generated/sysctls';
import { ZONE_NAMES } from '../core/machine-config';
import { migratetypeName } from './palette';

export function zoneName(idx: number): string {
  return ZONE_NAMES[idx] ?? `zone ${idx}`;
}

/** enum profile_id -> enum pcp_layout (profile.c's table), to decode a pindex. */
type Layout = 'order0' | '2016' | '5.14' | '6.10' | '6.0';
const LAYOUT_OF_PROFILE: readonly Layout[] = ['6.10', '6.0', '5.14', 'order0', '2016', '2016'];

/** What list pindex is: its order and migratetype (mt -1 when the list is shared by all types). */
export function pindexList(
  profileId: number,
  pindex: number,
): { order: number; mt: number; thp: boolean } {
  const layout = LAYOUT_OF_PROFILE[profileId] ?? '6.10';
  switch (layout) {
    case 'order0':
      return { order: 0, mt: pindex, thp: false };
    case '2016':
      return pindex < 3
        ? { order: 0, mt: pindex, thp: false }
        : { order: pindex - 2, mt: -1, thp: false };
    case '5.14':
      // order_to_pindex(): 3 types x (orders 0..3 + pageblock order) = 15 lists, type-major by order.
      return pindex < 12
        ? { order: Math.floor(pindex / 3), mt: pindex % 3, thp: false }
        : { order: -1, mt: pindex - 12, thp: true };
    case '6.0':
      return pindex < 12
        ? { order: Math.floor(pindex / 3), mt: pindex % 3, thp: false }
        : { order: -1, mt: -1, thp: true };
    case '6.10':
      return pindex < 12
        ? { order: Math.floor(pindex / 3), mt: pindex % 3, thp: false }
        : { order: -1, mt: pindex === 12 ? 0 : 1, thp: true };
  }
}

export function pindexLabel(profileId: number, pindex: number): string {
  const l = pindexList(profileId, pindex);
  const order = l.thp ? 'THP' : `order ${l.order}`;
  return l.mt < 0 ? order : `${order} ${migratetypeName(l.mt)}`;
}

/** What vm.* tunable an OP_SYSCTL handle names (an array tunable with its zone), or undefined. */
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
