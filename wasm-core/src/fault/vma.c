/*
 * vma.c: VMAs in a pool linked by index, each process's list in address order (the kernel's
 * maple tree, or the rb-tree of 4.x, answers the same questions), and the writer's side of SPF
 * and per-VMA locks (vma.h). Every walk is bounded by FAULT_MAX_VMAS.
 */
#include <string.h>

#include "base/event.h"
#include "base/lock.h"
#include "fault/cost.h"
#include "fault/lane.h"
#include "fault/vma.h"
#include "fault/vocab.h"

int vma_lookup(const struct fault_state *f, int mm, uint32_t page)
{
	uint16_t i = f->mms[mm].mmap;

	for (int n = 0; n < FAULT_MAX_VMAS && i != VMA_NONE; n++, i = f->vmas[i].next) {
		const struct vm_area *v = &f->vmas[i];
		if (page < v->vm_start)
			return -1; /* the list is sorted: no later VMA holds it */
		if (page < v->vm_end)
			return i;
	}
	return -1;
}

int vma_first_in(const struct fault_state *f, int mm, uint32_t start, uint32_t end)
{
	uint16_t i = f->mms[mm].mmap;

	for (int n = 0; n < FAULT_MAX_VMAS && i != VMA_NONE; n++, i = f->vmas[i].next)
		if (f->vmas[i].vm_start >= start)
			return f->vmas[i].vm_start < end ? i : -1;
	return -1;
}

int vma_range_used(const struct fault_state *f, int mm, uint32_t start, uint32_t end)
{
	uint16_t i = f->mms[mm].mmap;

	for (int n = 0; n < FAULT_MAX_VMAS && i != VMA_NONE; n++, i = f->vmas[i].next)
		if (f->vmas[i].vm_start < end && start < f->vmas[i].vm_end)
			return 1;
	return 0;
}

/* Link vma into its process's list before the first VMA that starts after it. */
static void vma_link(struct fault_state *f, int vma)
{
	struct vm_area *v = &f->vmas[vma];
	uint16_t *link = &f->mms[v->mm].mmap;

	for (int n = 0; n < FAULT_MAX_VMAS && *link != VMA_NONE; n++) {
		if (f->vmas[*link].vm_start > v->vm_start)
			break;
		link = &f->vmas[*link].next;
	}
	v->next = *link;
	*link = (uint16_t)vma;
	f->mms[v->mm].map_count++;
}

int vma_new(struct sim *s, int mm, uint32_t start, uint32_t end, uint32_t flags)
{
	struct fault_state *f = fault_state(s);

	for (int i = 0; i < FAULT_MAX_VMAS; i++) {
		struct vm_area *v = &f->vmas[i];
		if (v->attached)
			continue;
		memset(v, 0, sizeof *v);
		v->vm_start = start;
		v->vm_end = end;
		v->vm_flags = flags;
		v->mm = (uint8_t)mm;
		v->attached = 1;
		v->vm_refcnt = 1;
		/* never equal to any mm_lock_seq reached: the kernel's initial UINT_MAX (6.18) */
		v->vm_lock_seq = UINT32_MAX;
		vma_link(f, i);
		f->nr_vmas++;
		return i;
	}
	return -1;
}

void vma_remove(struct sim *s, int vma)
{
	struct fault_state *f = fault_state(s);
	struct vm_area *v = &f->vmas[vma];
	uint16_t *link = &f->mms[v->mm].mmap;

	for (int n = 0; n < FAULT_MAX_VMAS && *link != VMA_NONE; n++) {
		if (*link == vma) {
			*link = v->next;
			f->mms[v->mm].map_count--;
			break;
		}
		link = &f->vmas[*link].next;
	}
	v->attached = 0;
	v->vm_refcnt = 0; /* detached: 6.15+ readers see 0 */
	v->next = VMA_NONE;
	f->nr_vmas--;
}

int vma_split(struct sim *s, int vma, uint32_t at, int cpu)
{
	struct fault_state *f = fault_state(s);
	struct vm_area *v = &f->vmas[vma];
	uint32_t end = v->vm_end;
	int n;

	vma_write_begin(s, vma, cpu);
	v->vm_end = at;
	n = vma_new(s, v->mm, at, end, v->vm_flags);
	if (n < 0) {
		v->vm_end = end;
		vma_write_end(s, vma, cpu);
		return -1;
	}
	f->vmas[n].anon_vma = v->anon_vma; /* both halves share the anon_vma */
	vma_write_begin(s, n, cpu);
	vma_write_end(s, n, cpu);
	vma_write_end(s, vma, cpu);
	ev_emit(s, EV_VMA_CHANGE, FN___SPLIT_VMA, cpu, NULL, 0, 0, 0, (int32_t)(v->vm_start << 12),
		(int32_t)(v->vm_end << 12), vma);
	return n;
}

void vma_write_begin(struct sim *s, int vma, int cpu)
{
	struct fault_state *f = fault_state(s);
	struct vm_area *v = &f->vmas[vma];
	struct mm *m = &f->mms[v->mm];

	switch (s->profile.fault_lock) {
	case FAULT_LOCK_SPF:
		write_seqcount_begin(s, &v->vm_sequence, cpu);
		break;
	case FAULT_LOCK_PER_VMA: {
		uint64_t wait = v->vm_lock.write.wait_ns, asked = sim_cpus(s)[cpu].clock_ns;
		uint32_t seq = s->event_seq;
		if (v->vm_lock_seq == m->mm_lock_seq)
			return; /* already write-locked in this section */
		/* wait for the VMA's readers (a fault holding it), then hold it only to mark it */
		down_write(s, &v->vm_lock, cpu);
		wait = v->vm_lock.write.wait_ns - wait;
		if (wait) { /* it slept: the last reader wakes it */
			cpu_charge(s, cpu, COST_RWSEM_SLEEP_WAKEUP_NS);
			wait += COST_RWSEM_SLEEP_WAKEUP_NS;
		}
		fault_cpus(f)[cpu].vma_wait_ns += wait;
		if (wait)
			lane_interval(s, cpu, asked, seq, LANE_WAIT_VMA);
		v->vm_lock_seq = m->mm_lock_seq;
		v->write_locked_from_ns = sim_cpus(s)[cpu].clock_ns;
		v->write_locked_until_ns = UINT64_MAX;
		up_write(s, &v->vm_lock, cpu);
		ev_emit(s, EV_VMA_START_WRITE, FN_VMA_START_WRITE, cpu, NULL, 0, 0, 0,
			(int32_t)v->vm_lock_seq, (int32_t)(wait > INT32_MAX ? INT32_MAX : wait),
			vma);
		break;
	}
	default:
		break;
	}
}

void vma_write_end(struct sim *s, int vma, int cpu)
{
	if (s->profile.fault_lock == FAULT_LOCK_SPF)
		write_seqcount_end(s, &fault_state(s)->vmas[vma].vm_sequence, cpu);
}
