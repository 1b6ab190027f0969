/*
 * mmap_lock.c: mmap_lock in virtual time with its tracepoints (mmap_lock.h). The per-VMA locks
 * hang off it: vma_start_write marks a VMA with the current mm_lock_seq and the write unlock
 * (or downgrade) advances mm_lock_seq, ending every such mark at once (vma_end_write_all,
 * include/linux/mmap_lock.h [6.4, 6.18]). In virtual time a mark is an interval
 * [write_locked_from_ns, write_locked_until_ns]: a fault whose clock falls inside it finds the
 * VMA write-locked, whatever order the ops ran in.
 */
#include "base/event.h"
#include "base/lock.h"
#include "fault/cost.h"
#include "fault/lane.h"
#include "fault/mmap_lock.h"
#include "fault/vocab.h"

/* Trace one of the three mmap_lock events. */
static void trace(struct sim *s, int kind, int fn, int cpu, int mm, int write, int success)
{
	ev_emit(s, kind, fn, cpu, NULL, 0, 0, 0, write, success, mm);
}

/* Account a wait for mmap_lock in the CPU's lane; a task that waited slept and is woken. */
static uint64_t lane_wait(struct sim *s, int cpu, uint64_t wait)
{
	if (wait) {
		cpu_charge(s, cpu, COST_RWSEM_SLEEP_WAKEUP_NS);
		wait += COST_RWSEM_SLEEP_WAKEUP_NS;
	}
	fault_cpus(fault_state(s))[cpu].mmap_wait_ns += wait;
	return wait;
}

uint64_t mmap_read_lock(struct sim *s, int mm, int cpu)
{
	struct rwsem *sem = &fault_state(s)->mms[mm].mmap_lock;
	uint64_t before = sem->read.wait_ns, wait, asked = sim_cpus(s)[cpu].clock_ns;
	uint32_t seq = s->event_seq;

	trace(s, EV_MMAP_LOCK_START_LOCKING, FN_MMAP_READ_LOCK, cpu, mm, 0, 0);
	down_read(s, sem, cpu);
	wait = lane_wait(s, cpu, sem->read.wait_ns - before);
	if (wait)
		lane_interval(s, cpu, asked, seq, LANE_WAIT_MMAP_READ);
	trace(s, EV_MMAP_LOCK_ACQUIRE_RETURNED, FN_MMAP_READ_LOCK, cpu, mm, 0, 1);
	return wait;
}

int mmap_read_trylock(struct sim *s, int mm, int cpu)
{
	int ok;

	trace(s, EV_MMAP_LOCK_START_LOCKING, FN_MMAP_READ_TRYLOCK, cpu, mm, 0, 0);
	ok = down_read_trylock(s, &fault_state(s)->mms[mm].mmap_lock, cpu);
	trace(s, EV_MMAP_LOCK_ACQUIRE_RETURNED, FN_MMAP_READ_TRYLOCK, cpu, mm, 0, ok);
	return ok;
}

void mmap_read_unlock(struct sim *s, int mm, int cpu)
{
	up_read(s, &fault_state(s)->mms[mm].mmap_lock, cpu);
	trace(s, EV_MMAP_LOCK_RELEASED, FN_MMAP_READ_UNLOCK, cpu, mm, 0, 0);
}

uint64_t mmap_write_lock(struct sim *s, int mm, int cpu)
{
	struct mm *m = &fault_state(s)->mms[mm];
	uint64_t before = m->mmap_lock.write.wait_ns, wait, asked = sim_cpus(s)[cpu].clock_ns;
	uint32_t seq = s->event_seq;

	trace(s, EV_MMAP_LOCK_START_LOCKING, FN_MMAP_WRITE_LOCK, cpu, mm, 1, 0);
	down_write(s, &m->mmap_lock, cpu);
	wait = lane_wait(s, cpu, m->mmap_lock.write.wait_ns - before);
	if (wait)
		lane_interval(s, cpu, asked, seq, LANE_WAIT_MMAP_WRITE);
	m->write_locked = 1;
	trace(s, EV_MMAP_LOCK_ACQUIRE_RETURNED, FN_MMAP_WRITE_LOCK, cpu, mm, 1, 1);
	return wait;
}

/* vma_end_write_all: every VMA marked in this section is released now; mm_lock_seq moves on. */
static void vma_end_write_all(struct sim *s, int mm, int cpu)
{
	struct fault_state *f = fault_state(s);
	struct mm *m = &f->mms[mm];

	for (int i = 0; i < FAULT_MAX_VMAS; i++) {
		struct vm_area *v = &f->vmas[i];
		if (v->mm == mm && v->vm_lock_seq == m->mm_lock_seq &&
		    v->write_locked_until_ns == UINT64_MAX)
			v->write_locked_until_ns = sim_cpus(s)[cpu].clock_ns;
	}
	m->mm_lock_seq++;
	m->write_locked = 0;
}

void mmap_write_downgrade(struct sim *s, int mm, int cpu)
{
	struct rwsem *sem = &fault_state(s)->mms[mm].mmap_lock;

	vma_end_write_all(s, mm, cpu);
	downgrade_write(s, sem, cpu);
	trace(s, EV_MMAP_LOCK_ACQUIRE_RETURNED, FN_MMAP_WRITE_DOWNGRADE, cpu, mm, 0, 1);
}

void mmap_write_unlock(struct sim *s, int mm, int cpu)
{
	vma_end_write_all(s, mm, cpu);
	up_write(s, &fault_state(s)->mms[mm].mmap_lock, cpu);
	trace(s, EV_MMAP_LOCK_RELEASED, FN_MMAP_WRITE_UNLOCK, cpu, mm, 1, 0);
}
