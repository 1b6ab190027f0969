/*
 * zone_lock.h: zone->lock as the page allocator takes it: the zone's spinlock (base/lock.h) plus
 * the allocator's own costs in virtual time, and the EV_ZONE_LOCK record of every hold. The costs
 * are documented choices like the lock's, set against COST_LOCK_* so that a refill of many blocks
 * outweighs its one hand-over and a pcp hit is cheaper than any trip to the buddy.
 */
#ifndef BUDDYSCOPE_ZONE_LOCK_H
#define BUDDYSCOPE_ZONE_LOCK_H

#include "base/event.h"
#include "base/types.h"

/* A pcp hit or a pcp free, no zone lock: a few list operations on this CPU's own lines. */
#define COST_PCP_FAST_NS 40
/* One block moved to or from the buddy lists under the lock: list unlinks, a buddy check or two. */
#define COST_BUDDY_BLOCK_NS 120

/* spin_lock_irqsave(&zone->lock) on cpu at its clock: waits until the lock is free; emits nothing. */
void zone_lock(struct sim *s, struct zone *z, int cpu);

/* spin_unlock(&zone->lock) after moving `blocks` blocks (`pages` pages): emits EV_ZONE_LOCK (a = wait, b = hold, c = pages). */
void zone_unlock(struct sim *s, struct zone *z, int cpu, int blocks, int pages);

/*
 * Taking the pcp lock as the profile's kernel does, for the trace's flags column: 6.0+ disables
 * preemption and takes pcp->lock (pinned: pcp_spin_lock/trylock, two levels; the drains' plain
 * spin_lock(&pcp->lock), one), earlier kernels disable interrupts (local_lock_irqsave,
 * local_irq_save). c is the CPU: the alloc and free paths, whose CPU indexes its own pcp lists and
 * so is valid, call this directly. Returns its trace_ctx before, to be put back on release.
 */
static FAST_PATH uint8_t pcp_lock_cpu_ctx(const struct sim *s, struct cpu *c, int pinned)
{
	uint8_t before = c->trace_ctx;

	if (s->profile.pcp_lock_preempt)
		c->trace_ctx = (uint8_t)((before & ~TRACE_CTX_DEPTH) |
					 ((before + (pinned ? 2 : 1)) & TRACE_CTX_DEPTH));
	else
		c->trace_ctx = before | TRACE_CTX_IRQS_OFF;
	return before;
}

/* pcp_lock_cpu_ctx for any cpu (none, or out of range: nothing changes, 0). For pcp_unlock_ctx. */
static inline uint8_t pcp_lock_ctx(struct sim *s, int cpu, int pinned)
{
	if (cpu < 0 || (uint32_t)cpu >= s->nr_cpus)
		return 0;
	return pcp_lock_cpu_ctx(s, &sim_cpus(s)[cpu], pinned);
}

/* Releasing it: cpu's trace_ctx goes back to what pcp_lock_ctx returned. */
static inline void pcp_unlock_ctx(struct sim *s, int cpu, uint8_t before)
{
	if (cpu >= 0 && (uint32_t)cpu < s->nr_cpus)
		sim_cpus(s)[cpu].trace_ctx = before;
}

#endif
