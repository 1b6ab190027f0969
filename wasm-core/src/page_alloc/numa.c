/*
 * numa.c: NUMA figures of the page allocator.
 *
 * min_unmapped_pages and min_slab_pages are the floors node reclaim will not scan below
 * (reclaim/node_reclaim.c). Up to 4.7 each zone kept its own, present pages * ratio / 100 (the
 * sysctl handlers of mm/page_alloc.c [3.0]); since 4.8 each node keeps the sum over its zones of
 * managed pages * ratio / 100, rounded down per zone (setup_min_unmapped_ratio [6.18]). On the
 * live machine (managed DMA 3840, DMA32 772915, Normal 1376256, ratio 1) that is
 * 38 + 7729 + 13762 = 21529 pages.
 *
 * numastat: each allocation counts once, on the zone it came from, as numa_hit (the preferred
 * zone's node) or numa_miss (another node's; the preferred zone counts numa_foreign), and as
 * local_node or other_node against the allocating CPU's node (zone_statistics, page_alloc.c).
 */
#include "page_alloc/numa.h"

#include "base/state.h"

void setup_min_unmapped_ratio(struct sim *s)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		struct node *n = &sim_nodes(s)[nid];

		n->min_unmapped_pages = 0;
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			struct zone *z = &n->zones[zid];

			z->min_unmapped_pages = (int64_t)z->present * s->min_unmapped_ratio / 100;
			n->min_unmapped_pages += (int64_t)z->managed * s->min_unmapped_ratio / 100;
		}
	}
}

void setup_min_slab_ratio(struct sim *s)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		struct node *n = &sim_nodes(s)[nid];

		n->min_slab_pages = 0;
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			struct zone *z = &n->zones[zid];

			z->min_slab_pages = (int64_t)z->present * s->min_slab_ratio / 100;
			n->min_slab_pages += (int64_t)z->managed * s->min_slab_ratio / 100;
		}
	}
}

/* "name value\n" */
static void numastat_line(struct textbuf *tb, const char *name, uint64_t v)
{
	tb_str(tb, name);
	tb_char(tb, ' ');
	tb_uint_left(tb, v, 0);
	tb_char(tb, '\n');
}

void node_numastat(const struct sim *s, int nid, struct textbuf *tb)
{
	uint64_t hit = 0, miss = 0, foreign = 0, local = 0, other = 0;

	for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
		const struct zone *z = &sim_nodes(s)[nid].zones[zid];

		hit += z->numa_hit;
		miss += z->numa_miss;
		foreign += z->numa_foreign;
		local += z->numa_local;
		other += z->numa_other;
	}
	numastat_line(tb, "numa_hit", hit);
	numastat_line(tb, "numa_miss", miss);
	numastat_line(tb, "numa_foreign", foreign);
	/* no memory policies: nothing is interleaved */
	numastat_line(tb, "interleave_hit", 0);
	numastat_line(tb, "local_node", local);
	numastat_line(tb, "other_node", other);
}
