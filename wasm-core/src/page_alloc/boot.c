/*
 * boot.c: the page allocator's part of booting a machine whose arena is laid out (every list
 * empty): memblock hands every managed frame to the buddy, then min_free_kbytes, the watermarks,
 * lowmem_reserve, the zonelists and every CPU's pcp values are computed as the kernel's init does.
 */
#include "base/state.h"
#include "page_alloc/buddy.h"
#include "page_alloc/numa.h"
#include "page_alloc/page_alloc.h"
#include "page_alloc/pcp.h"
#include "page_alloc/vmstat.h"
#include "page_alloc/watermark.h"
#include "page_alloc/zonelist.h"

void page_alloc_boot(struct sim *s)
{
	const struct sim_config *cfg = &s->config;

	/* mem_init: memblock hands every managed frame to the buddy */
	for (int nid = 0; nid < cfg->nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			if (zone_populated(&sim_nodes(s)[nid].zones[zid]))
				buddy_free_all_frames(s, &sim_nodes(s)[nid].zones[zid]);

	/* init_per_zone_wmark_min (+ the THP recommendation), then the pcp values it triggers */
	if (cfg->min_free_kbytes >= 0) {
		s->min_free_kbytes = cfg->min_free_kbytes;
		s->user_min_free_kbytes = cfg->min_free_kbytes;
	} else {
		s->min_free_kbytes = wmark_default_min_free_kbytes(s);
	}
	wmark_setup_per_zone_wmarks(s);
	wmark_setup_lowmem_reserve(s);
	/* init_per_zone_wmark_min refreshes the stat thresholds after the watermarks */
	vmstat_refresh_thresholds(s);
	zonelist_build(s);
	/* vm.min_unmapped_ratio and vm.min_slab_ratio start at 1% and 5% */
	s->min_unmapped_ratio = 1;
	s->min_slab_ratio = 5;
	setup_min_unmapped_ratio(s);
	setup_min_slab_ratio(s);
	pcp_init_all(s);
}
