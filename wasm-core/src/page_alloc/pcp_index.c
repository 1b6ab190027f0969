/*
 * pcp_index.c: which orders the per-CPU lists serve and which list (pindex) holds an (order,
 * migratetype) under the profile's layout. Both the free lists (the tracepoint's percpu_refill
 * field) and the per-CPU lists need these, so they sit below both.
 */
#include "base/fast_path.h"
#include "page_alloc/pcp_index.h"

/* The THP order that has pcp lists, or -1 (HPAGE_PMD_ORDER with THP, when pageblocks are PMD-sized). */
int pcp_thp_order(const struct sim *s)
{
	if (s->config.thp && s->config.pageblock_order == HPAGE_PMD_ORDER)
		return HPAGE_PMD_ORDER;
	return -1;
}

FAST_PATH int pcp_allowed_order(const struct sim *s, int order)
{
	if (order < 0)
		return 0;
	switch (s->profile.pcp_layout) {
	case PCP_LAYOUT_ORDER0:
		return order == 0;
	case PCP_LAYOUT_2016:
		return order <= PAGE_ALLOC_COSTLY_ORDER;
	default:
		return order <= PAGE_ALLOC_COSTLY_ORDER || order == pcp_thp_order(s);
	}
}

/*
 * order_to_pindex. 6.10 layout: 3 * order + mt for orders 0..3 (U0 M0 R0 U1 M1 R1 ... R3 = 0..11),
 * then 12 = THP unmovable/reclaimable, 13 = THP movable. 2016: order 0 -> mt, order k -> 2 + k.
 */
FAST_PATH int pcp_order_to_pindex(const struct sim *s, int mt, int order)
{
	if (mt < 0 || mt >= MIGRATE_PCPTYPES || !pcp_allowed_order(s, order))
		return -1;
	switch (s->profile.pcp_layout) {
	case PCP_LAYOUT_ORDER0:
		return mt;
	case PCP_LAYOUT_2016:
		return order == 0 ? mt : MIGRATE_PCPTYPES - 1 + order;
	case PCP_LAYOUT_5_14:
		if (order > PAGE_ALLOC_COSTLY_ORDER)
			return MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1) + mt;
		return MIGRATE_PCPTYPES * order + mt;
	case PCP_LAYOUT_6_0:
		if (order > PAGE_ALLOC_COSTLY_ORDER)
			return MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1);
		return MIGRATE_PCPTYPES * order + mt;
	case PCP_LAYOUT_6_10:
	default:
		if (order > PAGE_ALLOC_COSTLY_ORDER)
			return MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1) +
			       (mt == MIGRATE_MOVABLE);
		return MIGRATE_PCPTYPES * order + mt;
	}
}

int pcp_pindex_to_order(const struct sim *s, int pindex)
{
	switch (s->profile.pcp_layout) {
	case PCP_LAYOUT_ORDER0:
		return 0;
	case PCP_LAYOUT_2016:
		return pindex < MIGRATE_PCPTYPES ? 0 : pindex - (MIGRATE_PCPTYPES - 1);
	default:
		if (pindex < MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1))
			return pindex / MIGRATE_PCPTYPES;
		return HPAGE_PMD_ORDER;
	}
}
