/*
 * kswapd.h: each node's kswapd (mm/vmscan.c: kswapd, balance_pgdat). The kernel runs it as a
 * thread beside the workload; the model runs it after every op while it is awake, as far as one
 * batch of reclaim (kswapd_step), and at a vmstat tick lets it finish (a second is long enough).
 */
#ifndef BUDDYSCOPE_RECLAIM_KSWAPD_H
#define BUDDYSCOPE_RECLAIM_KSWAPD_H

#include "base/types.h"

/* One step of node nid's kswapd: begin balance_pgdat if woken, then rounds until one frees a batch (SWAP_CLUSTER_MAX) or it ends. */
void kswapd_step(struct sim *s, int nid);

/* Run node nid's kswapd until it sleeps or has taken max_steps steps. */
void kswapd_run(struct sim *s, int nid, int max_steps);

#endif
