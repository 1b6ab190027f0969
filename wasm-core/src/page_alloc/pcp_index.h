/* pcp_index.h: the orders the per-CPU lists serve and the list (pindex) of each (order, type). */
#ifndef BUDDYSCOPE_PCP_INDEX_H
#define BUDDYSCOPE_PCP_INDEX_H

#include "base/types.h"

#define HPAGE_PMD_ORDER 9 /* x86-64, 4 KiB pages: a PMD maps 2 MiB */

/* The THP order that has pcp lists, or -1 (HPAGE_PMD_ORDER with THP, when pageblocks are PMD-sized). */
int pcp_thp_order(const struct sim *s);

/* pcp_allowed_order: whether an order is served by the pcp lists under this profile. */
int pcp_allowed_order(const struct sim *s, int order);

/* order_to_pindex under the profile's layout; -1 if the order has no list. */
int pcp_order_to_pindex(const struct sim *s, int mt, int order);

/* pindex_to_order under the profile's layout. */
int pcp_pindex_to_order(const struct sim *s, int pindex);

#endif
