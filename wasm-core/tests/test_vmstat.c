/*
 * test_vmstat.c: NR_FREE_PAGES as mm/vmstat.c keeps it (6.12/6.18 __mod_zone_page_state,
 * refresh_cpu_vm_stats, cpu_vm_stats_fold, refresh_zone_stat_thresholds, zone_page_state(_snapshot),
 * zone_watermark_ok_safe): each CPU's changes wait in a signed delta until they pass the stat
 * threshold or the vmstat tick folds them, and the watermark checks read the lagging counter.
 */
#include "alloc_test_util.h"
#include "page_alloc/vmstat.h"
#include "page_alloc/watermark.h"

/* One node, 2 CPUs, a Normal zone of `managed` pages, pcp batch `batch`. */
static struct sim *vm_machine(uint32_t managed, int32_t batch)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	cfg.thp = 0;
	cfg.pcp_batch = batch;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1u << 20, managed, managed, managed };
	return at_boot(&cfg);
}

/* __mod_zone_page_state: the delta waits until |delta| passes the threshold, then all of it goes. */
TEST(vmstat_delta_folds_past_the_threshold)
{
	struct sim *s = vm_machine(65536, 0);
	struct zone *z;
	struct per_cpu_pages *pcp;
	int64_t before;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	pcp = sim_pcp(s, 1, 0, ZONE_NORMAL);
	/* 256 MiB, 2 CPUs: 2 * fls(2) * (1 + fls(2)) = 12 */
	CHECK_EQ(z->stat_threshold, 12);
	before = z->vm_stat_free;
	z->stat_cpu = 2; /* as if CPU 1 held zone->lock */
	vmstat_mod_free(s, z, 10);
	CHECK_EQ(pcp->vm_stat_diff, 10);
	CHECK_EQ(z->vm_stat_free, before);
	vmstat_mod_free(s, z, 2); /* 12 is not past 12 */
	CHECK_EQ(pcp->vm_stat_diff, 12);
	vmstat_mod_free(s, z, 1); /* 13 is: all 13 go to the zone */
	CHECK_EQ(pcp->vm_stat_diff, 0);
	CHECK_EQ(z->vm_stat_free, before + 13);
	vmstat_mod_free(s, z, -40); /* a big change goes at once */
	CHECK_EQ(pcp->vm_stat_diff, 0);
	CHECK_EQ(z->vm_stat_free, before - 27);
	/* without a lock holder (boot) the change goes straight to the zone */
	z->stat_cpu = 0;
	vmstat_mod_free(s, z, 5);
	CHECK_EQ(z->vm_stat_free, before - 22);
	free(s);
}

/*
 * Through the allocator: a CPU that frees a few pages to the buddy leaves them in its delta, so the
 * zone counter (what zone_watermark_fast reads, and zoneinfo prints) lags the exact count until
 * the vmstat tick folds them.
 */
TEST(vmstat_counter_lags_until_the_tick)
{
	struct sim *s = vm_machine(65536, 0);
	struct zone *z;
	int64_t lag;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	CHECK_EQ(z->vm_stat_free, z->nr_free_pages);
	/* an order-4 block (not a pcp order) comes off the buddy on CPU 1 and goes back */
	CHECK_EQ(at_alloc(s, 1, GFP_KERNEL, 4, 0), SIM_OK);
	/* -16 is past the threshold (12): folded at once */
	CHECK_EQ(z->vm_stat_free, z->nr_free_pages);
	CHECK_EQ(at_alloc(s, 1, GFP_KERNEL, 3, 1), SIM_OK);
	/* an order-3 request refills CPU 1's pcp list: whatever the delta holds, the sum is exact */
	lag = vmstat_pending_free(s, z);
	CHECK_EQ(z->vm_stat_free + lag, z->nr_free_pages);
	CHECK(lag >= -12 && lag <= 12);
	/* free 8 pages: +8 waits in CPU 1's delta (with whatever was there, unless that passes 12) */
	CHECK_EQ(at_free(s, 1, 1), SIM_OK);
	CHECK_EQ(z->vm_stat_free + vmstat_pending_free(s, z), z->nr_free_pages);
	/* the tick folds every CPU's delta: the counter is exact again */
	CHECK_EQ(at_op(s, OP_TICK, 0, 0, 0, 0, 1), SIM_OK);
	CHECK_EQ(vmstat_pending_free(s, z), 0);
	CHECK_EQ(z->vm_stat_free, z->nr_free_pages);
	free(s);
}

/*
 * The lag changes a watermark verdict: with the exact count just below a mark and CPU 1's delta
 * holding the difference, zone_watermark_ok (zone_page_state) passes, while
 * zone_watermark_ok_safe, below percpu_drift_mark, sums the deltas and fails.
 */
TEST(vmstat_watermark_reads_the_lagging_counter_safe_does_not)
{
	struct sim *s = vm_machine(65536, 0);
	struct zone *z;
	struct per_cpu_pages *pcp;
	int64_t exact, mark;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	pcp = sim_pcp(s, 1, 0, ZONE_NORMAL);
	/* CPU 1 took 10 pages the zone counter has not heard of yet (the lists stay as they are) */
	exact = z->nr_free_pages;
	z->vm_stat_free = exact + 10;
	pcp->vm_stat_diff = -10;
	CHECK_EQ(at_check(s), SIM_OK);
	CHECK_EQ(zone_page_state_free(z), exact + 10);
	CHECK_EQ(zone_page_state_snapshot_free(s, z), exact);
	/* a mark between the two: the counter says 10 pages more than the exact count's 5 short */
	mark = exact + 5;
	CHECK(zone_watermark_ok(s, z, 0, mark, ZONE_NORMAL, 0, WMARK_CHECK_OTHER, -1));
	/* the safe check only sums the deltas below the drift mark: put the zone there */
	z->percpu_drift_mark = exact + 100;
	CHECK(!zone_watermark_ok_safe(s, z, 0, mark, ZONE_NORMAL, -1));
	/* above the drift mark it trusts the counter, as zone_watermark_ok does */
	z->percpu_drift_mark = exact - 100;
	CHECK(zone_watermark_ok_safe(s, z, 0, mark, ZONE_NORMAL, -1));
	CHECK_EQ(at_check(s), SIM_OK);
	free(s);
}

/* refresh_zone_stat_thresholds: the drift mark is set when CPUs x threshold exceeds low - min. */
TEST(vmstat_drift_mark_and_threshold_follow_the_cpus)
{
	struct sim *s = vm_machine(65536, 0);
	struct zone *z;
	int64_t tolerate;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	tolerate = (int64_t)z->_watermark[WMARK_LOW] - z->_watermark[WMARK_MIN];
	if (2 * 12 > tolerate)
		CHECK_EQ(z->percpu_drift_mark, z->_watermark[WMARK_HIGH] + 2 * 12);
	else
		CHECK_EQ(z->percpu_drift_mark, 0);
	/* CPU 1 goes offline: its deltas are folded and the threshold shrinks to one CPU's (2 * 1 * 3) */
	z->vm_stat_free -= 7;
	sim_pcp(s, 1, 0, ZONE_NORMAL)->vm_stat_diff = 7;
	CHECK_EQ(at_check(s), SIM_OK);
	CHECK_EQ(at_op(s, OP_CPU_OFFLINE, 1, 0, 0, 0, 0), SIM_OK);
	CHECK_EQ(sim_pcp(s, 1, 0, ZONE_NORMAL)->vm_stat_diff, 0);
	CHECK_EQ(z->vm_stat_free, z->nr_free_pages);
	CHECK_EQ(z->stat_threshold, 6);
	free(s);
}
