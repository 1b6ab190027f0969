/* page_alloc.h: the allocation walk (__alloc_pages and its slow path) and the free entry point. */
#ifndef BUDDYSCOPE_PAGE_ALLOC_H
#define BUDDYSCOPE_PAGE_ALLOC_H

#include "base/subsystem.h"
#include "base/types.h"

/* Why get_page_from_freelist moved on (EV_ZONE_FALLBACK's a; b = alloc_flags at that moment). */
enum zone_fallback_reason {
	ZF_WMARK = 1, /* below the requested watermark, and no node reclaim to try */
	ZF_RMQUEUE,   /* the watermark passed but rmqueue found no block */
	ZF_NOFRAG_REMOTE, /* ALLOC_NOFRAGMENT walk reached another node: restart without it (locality first) */
	ZF_NOFRAG_RETRY,   /* the whole walk failed with ALLOC_NOFRAGMENT: walk again without it */
	ZF_KSWAPD_ACTIVE,  /* 6.18 NUMA: this node's kswapd is running, look for idle nodes first */
	ZF_KSWAPD_RETRY,   /* 6.18 NUMA: only nodes with running kswapd were left: walk them too */
	ZF_RECLAIM_NOSCAN, /* below the mark; node reclaim did not scan (NOSCAN) */
	ZF_RECLAIM_FULL,   /* below the mark; node reclaim found nothing worth scanning (FULL) */
	ZF_RECLAIM_SHORT,  /* node reclaim scanned, and the zone is still below the mark */
};

/* What the kernel would do when reclaim cannot help (EV_OOM's a): __alloc_pages_may_oom, out_of_memory. */
enum oom_decision {
	OOM_KILL = 1,	  /* out_of_memory would kill the task with the highest badness */
	OOM_NOFS_RETRY,	  /* no __GFP_FS: no kill, counted as progress, the request retries */
	OOM_SKIP_COSTLY,  /* order > PAGE_ALLOC_COSTLY_ORDER: no OOM kill, the request fails */
	OOM_SKIP_MAYFAIL, /* __GFP_RETRY_MAYFAIL or __GFP_THISNODE: the request fails */
	OOM_SKIP_LOWMEM, /* only DMA/DMA32 allowed: killing would not free lowmem, the request fails */
};

/* __alloc_pages on cpu: a block of 2^order pages; PFN_NONE on failure. *zone_out = node * MAX_NR_ZONES + zone. */
uint32_t page_alloc(struct sim *s, int cpu, uint32_t gfp, int order, int *zone_out);

/* page_alloc folded into its caller (base/fast_path.h): for the alloc op's own path only. */
uint32_t page_alloc_fast(struct sim *s, int cpu, uint32_t gfp, int order, int *zone_out);

/* OP_ALLOC (validated as bad input is reported): allocate into op->handle; SIM_ENOMEM on failure. */
int page_alloc_alloc_op(struct sim *s, const struct sim_op *op);

/* pgdat_balanced: some managed zone up to highest_zoneidx passes HIGH for order (or none is managed). */
int pgdat_balanced(struct sim *s, int nid, int order, int highest_zoneidx);

/* __free_pages of an allocated block on cpu, one of the machine's: to the pcp lists or to the buddy. */
void page_free(struct sim *s, int cpu, struct zone *z, uint32_t pfn, int order);

/*
 * page_alloc of one page another subsystem keeps (a percpu chunk's page, a page table, a mapped
 * page): marked PAGEF_OWNED, so no raw free can take it from its owner; PFN_NONE on failure.
 */
uint32_t page_alloc_owned(struct sim *s, int cpu, uint32_t gfp, int *zone_out);

/* The owner of a page from page_alloc_owned frees it: the mark goes, then page_free (order 0). */
void page_free_owned(struct sim *s, int cpu, uint32_t pfn);

/* page_free folded into its caller (base/fast_path.h): for the free and random ops only. */
void page_free_fast(struct sim *s, int cpu, struct zone *z, uint32_t pfn, int order);

/*
 * An op arg bit (OP_FREE, CAPTURE_FREE): the free ran in an interrupt that came while the CPU's
 * task held its pcp lock (a softirq inside rmqueue_pcplist, as a trace shows it).
 */
#define FREE_PCP_LOCKED 0x100

/* page_free from an interrupt that came while cpu's task held its pcp lock (FREE_PCP_LOCKED). */
void page_free_pcp_locked(struct sim *s, int cpu, struct zone *z, uint32_t pfn, int order);

/* FOLIO_BATCH_SIZE (6.18 include/linux/pagevec.h): the folios one folios_put hands over. */
#define FOLIO_BATCH_SIZE 31

/* A batch of blocks being freed together (a folio_batch, or the page list of older kernels). */
struct page_batch {
	uint32_t nr;			     /* blocks in the batch, at most FOLIO_BATCH_SIZE */
	struct zone *zone[FOLIO_BATCH_SIZE]; /* each block's zone */
	uint32_t pfn[FOLIO_BATCH_SIZE];	     /* each block's head */
	uint8_t order[FOLIO_BATCH_SIZE];     /* each block's order */
};

/* Free a batch as the profile's kernel frees what release_pages/folios_put collected (free_batch_rule). */
void page_free_batch(struct sim *s, int cpu, const struct page_batch *batch);

/* Boot: every managed frame to the buddy, then watermarks, lowmem_reserve, zonelists, pcp values. */
void page_alloc_boot(struct sim *s);

/* The page allocator's part of sim_check: free lists, pcp lists, frames, pageblock tags, handles. */
int page_alloc_check(struct sim *s);

/* The page allocator's entry points for the base (page_alloc/ops.c). */
extern const struct subsystem page_alloc_subsystem;

/*
 * The page allocator's ops (its subsystem's apply; the base has checked the CPU): SIM_OK, an enum
 * sim_err, or SIM_ENOTMINE for other kinds. Folded into sim_subsystems_apply (src/subsystems.c).
 */
int page_alloc_apply(struct sim *s, const struct sim_op *op);

#endif
