/*
 * kswapd.h: each node's kswapd (mm/vmscan.c: kswapd, balance_pgdat). The kernel runs it as a
 * thread beside the workload; the model runs it after every op while it is awake, as far as one
 * batch of reclaim (kswapd_step), and at a vmstat tick lets it finish (a second is long enough).
 * Balanced, it naps HZ/10 before sleeping: a replayed trace's clock (OP_CLOCK) or the next vmstat
 * tick ends the nap, and a node found unbalanced then is balanced again without a wakeup.
 */
#ifndef BUDDYSCOPE_RECLAIM_KSWAPD_H
#define BUDDYSCOPE_RECLAIM_KSWAPD_H

#include "base/types.h"

/* kswapd_try_to_sleep's nap once the node is balanced: HZ/10 */
#define KSWAPD_NAP_US 100000

/*
 * How long kswapd's balance_pgdat takes per page it scans: the model's run takes no trace time,
 * so its nap begins this much after the run began. A rough figure from the 6.18 captures: with
 * memory cgroups their runs took 1.7-5.4 us a page (kswapd-memcg: 21 ms for 4548 pages), without
 * 0.4-2 us; one constant for all is a simplification (docs/model-notes.md).
 */
#define KSWAPD_SCAN_PAGE_NS 4500

/* What the mm_vmscan_kswapd_sleep event says kswapd does next (its first field). */
enum kswapd_next {
	KSWAPD_STARTS_OVER = 0, /* balance_pgdat ended unbalanced: it runs again at once */
	KSWAPD_SLEEPS = 1,	/* asleep until woken: the kernel's mm_vmscan_kswapd_sleep */
	KSWAPD_NAPS = 2,	/* balanced: it naps HZ/10 first */
};

/* One step of node nid's kswapd: begin balance_pgdat if woken, then rounds until one frees a batch (SWAP_CLUSTER_MAX) or it ends. */
void kswapd_step(struct sim *s, int nid);

/* Run node nid's kswapd until it sleeps or has taken max_steps steps. */
void kswapd_run(struct sim *s, int nid, int max_steps);

/* OP_CLOCK: the replayed trace's clock reads us microseconds; a nap that has run out ends at the op's end. */
void kswapd_clock(struct sim *s, int64_t us);

#endif
