/*
 * lru.h: a node's LRU lists (struct lruvec in base/types.h). Blocks are linked through their
 * head frames' next/prev by pfn, newest at the head, oldest at the tail where reclaim scans; the
 * per-node and per-zone page counts move with every link and unlink.
 */
#ifndef BUDDYSCOPE_RECLAIM_LRU_H
#define BUDDYSCOPE_RECLAIM_LRU_H

#include "base/types.h"

/* SWAP_CLUSTER_MAX: the batch reclaim scans and frees in. */
#define SWAP_CLUSTER_MAX 32
/* DEF_PRIORITY: reclaim first scans 1/4096 (1 >> 12) of each list. */
#define DEF_PRIORITY 12

/* Whether list is a file list (is_file_lru). */
static inline int is_file_lru(int lru)
{
	return lru >= LRU_INACTIVE_FILE;
}

/* Whether list is an active list (is_active_lru). */
static inline int is_active_lru(int lru)
{
	return lru == LRU_ACTIVE_ANON || lru == LRU_ACTIVE_FILE;
}

/* folio_lru_list: the list a block's flags put it on. */
int page_lru(const struct page *page);

/*
 * LRU extents: a capture's LRU memory takes a whole block in use per max-order block it fills
 * (PAGEF_EXTENT, base/frames.h), one list entry standing for its 2^(order - cpu) folios of order
 * head->cpu, as if placed one by one at the head: the folio at the block's first pfn nearest the
 * tail. Reclaim takes folios from the tail only, so an extent is never the tail of its list:
 * lru_link and lru_unlink turn one that would become the tail into its folios (lru_extent_expand),
 * and an extent unlinked by anything else becomes its folios first. Nothing else reads a folio
 * inside an extent; what counts pages (nr_pages, nr_zone_lru, lru_account) counts it whole.
 */

/* The LRU extent headed at pfn becomes its folios, in its place on its list (its block's frames
 * materialised; the frame budget running out freezes the state instead). */
void lru_extent_expand(struct sim *s, struct zone *z, uint32_t pfn);

/* lruvec_add_folio (to_tail 0) or lruvec_add_folio_tail (1): link a block and count its pages. */
void lru_link(struct sim *s, struct zone *z, uint32_t pfn, int to_tail);

/* lruvec_del_folio: unlink a block from the list its flags name and uncount it. */
void lru_unlink(struct sim *s, struct zone *z, uint32_t pfn);

/* Count (sign 1) or uncount (-1) a block in its node's anon/file/mapped/dirty figures. */
void lru_account(struct sim *s, struct zone *z, const struct page *page, int sign);

/*
 * An unlinked LRU block stops being one: uncounted, its flags and owner cleared. how: 0 when its
 * owner frees it, else the enum handle_gone that reclaim leaves in the handle that held it.
 */
void lru_forget(struct sim *s, struct zone *z, uint32_t pfn, int how);

/* The zone of an LRU block's pfn (its node's zones hold it). */
struct zone *lru_page_zone(struct sim *s, int nid, uint32_t pfn);

/*
 * lru_page_zone asking near (or NULL) first: a list neighbour, or the next block of a batch, is
 * nearly always of the same zone, and zones do not overlap, so the answer is the same.
 */
struct zone *lru_page_zone_near(struct sim *s, int nid, uint32_t pfn, struct zone *near);

/*
 * The lists of memcg on node nid, or with memcg -1 the node's own (a machine without memcgs;
 * with memcgs the node's lruvec keeps only the totals over them).
 */
struct lruvec *lru_lists(const struct sim *s, int nid, int memcg);

/* The memcg whose lists the LRU block at pfn is on: -1 (the node's) unless memcgs are modelled. */
int lru_block_memcg(const struct sim *s, uint32_t pfn);

/* lruvec_lru_size: pages of list lru of memcg (-1: the node) in zones up to zone index idx. */
int64_t lru_size(const struct sim *s, int nid, int memcg, int lru, int idx);

/* can_reclaim_anon_pages: anonymous pages can go somewhere (free swap). */
static inline int can_reclaim_anon(const struct sim *s)
{
	return s->nr_swap_free > 0;
}

/* inactive_is_low: the inactive list of this type of memcg's lruvec (-1 or the root: the node's
 * totals, its hierarchical figures) is small against its active list. */
int inactive_is_low(const struct sim *s, int nid, int memcg, int inactive_lru);

#endif
