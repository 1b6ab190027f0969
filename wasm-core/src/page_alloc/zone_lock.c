/*
 * zone_lock.c: zone->lock for the page allocator. The lock is the zone's struct spinlock; what
 * the allocator adds is the work done under it, charged to the holder's clock before the release,
 * so the hold (and every later CPU's wait) grows with the blocks moved. Worked example in
 * base/lock.c: two CPUs taking turns on one zone.
 */
#include "base/event.h"
#include "base/fast_path.h"
#include "base/lock.h"
#include "page_alloc/zone_lock.h"

/* zone_lock: the spinlock alone; the blocks are charged at unlock, when their number is known. */
FAST_PATH void zone_lock(struct sim *s, struct zone *z, int cpu)
{
	spin_lock(s, &z->lock, cpu);
	/* the holder's CPU is the one whose vmstat deltas the changes under the lock go to */
	z->stat_cpu = (uint16_t)(cpu >= 0 && (uint32_t)cpu < s->nr_cpus ? cpu + 1 : 0);
	/* spin_lock_irqsave: interrupts off (remembering whether they were), one preempt level */
	if (cpu >= 0 && (uint32_t)cpu < s->nr_cpus) {
		uint8_t ctx = sim_cpus(s)[cpu].trace_ctx;
		uint8_t were_off = ctx & TRACE_CTX_IRQS_OFF ? TRACE_CTX_IRQS_WERE_OFF : 0;
		sim_cpus(s)[cpu].trace_ctx =
			(uint8_t)(TRACE_CTX_IRQS_OFF | were_off | ((ctx + 1) & TRACE_CTX_DEPTH));
	}
}

/* zone_unlock: blocks moved lengthen the hold; the record says how long it waited and held. */
FAST_PATH void zone_unlock(struct sim *s, struct zone *z, int cpu, int blocks, int pages)
{
	uint64_t hold;

	cpu_charge(s, cpu, (uint64_t)(blocks > 0 ? blocks : 0) * COST_BUDDY_BLOCK_NS);
	hold = spin_unlock(s, &z->lock, cpu);
	z->stat_cpu = 0;
	/* spin_unlock_irqrestore */
	if (cpu >= 0 && (uint32_t)cpu < s->nr_cpus) {
		uint8_t ctx = sim_cpus(s)[cpu].trace_ctx;
		sim_cpus(s)[cpu].trace_ctx =
			(uint8_t)((ctx & TRACE_CTX_IRQS_WERE_OFF ? TRACE_CTX_IRQS_OFF : 0) |
				  ((ctx - 1) & TRACE_CTX_DEPTH));
	}
	z->lock_pages_moved += (uint64_t)(pages > 0 ? pages : 0);
	ev_emit(s, EV_ZONE_LOCK, FN_SPIN_LOCK, cpu, z, 0, 0, 0, (int32_t)z->lock.last_wait_ns,
		(int32_t)(hold > INT32_MAX ? INT32_MAX : hold), pages);
}
