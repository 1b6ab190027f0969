/*
 * procfs.c: the allocator's /proc files, byte for byte in the kernel's layout (mm/vmstat.c),
 * filled with the model's numbers. Counters the model does not keep (slab, mlock, CMA, workingset)
 * print as 0 in the kernel's order and spelling, so the files diff cleanly against a real one.
 * The LRU and page cache figures are reclaim's (struct lruvec, struct zone's nr_zone_*).
 */
#include "base/subsystem.h"
#include "page_alloc/procfs.h"

#include <string.h>

#include "base/state.h"
#include "page_alloc/numa.h"
#include "page_alloc/vmstat.h"
#include "page_alloc/watermark.h"

#define PAGETYPE_COUNT_CAP 100000 /* pagetypeinfo stops walking a free list here */

/* zone_names[] */
static const char *const zone_names[MAX_NR_ZONES] = { "DMA", "DMA32", "Normal", "Movable",
						      "Device" };

/* migratetype_names[] without CMA, with memory isolation */
static const char *const migratetype_names[MIGRATE_TYPES] = { "Unmovable", "Movable", "Reclaimable",
							      "HighAtomic", "Isolate" };

/* vmstat suffixes of the zone-split event counters (TEXTS_FOR_ZONES) */
static const char *const zone_suffixes[MAX_NR_ZONES] = { "_dma", "_dma32", "_normal", "_movable",
							 "_device" };

/* Zone counters after nr_free_pages(_blocks) (vmstat_text order, 6.18); zone_item says which it keeps. */
static const char *const zone_stat_items[] = {
	"nr_zone_inactive_anon",
	"nr_zone_active_anon",
	"nr_zone_inactive_file",
	"nr_zone_active_file",
	"nr_zone_unevictable",
	"nr_zone_write_pending",
	"nr_mlock",
	"nr_zspages",
	"nr_free_cma",
};
#define NR_ZONE_STAT_ITEMS (sizeof zone_stat_items / sizeof zone_stat_items[0])

/* Node counters zoneinfo prints once per node (6.18 node_stat_name order); node_item says which it keeps. */
static const char *const node_stat_items[] = {
	"nr_inactive_anon",
	"nr_active_anon",
	"nr_inactive_file",
	"nr_active_file",
	"nr_unevictable",
	"nr_slab_reclaimable",
	"nr_slab_unreclaimable",
	"nr_isolated_anon",
	"nr_isolated_file",
	"workingset_nodes",
	"workingset_refault_anon",
	"workingset_refault_file",
	"workingset_activate_anon",
	"workingset_activate_file",
	"workingset_restore_anon",
	"workingset_restore_file",
	"workingset_nodereclaim",
	"nr_anon_pages",
	"nr_mapped",
	"nr_file_pages",
	"nr_dirty",
	"nr_writeback",
	"nr_shmem",
	"nr_shmem_hugepages",
	"nr_shmem_pmdmapped",
	"nr_file_hugepages",
	"nr_file_pmdmapped",
	"nr_anon_transparent_hugepages",
	"nr_vmscan_write",
	"nr_vmscan_immediate_reclaim",
	"nr_dirtied",
	"nr_written",
	"nr_throttled_written",
	"nr_kernel_misc_reclaimable",
	"nr_foll_pin_acquired",
	"nr_foll_pin_released",
	"nr_kernel_stack",
	"nr_page_table_pages",
	"nr_sec_page_table_pages",
	"nr_iommu_pages",
	"nr_swapcached",
	"pgpromote_success",
	"pgpromote_candidate",
	"pgpromote_candidate_nrl",
	"pgdemote_kswapd",
	"pgdemote_direct",
	"pgdemote_khugepaged",
	"pgdemote_proactive",
	"nr_hugetlb",
	"nr_balloon_pages",
	"nr_kernel_file_pages",
};
#define NR_NODE_STAT_ITEMS (sizeof node_stat_items / sizeof node_stat_items[0])

/* The NUMA event counters, in enum numa_stat_item order. */
enum { NUMA_HIT, NUMA_MISS, NUMA_FOREIGN, NUMA_INTERLEAVE, NUMA_LOCAL, NUMA_OTHER, NR_NUMA_ITEMS };
static const char *const numa_names[NR_NUMA_ITEMS] = { "numa_hit",     "numa_miss",
						       "numa_foreign", "numa_interleave",
						       "numa_local",   "numa_other" };

/* A zone's NUMA counter (interleave policy is not modelled). */
static uint64_t zone_numa(const struct zone *z, int item)
{
	switch (item) {
	case NUMA_HIT:
		return z->numa_hit;
	case NUMA_MISS:
		return z->numa_miss;
	case NUMA_FOREIGN:
		return z->numa_foreign;
	case NUMA_LOCAL:
		return z->numa_local;
	case NUMA_OTHER:
		return z->numa_other;
	default:
		return 0;
	}
}

/* Zone counter i of zone_stat_items: the LRU sizes and write-pending pages, else 0. */
static int64_t zone_item(const struct zone *z, size_t i)
{
	if (i < NR_LRU_LISTS)
		return z->nr_zone_lru[i];
	return i == 5 ? z->nr_zone_write_pending : 0; /* nr_zone_write_pending */
}

/* Node counter called name (node_stat_items): the LRU and page cache figures reclaim keeps, else 0. */
static int64_t node_item(const struct node *n, const char *name)
{
	static const char *const lru_names[NR_LRU_LISTS] = { "nr_inactive_anon", "nr_active_anon",
							     "nr_inactive_file", "nr_active_file" };

	for (int lru = 0; lru < NR_LRU_LISTS; lru++)
		if (!strcmp(name, lru_names[lru]))
			return n->lruvec.nr_pages[lru];
	if (!strcmp(name, "nr_anon_pages"))
		return n->lruvec.nr_anon;
	if (!strcmp(name, "nr_mapped"))
		return n->lruvec.nr_mapped;
	if (!strcmp(name, "nr_file_pages"))
		return n->lruvec.nr_file;
	if (!strcmp(name, "nr_dirty"))
		return n->lruvec.nr_dirty;
	return 0;
}

/* A non-negative counter (the kernel prints them %lu). */
static uint64_t counter(int64_t v)
{
	return v < 0 ? 0 : (uint64_t)v;
}

/* Whether a node has a populated zone (N_MEMORY). */
static int node_has_memory(const struct sim *s, int nid)
{
	for (int zid = 0; zid < MAX_NR_ZONES; zid++)
		if (zone_populated(&sim_nodes(s)[nid].zones[zid]))
			return 1;
	return 0;
}

/* "Node %d, zone %8s" */
static void node_zone(struct textbuf *tb, int nid, int zid)
{
	tb_str(tb, "Node ");
	tb_int(tb, nid, 0);
	tb_str(tb, ", zone ");
	tb_str_right(tb, zone_names[zid], 8);
}

void proc_buddyinfo(const struct sim *s, struct textbuf *tb)
{
	/* frag_show_print: free blocks (not pages) per order; pcp pages are not in them */
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone *z = &sim_nodes(s)[nid].zones[zid];

			if (!zone_populated(z))
				continue;
			node_zone(tb, nid, zid);
			tb_char(tb, ' ');
			for (int order = 0; order <= s->config.max_order; order++) {
				tb_int(tb, z->free_area[order].nr_free, 6);
				tb_char(tb, ' ');
			}
			tb_char(tb, '\n');
		}
	}
}

void proc_pagetypeinfo(const struct sim *s, struct textbuf *tb)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		if (!node_has_memory(s, nid))
			continue;
		tb_str(tb, "Page block order: ");
		tb_int(tb, s->config.pageblock_order, 0);
		tb_str(tb, "\nPages per block:  ");
		tb_int(tb, s->pageblock_nr_pages, 0);
		tb_str(tb, "\n\n");

		/* pagetypeinfo_showfree */
		tb_str_left(tb, "Free pages count per migrate type at order", 43);
		tb_char(tb, ' ');
		for (int order = 0; order <= s->config.max_order; order++) {
			tb_int(tb, order, 6);
			tb_char(tb, ' ');
		}
		tb_char(tb, '\n');
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone *z = &sim_nodes(s)[nid].zones[zid];

			if (!zone_populated(z))
				continue;
			for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
				tb_str(tb, "Node ");
				tb_int(tb, nid, 4);
				tb_str(tb, ", zone ");
				tb_str_right(tb, zone_names[zid], 8);
				tb_str(tb, ", type ");
				tb_str_right(tb, migratetype_names[mt], 12);
				tb_char(tb, ' ');
				for (int order = 0; order <= s->config.max_order; order++) {
					uint32_t count = z->free_area[order].count[mt];
					/* the kernel stops walking a list under the zone lock at 100000 */
					if (count >= PAGETYPE_COUNT_CAP) {
						tb_char(tb, '>');
						count = PAGETYPE_COUNT_CAP;
					}
					tb_int(tb, count, 6);
					tb_char(tb, ' ');
				}
				tb_char(tb, '\n');
			}
		}

		/* pagetypeinfo_showblockcount: pageblocks by their tag */
		tb_char(tb, '\n');
		tb_str_left(tb, "Number of blocks type ", 23);
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			tb_str_right(tb, migratetype_names[mt], 12);
			tb_char(tb, ' ');
		}
		tb_char(tb, '\n');
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone *z = &sim_nodes(s)[nid].zones[zid];
			uint64_t count[MIGRATE_TYPES] = { 0 };

			if (!zone_populated(z))
				continue;
			for (uint32_t pb = 0; pb < z->nr_pageblocks; pb++) {
				uint8_t tag = sim_pageblocks(s)[z->pageblock_base + pb];
				int mt = (tag & PB_ISOLATE) ? MIGRATE_ISOLATE : (tag & 0x7);
				if (mt < MIGRATE_TYPES)
					count[mt]++;
			}
			node_zone(tb, nid, zid);
			tb_char(tb, ' ');
			for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
				tb_int(tb, (int64_t)count[mt], 12);
				tb_char(tb, ' ');
			}
			tb_char(tb, '\n');
		}
	}
}

/* "\n      %-12s %lu" */
static void stat_line(struct textbuf *tb, const char *name, uint64_t v)
{
	tb_str(tb, "\n      ");
	tb_str_left(tb, name, 12);
	tb_char(tb, ' ');
	tb_uint_left(tb, v, 0);
}

/* "\n        <key> %lu" of the watermark block (keys carry their own padding) */
static void wmark_line(struct textbuf *tb, const char *key, int64_t v)
{
	tb_str(tb, "\n        ");
	tb_str(tb, key);
	tb_int(tb, v, 0);
}

/* "\n              <key>%i" of a pageset */
static void pageset_line(struct textbuf *tb, const char *key, int64_t v)
{
	tb_str(tb, "\n              ");
	tb_str(tb, key);
	tb_int(tb, v, 0);
}

/* Index of the node's first populated zone, or -1. */
static int first_populated_zone(const struct sim *s, int nid)
{
	for (int zid = 0; zid < MAX_NR_ZONES; zid++)
		if (zone_populated(&sim_nodes(s)[nid].zones[zid]))
			return zid;
	return -1;
}

/* zoneinfo_show_print for one zone. */
static void zoneinfo_zone(const struct sim *s, struct textbuf *tb, int nid, int zid)
{
	const struct node *n = &sim_nodes(s)[nid];
	const struct zone *z = &n->zones[zid];

	node_zone(tb, nid, zid);
	/* is_zone_first_populated: the node's statistics go with its first populated zone */
	if (zone_populated(z) && first_populated_zone(s, nid) == zid) {
		tb_str(tb, "\n  per-node stats");
		for (size_t i = 0; i < NR_NODE_STAT_ITEMS; i++)
			stat_line(tb, node_stat_items[i],
				  counter(node_item(n, node_stat_items[i])));
	}
	/* zone_page_state: the zone's counter, without the CPUs' vmstat deltas */
	tb_str(tb, "\n  pages free     ");
	tb_uint_left(tb, counter(zone_page_state_free(z)), 0);
	wmark_line(tb, "boost    ", z->watermark_boost);
	wmark_line(tb, "min      ", wmark_pages(z, WMARK_MIN));
	wmark_line(tb, "low      ", wmark_pages(z, WMARK_LOW));
	wmark_line(tb, "high     ", wmark_pages(z, WMARK_HIGH));
	/* the promo mark exists in 6.6 but zoneinfo only prints it after 6.6 */
	if (s->profile.watermark_promo)
		wmark_line(tb, "promo    ", wmark_pages(z, WMARK_PROMO));
	wmark_line(tb, "spanned  ", z->spanned);
	wmark_line(tb, "present  ", z->present);
	wmark_line(tb, "managed  ", z->managed);
	wmark_line(tb, "cma      ", 0);
	tb_str(tb, "\n        protection: (");
	for (int j = 0; j < MAX_NR_ZONES; j++) {
		if (j)
			tb_str(tb, ", ");
		tb_int(tb, z->lowmem_reserve[j], 0);
	}
	tb_char(tb, ')');
	/* an empty zone has nothing else worth showing */
	if (!zone_populated(z)) {
		tb_char(tb, '\n');
		return;
	}

	stat_line(tb, "nr_free_pages", counter(zone_page_state_free(z)));
	if (s->profile.nr_free_pages_blocks)
		stat_line(tb, "nr_free_pages_blocks", counter(z->nr_free_pages_blocks));
	for (size_t i = 0; i < NR_ZONE_STAT_ITEMS; i++)
		stat_line(tb, zone_stat_items[i], counter(zone_item(z, i)));
	for (int i = 0; i < NR_NUMA_ITEMS; i++)
		stat_line(tb, numa_names[i], zone_numa(z, i));

	tb_str(tb, "\n  pagesets");
	for (uint32_t cpu = 0; cpu < s->nr_cpus && cpu < MAX_CPUS; cpu++) {
		const struct per_cpu_pages *pcp;

		if (!sim_cpus(s)[cpu].online)
			continue;
		pcp = sim_pcp(s, (int)cpu, nid, zid);
		tb_str(tb, "\n    cpu: ");
		tb_int(tb, cpu, 0);
		if (s->profile.zoneinfo_high_min_max) {
			pageset_line(tb, "count:    ", pcp->count);
			pageset_line(tb, "high:     ", pcp->high);
			pageset_line(tb, "batch:    ", pcp->batch);
			pageset_line(tb, "high_min: ", pcp->high_min);
			pageset_line(tb, "high_max: ", pcp->high_max);
		} else {
			/* up to 6.12 at least: count, high and batch, shorter padding */
			pageset_line(tb, "count: ", pcp->count);
			pageset_line(tb, "high:  ", pcp->high);
			pageset_line(tb, "batch: ", pcp->batch);
		}
		tb_str(tb, "\n  vm stats threshold: ");
		tb_int(tb, wmark_stat_threshold(s, z), 0);
	}
	tb_str(tb, "\n  node_unreclaimable:  ");
	tb_int(tb, wmark_node_unreclaimable(n), 0);
	tb_str(tb, "\n  start_pfn:           ");
	tb_int(tb, z->start_pfn, 0);
	tb_char(tb, '\n');
}

void proc_zoneinfo(const struct sim *s, struct textbuf *tb)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			zoneinfo_zone(s, tb, nid, zid);
}

/* "%s %lu\n" of /proc/vmstat */
static void vmstat_line(struct textbuf *tb, const char *name, const char *suffix, uint64_t v)
{
	tb_str(tb, name);
	if (suffix)
		tb_str(tb, suffix);
	tb_char(tb, ' ');
	tb_uint_left(tb, v, 0);
	tb_char(tb, '\n');
}

void proc_vmstat(const struct sim *s, struct textbuf *tb)
{
	uint64_t free_pages = 0, free_blocks = 0, numa[NR_NUMA_ITEMS] = { 0 };
	uint64_t zone_items[NR_ZONE_STAT_ITEMS] = { 0 };
	const struct vm_events *ev = &s->ev;

	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone *z = &sim_nodes(s)[nid].zones[zid];
			/* global_zone_page_state: the zone counters, as vm_zone_stat sums them */
			free_pages += counter(z->vm_stat_free);
			free_blocks += counter(z->nr_free_pages_blocks);
			for (int i = 0; i < NR_NUMA_ITEMS; i++)
				numa[i] += zone_numa(z, i);
			for (size_t i = 0; i < NR_ZONE_STAT_ITEMS; i++)
				zone_items[i] += counter(zone_item(z, i));
		}
	}
	/* zone counters, NUMA counters, node counters, then (skipping global stats) the events */
	vmstat_line(tb, "nr_free_pages", NULL, free_pages);
	if (s->profile.nr_free_pages_blocks)
		vmstat_line(tb, "nr_free_pages_blocks", NULL, free_blocks);
	for (size_t i = 0; i < NR_ZONE_STAT_ITEMS; i++)
		vmstat_line(tb, zone_stat_items[i], NULL, zone_items[i]);
	for (int i = 0; i < NR_NUMA_ITEMS; i++)
		vmstat_line(tb, numa_names[i], NULL, numa[i]);
	for (size_t i = 0; i < NR_NODE_STAT_ITEMS; i++) {
		uint64_t v = 0;
		for (int nid = 0; nid < s->config.nr_nodes; nid++)
			v += counter(node_item(&sim_nodes(s)[nid], node_stat_items[i]));
		vmstat_line(tb, node_stat_items[i], NULL, v);
	}
	vmstat_line(tb, "pswpout", NULL, ev->pswpout);
	for (int zid = 0; zid < MAX_NR_ZONES; zid++)
		vmstat_line(tb, "pgalloc", zone_suffixes[zid], ev->pgalloc[zid]);
	for (int zid = 0; zid < MAX_NR_ZONES; zid++)
		vmstat_line(tb, "allocstall", zone_suffixes[zid], ev->allocstall[zid]);
	vmstat_line(tb, "pgfree", NULL, ev->pgfree);
	vmstat_line(tb, "pgactivate", NULL, ev->pgactivate);
	vmstat_line(tb, "pgdeactivate", NULL, ev->pgdeactivate);
	vmstat_line(tb, "pgrefill", NULL, ev->pgrefill);
	vmstat_line(tb, "pgsteal_kswapd", NULL, ev->pgsteal_kswapd);
	vmstat_line(tb, "pgsteal_direct", NULL, ev->pgsteal_direct);
	vmstat_line(tb, "pgscan_kswapd", NULL, ev->pgscan_kswapd);
	vmstat_line(tb, "pgscan_direct", NULL, ev->pgscan_direct);
	vmstat_line(tb, "pgscan_anon", NULL, ev->pgscan_anon);
	vmstat_line(tb, "pgscan_file", NULL, ev->pgscan_file);
	vmstat_line(tb, "pgsteal_anon", NULL, ev->pgsteal_anon);
	vmstat_line(tb, "pgsteal_file", NULL, ev->pgsteal_file);
	/* node reclaim's outcomes (6.x prints success first; before ~6.10 only failures) */
	if (s->profile.zone_reclaim_success_counter)
		vmstat_line(tb, "zone_reclaim_success", NULL, ev->zone_reclaim_success);
	vmstat_line(tb, "zone_reclaim_failed", NULL, ev->zone_reclaim_failed);
	vmstat_line(tb, "pageoutrun", NULL, ev->pageoutrun);
	vmstat_line(tb, "pgrotated", NULL, ev->pgrotated);
	vmstat_line(tb, "oom_kill", NULL, ev->oom_kill);
	/* the event counters of the other subsystems (pgfault, vma_lock_*) follow in their order */
	for (const struct subsystem *const *sub = sim_subsystems; *sub; sub++)
		if ((*sub)->vmstat)
			(*sub)->vmstat(s, tb);
}

size_t sim_proc_render(const struct sim *s, int which, char *buf, size_t cap)
{
	struct textbuf tb;

	tb_init(&tb, buf, cap);
	switch (which) {
	case PROC_BUDDYINFO:
		proc_buddyinfo(s, &tb);
		break;
	case PROC_PAGETYPEINFO:
		proc_pagetypeinfo(s, &tb);
		break;
	case PROC_ZONEINFO:
		proc_zoneinfo(s, &tb);
		break;
	case PROC_VMSTAT:
		proc_vmstat(s, &tb);
		break;
	case PROC_NUMASTAT:
		for (int nid = 0; nid < s->config.nr_nodes; nid++) {
			if (nid)
				tb_char(&tb, '\n');
			tb_str(&tb, "==> /sys/devices/system/node/node");
			tb_int(&tb, nid, 0);
			tb_str(&tb, "/numastat <==\n");
			node_numastat(s, nid, &tb);
		}
		break;
	default:
		break;
	}
	return tb_finish(&tb);
}
