/*
 * vmstat.h: the zone's free-page counter as mm/vmstat.c keeps it: each CPU collects its changes
 * in a small signed delta and adds it to the zone's counter only past the stat threshold or on
 * the vmstat tick, so readers of the zone counter see a value that lags by up to
 * online CPUs x threshold pages.
 */
#ifndef BUDDYSCOPE_VMSTAT_H
#define BUDDYSCOPE_VMSTAT_H

#include "base/types.h"

/* calculate_normal_threshold: the per-CPU stat threshold of z ("vm stats threshold" in zoneinfo). */
int wmark_stat_threshold(const struct sim *s, const struct zone *z);

/* refresh_zone_stat_thresholds: every zone's stat_threshold and percpu_drift_mark from the online CPUs and watermarks. */
void vmstat_refresh_thresholds(struct sim *s);

/* __mod_zone_page_state(z, NR_FREE_PAGES, delta) on the zone-lock holder's CPU (boot: straight to the zone). */
void vmstat_mod_free(struct sim *s, struct zone *z, int64_t delta);

/* zone_page_state(z, NR_FREE_PAGES): the zone's counter, without the CPUs' deltas, never below 0. */
int64_t zone_page_state_free(const struct zone *z);

/* zone_page_state_snapshot(z, NR_FREE_PAGES): the counter plus every CPU's delta, never below 0. */
int64_t zone_page_state_snapshot_free(const struct sim *s, const struct zone *z);

/* refresh_cpu_vm_stats / cpu_vm_stats_fold for NR_FREE_PAGES: cpu's deltas go into the zones; pages folded. */
int64_t vmstat_fold_cpu(struct sim *s, int cpu);

/* The sum of every CPU's delta for z (the lag of zone_page_state_free, for the checker and tests). */
int64_t vmstat_pending_free(const struct sim *s, const struct zone *z);

#endif
