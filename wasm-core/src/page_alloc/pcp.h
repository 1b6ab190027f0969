/*
 * pcp.h: per-CPU page lists: sizing (batch, high), allocation with refills under the zone lock,
 * freeing with the free-high heuristics, bulk frees back to the buddy, drains and decay.
 */
#ifndef BUDDYSCOPE_PCP_H
#define BUDDYSCOPE_PCP_H

#include "base/types.h"

/* zone_batchsize: the batch of a zone from its managed pages. */
int32_t pcp_zone_batchsize(const struct sim *s, const struct zone *z);

/* zone_highsize: high for a fraction (0 = low watermark based) and cpu_online (0 or 1). */
int32_t pcp_zone_highsize(const struct sim *s, const struct zone *z, int32_t batch, int cpu_online,
			  int32_t fraction);

/* zone_pcp_update: recompute batch/high_min/high_max (or high) of every CPU's pcp of z. */
void pcp_zone_update(struct sim *s, struct zone *z, int cpu_online);

/* Initialise every pcp at boot (per_cpu_pages_init + setup_zone_pageset). */
void pcp_init_all(struct sim *s);

/*
 * rmqueue_pcplist: a block from cpu's list of z, refilling by nr_pcp_alloc blocks; PFN_NONE if
 * none. c is cpu's record (&sim_cpus(s)[cpu]), which the allocation path holds.
 */
uint32_t pcp_rmqueue(struct sim *s, struct zone *z, int cpu, struct cpu *c, int order, int mt,
		     unsigned alloc_flags);

/* free_frozen_pages for pcp orders: put the block on cpu's list and bulk-free when count >= high. */
void pcp_free(struct sim *s, struct zone *z, int cpu, uint32_t pfn, int order);

/*
 * pcp_free with pfn's frame (page) and cpu's record (c, &sim_cpus(s)[cpu]) already found, as the
 * free path has them: fewer lookups.
 */
void pcp_free_page(struct sim *s, struct zone *z, int cpu, struct cpu *c, uint32_t pfn,
		   struct page *page, int order);

/* free_pcppages_bulk: return `count` pages of cpu's pcp of z to the buddy, list pindex looked at first; fn (the caller) tags EV_PCP_BULK_FREE; returns pages freed. */
int pcp_free_bulk(struct sim *s, struct zone *z, int cpu, int count, int pindex, int fn);

/* drain_pages_zone: empty cpu's pcp of z in chunks of batch << 5. */
void pcp_drain_pages_zone(struct sim *s, struct zone *z, int cpu);

/* drain_local_pages for cpu: every populated zone. */
void pcp_drain_cpu(struct sim *s, int cpu);

/* drain_all_pages(NULL): every online CPU with pages on its lists. */
void pcp_drain_all(struct sim *s, int cpu);

/* vmstat_update on cpu: decay_pcp_high, and NUMA expiry of remote pcps (drain_zone_pages). */
void pcp_vmstat_tick(struct sim *s, int cpu);

/* page_alloc_cpu_dead: drain the CPU's lists and recompute every zone's pcp values. */
void pcp_cpu_dead(struct sim *s, int cpu);

/* page_alloc_cpu_online: recompute pcp values of populated zones with cpu_online = 1. */
void pcp_cpu_online(struct sim *s, int cpu);

/* A captured state's pcp block: (pfn, order) goes at the tail of list pindex of cpu's pcp of z, counted. */
void pcp_capture_block(struct sim *s, struct zone *z, int cpu, uint32_t pfn, int order, int pindex);

/* A captured state's pcp->high (0 keeps the boot value); the usual clamp applies at first use. */
void pcp_capture_high(struct sim *s, struct zone *z, int cpu, int32_t high);

#endif
