/*
 * kswapd.h: each node's kswapd (mm/vmscan.c: kswapd, balance_pgdat). The kernel runs it as a
 * thread beside the workload; the model runs one round of balance_pgdat's priority loop after
 * every op while it is awake, and at a vmstat tick lets it finish (a second is long enough).
 */
#ifndef BUDDYSCOPE_RECLAIM_KSWAPD_H
#define BUDDYSCOPE_RECLAIM_KSWAPD_H

#include "base/types.h"

/* One step of node nid's kswapd: begin balance_pgdat if woken, else run its next round. */
void kswapd_step(struct sim *s, int nid);

/* Run node nid's kswapd until it sleeps or has run max_rounds rounds. */
void kswapd_run(struct sim *s, int nid, int max_rounds);

#endif
