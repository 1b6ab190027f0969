/*
 * kswapd.h: each node's kswapd (mm/vmscan.c: kswapd, balance_pgdat). The kernel runs it as a
 * thread beside the workload; the model runs it after every op while it is awake, as far as one
 * batch of reclaim (kswapd_step) and, on a replayed trace's clock, no further than the kernel's
 * kswapd would have got by then (KSWAPD_FOLIO_NS); at a vmstat tick it lets it finish (a second is
 * long enough).
 * Balanced, it naps HZ/10 before sleeping: a replayed trace's clock (OP_CLOCK) or the next vmstat
 * tick ends the nap, and a node found unbalanced then is balanced again without a wakeup.
 */
#ifndef BUDDYSCOPE_RECLAIM_KSWAPD_H
#define BUDDYSCOPE_RECLAIM_KSWAPD_H

#include "base/types.h"

/* kswapd_try_to_sleep's nap once the node is balanced: HZ/10 */
#define KSWAPD_NAP_US 100000

/*
 * What kswapd's reclaim takes the kernel, per folio it takes off a list and per page those
 * folios hold: the model's rounds take no trace time of their own, so on a replayed trace's
 * clock kswapd goes no further than this cost allows (and naps from where it ends). Fitted to
 * the 24 balance_pgdat runs of eight 6.18 captures (runs of 1.2-46 ms; folios freed and pages
 * scanned from their trace): 1.93 us a folio and 0.16 us a page, within 26% of the run's length
 * for half of them and 66% for all (docs/model-notes.md). A large folio is freed whole, hence
 * the two figures: a run of order-8 folios took 0.4 us a page, one of single pages 5 us.
 */
#define KSWAPD_FOLIO_NS 1930
#define KSWAPD_PAGE_NS 160

/* What the mm_vmscan_kswapd_sleep event says kswapd does next (its first field). */
enum kswapd_next {
	KSWAPD_STARTS_OVER = 0, /* balance_pgdat ended unbalanced: it runs again at once */
	KSWAPD_SLEEPS = 1,	/* asleep until woken: the kernel's mm_vmscan_kswapd_sleep */
	KSWAPD_NAPS = 2,	/* balanced: it naps HZ/10 first */
};

/* One step of node nid's kswapd: begin balance_pgdat if woken, then rounds until one frees a batch (SWAP_CLUSTER_MAX), it ends, or (on a trace's clock) its work so far outruns the clock. */
void kswapd_step(struct sim *s, int nid);

/* Run node nid's kswapd until it sleeps or has taken max_steps steps. */
void kswapd_run(struct sim *s, int nid, int max_steps);

/* OP_CLOCK: the replayed trace's clock reads us microseconds; a nap that has run out ends at the op's end. */
void kswapd_clock(struct sim *s, int64_t us);

#endif
