/*
 * vmstat.c: NR_FREE_PAGES as mm/vmstat.c counts it (docs/kernel/page_alloc/zones.md#c8-vmstat-threshold).
 *
 * Updating one shared counter on every free and allocation would bounce its cache line between
 * CPUs. So each CPU keeps a signed byte per zone and counter (vm_stat_diff) and only when a
 * change pushes it past the zone's stat_threshold does the whole delta go into the zone's counter
 * (__mod_zone_page_state); the vmstat worker folds whatever is left every second
 * (refresh_cpu_vm_stats), as does CPU offlining (cpu_vm_stats_fold). Worked example, threshold
 * 24: a CPU frees 20 pages (delta 20, zone counter unchanged), then 5 more (25 > 24: the zone
 * counter grows by 25, the delta is 0 again).
 *
 * Readers: the watermark checks read the zone counter alone (zone_page_state), which can be
 * wrong by up to online CPUs x threshold pages; zone_watermark_ok_safe, for kswapd, adds the
 * deltas (zone_page_state_snapshot) when the counter is below percpu_drift_mark, where that
 * error could hide a breach of the min watermark.
 *
 * The model changes the counter where 6.10+'s account_freepages does (a freed block, a block
 * split off a list with what expand put back, each block move); that is the CPU holding
 * zone->lock (zone->stat_cpu). Changes made without the lock (boot) go straight to the zone.
 */
#include "page_alloc/vmstat.h"

#include "base/fast_path.h"
#include "base/state.h"

/* fls: 1-based index of the highest set bit, 0 for 0. */
static int fls64(uint64_t x)
{
	int n = 0;

	while (x && n < 64) {
		n++;
		x >>= 1;
	}
	return n;
}

int wmark_stat_threshold(const struct sim *s, const struct zone *z)
{
	/* calculate_normal_threshold: grows with log2 of CPUs and of the zone size in 128 MiB units */
	uint32_t online = 0;
	uint64_t mem = (uint64_t)z->managed >> (27 - PAGE_SHIFT);
	int threshold;

	for (uint32_t cpu = 0; cpu < s->nr_cpus && cpu < MAX_CPUS; cpu++)
		online += sim_cpus(s)[cpu].online ? 1 : 0;
	threshold = 2 * fls64(online) * (1 + fls64(mem));
	return threshold < 125 ? threshold : 125;
}

void vmstat_refresh_thresholds(struct sim *s)
{
	uint32_t online = 0;

	for (uint32_t cpu = 0; cpu < s->nr_cpus && cpu < MAX_CPUS; cpu++)
		online += sim_cpus(s)[cpu].online ? 1 : 0;
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			struct zone *z = &sim_nodes(s)[nid].zones[zid];
			int64_t threshold, tolerate_drift, max_drift;

			if (!zone_populated(z))
				continue;
			threshold = wmark_stat_threshold(s, z);
			z->stat_threshold = (uint8_t)threshold;
			/*
			 * The drift could make NR_FREE_PAGES say "above low" while min is breached:
			 * then the safe check must sum the deltas below high + the largest drift
			 */
			tolerate_drift =
				(int64_t)z->_watermark[WMARK_LOW] - z->_watermark[WMARK_MIN];
			max_drift = (int64_t)online * threshold;
			z->percpu_drift_mark = max_drift > tolerate_drift ?
						       z->_watermark[WMARK_HIGH] + max_drift :
						       0;
		}
	}
}

FAST_PATH void vmstat_mod_free(struct sim *s, struct zone *z, int64_t delta)
{
	struct per_cpu_pages *pcp;
	int64_t x;

	if (!z->stat_cpu || z->stat_cpu > s->nr_cpus) {
		z->vm_stat_free += delta;
		return;
	}
	pcp = sim_pcp(s, z->stat_cpu - 1, z->node, z->idx);
	x = delta + pcp->vm_stat_diff;
	/* past the threshold the whole delta goes to the zone (an s8 holds at most 127) */
	if (x > z->stat_threshold || x < -(int64_t)z->stat_threshold) {
		z->vm_stat_free += x;
		x = 0;
	}
	pcp->vm_stat_diff = (int8_t)x;
}

int64_t zone_page_state_free(const struct zone *z)
{
	/* per-CPU deltas can make the counter go transiently negative */
	return z->vm_stat_free < 0 ? 0 : z->vm_stat_free;
}

int64_t vmstat_pending_free(const struct sim *s, const struct zone *z)
{
	int64_t sum = 0;

	for (uint32_t cpu = 0; cpu < s->nr_cpus; cpu++)
		sum += sim_pcp(s, (int)cpu, z->node, z->idx)->vm_stat_diff;
	return sum;
}

int64_t zone_page_state_snapshot_free(const struct sim *s, const struct zone *z)
{
	int64_t x = z->vm_stat_free + vmstat_pending_free(s, z);

	return x < 0 ? 0 : x;
}

int64_t vmstat_fold_cpu(struct sim *s, int cpu)
{
	int64_t folded = 0;

	if (cpu < 0 || (uint32_t)cpu >= s->nr_cpus)
		return 0;
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			struct zone *z = &sim_nodes(s)[nid].zones[zid];
			struct per_cpu_pages *pcp = sim_pcp(s, cpu, nid, zid);

			if (!pcp->vm_stat_diff)
				continue;
			z->vm_stat_free += pcp->vm_stat_diff;
			folded += pcp->vm_stat_diff < 0 ? -pcp->vm_stat_diff : pcp->vm_stat_diff;
			pcp->vm_stat_diff = 0;
		}
	}
	return folded;
}
