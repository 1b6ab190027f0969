/*
 * lock.c: zone->lock in virtual time. Every CPU has its own clock (struct cpu.clock_ns); the lock
 * remembers when it is next free and who held it last. Taking it at a CPU clock earlier than
 * that instant waits (the spinning a real CPU would do); taking it after another CPU pays a
 * cache-line hand-over. The hold lasts an acquire/release pair plus a cost per block moved, and
 * the lock is busy until the holder's clock at release. Ops are applied one at a time, so this
 * is an accounting model of contention, not a scheduler: it makes "fewer, longer holds" versus
 * "many short holds" and the cost of CPUs taking turns visible and comparable across profiles.
 *
 * Worked example (costs of lock.h): CPU 1 releases at t = 1000 after moving 7 blocks; CPU 0 at
 * clock 900 takes the lock: it waits 100 ns, pays the 250 ns hand-over and the 30 ns pair, moves
 * 2 blocks (240 ns) and releases at 1000 + 250 + 30 + 240 = 1520 ns.
 */
#include "base/event.h"
#include "base/fast_path.h"
#include "base/lock.h"

/* spin_lock(&zone->lock): wait for the holder, then pay the hand-over when the line moves. */
FAST_PATH void zone_lock(struct sim *s, struct zone *z, int cpu)
{
	struct cpu *c = &s->cpus[cpu];
	struct zone_lock_stats *l = &z->lock;
	uint64_t wait = 0;

	if (c->clock_ns < l->free_at_ns) {
		wait = l->free_at_ns - c->clock_ns;
		c->clock_ns = l->free_at_ns;
	}
	/* the hand-over is charged at release, where last_cpu still names the previous holder */
	l->acquisitions++;
	l->wait_ns += wait;
	l->last_wait_ns = (uint32_t)(wait > UINT32_MAX ? UINT32_MAX : wait);
	c->lock_acquisitions++;
	c->lock_wait_ns += wait;
}

/* spin_unlock(&zone->lock): the hold (pair + hand-over + blocks) occupies the lock; emits EV_ZONE_LOCK. */
FAST_PATH void zone_unlock(struct sim *s, struct zone *z, int cpu, int blocks, int pages)
{
	struct cpu *c = &s->cpus[cpu];
	struct zone_lock_stats *l = &z->lock;
	uint64_t hold =
		COST_LOCK_ACQUIRE_NS + (uint64_t)(blocks > 0 ? blocks : 0) * COST_BUDDY_BLOCK_NS;

	/* the first acquisition ever has nobody to take the line from */
	if (l->acquisitions > 1 && l->last_cpu != cpu)
		hold += COST_LOCK_HANDOVER_NS;
	c->clock_ns += hold;
	l->hold_ns += hold;
	l->pages_moved += (uint64_t)(pages > 0 ? pages : 0);
	l->free_at_ns = c->clock_ns;
	l->last_cpu = (uint16_t)cpu;
	ev_emit(s, EV_ZONE_LOCK, FN_SPIN_LOCK, cpu, z, 0, 0, 0, (int32_t)l->last_wait_ns,
		(int32_t)(hold > INT32_MAX ? INT32_MAX : hold), pages);
}

/* cpu_charge: work outside the lock only moves this CPU's clock. */
void cpu_charge(struct sim *s, int cpu, uint64_t ns)
{
	s->cpus[cpu].clock_ns += ns;
}
