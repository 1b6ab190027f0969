/*
 * pcp-index.ts: what a profile's pcp list indexes mean, from the generated layout of each profile
 * alone (no profile rows), so the narration of a pcp event costs the home page no profile table.
 */
import { PROFILE_PCP_LAYOUTS } from './generated/profile-names';
import type { PcpLayout } from './generated/profiles';

/** The pcp_layout of enum profile_id id; the default row's for an id the core does not have. */
export function pcpLayoutOf(profileId: number): PcpLayout {
  const layout = PROFILE_PCP_LAYOUTS[profileId] ?? PROFILE_PCP_LAYOUTS[0];
  if (!layout) throw new Error('profiles.def defines no profile');
  return layout;
}

/** MIGRATE_PCPTYPES: the migratetypes with pcp lists (unmovable, movable, reclaimable). */
export const MIGRATE_PCPTYPES = 3;
const PCPTYPES = MIGRATE_PCPTYPES;
/** With PAGE_ALLOC_COSTLY_ORDER 3: the pcp lists below the THP ones are 3 x orders 0..3. */
const COSTLY_LISTS = PCPTYPES * 4;

/**
 * What list pindex holds under a layout (pcp_index.c's pindex_to_order): its order (-1 for a THP
 * list) and migratetype (-1 when the list is shared by every type).
 */
export function pcpListOf(
  layout: PcpLayout,
  pindex: number,
): { order: number; mt: number; thp: boolean } {
  switch (layout) {
    case 'PCP_LAYOUT_ORDER0':
      return { order: 0, mt: pindex, thp: false };
    case 'PCP_LAYOUT_2016':
      // 3 order-0 lists, then one list per order 1..3 shared by every migratetype
      return pindex < PCPTYPES
        ? { order: 0, mt: pindex, thp: false }
        : { order: pindex - (PCPTYPES - 1), mt: -1, thp: false };
    case 'PCP_LAYOUT_5_14':
      // 3 types x (orders 0..3 + THP) = 15 lists, pindex = 3 * order + migratetype
      return pindex < COSTLY_LISTS
        ? { order: Math.floor(pindex / PCPTYPES), mt: pindex % PCPTYPES, thp: false }
        : { order: -1, mt: pindex - COSTLY_LISTS, thp: true };
    case 'PCP_LAYOUT_6_0':
      // one THP list shared by every type
      return pindex < COSTLY_LISTS
        ? { order: Math.floor(pindex / PCPTYPES), mt: pindex % PCPTYPES, thp: false }
        : { order: -1, mt: -1, thp: true };
    case 'PCP_LAYOUT_6_10':
      // two THP lists: 12 for unmovable (and reclaimable), 13 for movable
      return pindex < COSTLY_LISTS
        ? { order: Math.floor(pindex / PCPTYPES), mt: pindex % PCPTYPES, thp: false }
        : { order: -1, mt: pindex === COSTLY_LISTS ? 0 : 1, thp: true };
  }
}

/**
 * The list (pindex) a block of order and migratetype mt (below MIGRATE_PCPTYPES) goes to under a
 * layout, thp when it is of the THP order (pcp_index.c's order_to_pindex): pcpListOf's inverse.
 */
export function pcpIndexOf(layout: PcpLayout, order: number, mt: number, thp: boolean): number {
  switch (layout) {
    case 'PCP_LAYOUT_ORDER0':
      return mt;
    case 'PCP_LAYOUT_2016':
      return order === 0 ? mt : PCPTYPES - 1 + order;
    case 'PCP_LAYOUT_5_14':
      return thp ? COSTLY_LISTS + mt : PCPTYPES * order + mt;
    case 'PCP_LAYOUT_6_0':
      return thp ? COSTLY_LISTS : PCPTYPES * order + mt;
    case 'PCP_LAYOUT_6_10':
      return thp ? COSTLY_LISTS + (mt === 1 ? 1 : 0) : PCPTYPES * order + mt;
  }
}

/** How many pcp lists a layout has (NR_PCP_LISTS), with or without THP's. */
export function pcpListCount(layout: PcpLayout, thp: boolean): number {
  switch (layout) {
    case 'PCP_LAYOUT_ORDER0':
      return PCPTYPES;
    case 'PCP_LAYOUT_2016':
      return PCPTYPES + 3;
    case 'PCP_LAYOUT_5_14':
      return COSTLY_LISTS + (thp ? PCPTYPES : 0);
    case 'PCP_LAYOUT_6_0':
      return COSTLY_LISTS + (thp ? 1 : 0);
    case 'PCP_LAYOUT_6_10':
      return COSTLY_LISTS + (thp ? 2 : 0);
  }
}
