/*
 * lock.h: the virtual-time model of zone->lock for many CPUs. Documented costs, not measurements:
 * they make contention visible and comparable between profiles.
 */
#ifndef BUDDYSCOPE_LOCK_H
#define BUDDYSCOPE_LOCK_H

#include "base/types.h"

#define COST_PCP_FAST_NS 40	  /* a pcp hit or a pcp free, no zone lock */
#define COST_BUDDY_BLOCK_NS 120	  /* one block moved to or from the buddy lists under the lock */
#define COST_LOCK_ACQUIRE_NS 30	  /* an uncontended spin_lock/unlock pair */
#define COST_LOCK_HANDOVER_NS 250 /* the lock's cache line moving to another CPU */

/* spin_lock(&zone->lock) on cpu at its clock: waits until the lock is free; emits nothing. */
void zone_lock(struct sim *s, struct zone *z, int cpu);

/* spin_unlock: charges the hold (acquire pair + hand-over if the last holder was another CPU + `blocks` blocks), emits EV_ZONE_LOCK. */
void zone_unlock(struct sim *s, struct zone *z, int cpu, int blocks, int pages);

/* Advance cpu's clock by ns of work outside the lock. */
void cpu_charge(struct sim *s, int cpu, uint64_t ns);

#endif
