/*
 * ops.c: the fault subsystem's ops (ops.def) and its entry points for the base: threads, mmap,
 * munmap, mprotect and touch. Every address-space change runs under mmap_lock for write and
 * brackets each VMA it changes (vma.h); munmap downgrades to read for the zap where the profile
 * says so (4.20+, dd2283f2605e).
 */
#include <string.h>

#include "base/event.h"
#include "base/lock.h"
#include "fault/check.h"
#include "fault/cost.h"
#include "fault/fault.h"
#include "fault/lane.h"
#include "fault/mmap_lock.h"
#include "fault/pgtable.h"
#include "fault/procfs.h"
#include "fault/tracefmt.h"
#include "fault/vma.h"
#include "fault/vocab.h"

/* Refuse an op: a fault_op_refused event, and SIM_EINVAL. */
static int refuse(struct sim *s, int cpu, int reason, uint32_t page, int mm)
{
	ev_emit(s, EV_FAULT_OP_REFUSED, FN_NONE, cpu, NULL, 0, 0, 0, reason, (int32_t)(page << 12),
		mm);
	return SIM_EINVAL;
}

/* SPF: a tree update holds the mm_rb rwlock for write for one walk's time, from cpu's clock. */
static void rb_write(struct sim *s, int mm, int cpu)
{
	struct mm *m = &fault_state(s)->mms[mm];

	if (s->profile.fault_lock != FAULT_LOCK_SPF)
		return;
	m->rb_write_from_ns = sim_cpus(s)[cpu].clock_ns;
	cpu_charge(s, cpu, COST_VMA_WALK_NS);
	m->rb_write_until_ns = sim_cpus(s)[cpu].clock_ns;
}

/* OP_THREAD: a thread of mm starts on cpu (copy_process with CLONE_VM). */
static int op_thread(struct sim *s, int mm, int cpu)
{
	struct fault_state *f = fault_state(s);
	struct fault_cpu *fc = &fault_cpus(f)[cpu];

	if (fc->thread_mm)
		return refuse(s, cpu, FAULT_REFUSE_NO_THREAD, 0, mm); /* one thread per CPU */
	fc->thread_mm = (uint8_t)(mm + 1);
	f->mms[mm].in_use = 1;
	f->mms[mm].mm_users++;
	ev_emit(s, EV_THREAD_START, FN_COPY_PROCESS, cpu, NULL, 0, 0, 0, mm,
		(int32_t)f->mms[mm].mm_users, 0);
	return SIM_OK;
}

/* Whether a VMA may grow over the new range (vma_merge's can_vma_merge_before/after). */
static int mergeable(const struct vm_area *v, uint32_t flags)
{
	/* file VMAs would need the same file at the right offset: the model never merges them */
	return v->vm_flags == flags && !(flags & VMA_FILE);
}

/* The VMA of mm that ends at page, or -1. */
static int vma_ending_at(const struct fault_state *f, int mm, uint32_t page)
{
	return page ? vma_lookup(f, mm, page - 1) : -1;
}

/* OP_MMAP: map [start, start + pages) with flags, growing a neighbour when vma_merge can. */
static int op_mmap(struct sim *s, int mm, int cpu, uint32_t start, uint32_t pages, uint32_t flags)
{
	struct fault_state *f = fault_state(s);
	uint32_t end = start + pages;
	int prev, next, vma;

	if (vma_range_used(f, mm, start, end))
		return refuse(s, cpu, FAULT_REFUSE_OVERLAP, start, mm);
	mmap_write_lock(s, mm, cpu);
	prev = vma_ending_at(f, mm, start);
	next = end < FAULT_VA_PAGES ? vma_lookup(f, mm, end) : -1;
	if (prev >= 0 && !mergeable(&f->vmas[prev], flags))
		prev = -1;
	if (next >= 0 && (!mergeable(&f->vmas[next], flags) || f->vmas[next].vm_start != end))
		next = -1;
	/* two VMAs with their own anon_vma cannot become one */
	if (prev >= 0 && next >= 0 && f->vmas[prev].anon_vma && f->vmas[next].anon_vma)
		next = -1;
	if (prev >= 0) {
		vma = prev;
		vma_write_begin(s, prev, cpu);
		cpu_charge(s, cpu, COST_MMAP_NS);
		if (next >= 0) {
			vma_write_begin(s, next, cpu);
			f->vmas[prev].vm_end = f->vmas[next].vm_end;
			f->vmas[prev].anon_vma |= f->vmas[next].anon_vma;
			vma_write_end(s, next, cpu);
			vma_remove(s, next);
		} else {
			f->vmas[prev].vm_end = end;
		}
		vma_write_end(s, prev, cpu);
		ev_emit(s, EV_VMA_CHANGE, FN_VMA_MERGE, cpu, NULL, 0, 0, 0,
			(int32_t)(f->vmas[prev].vm_start << 12),
			(int32_t)(f->vmas[prev].vm_end << 12), prev);
	} else if (next >= 0) {
		vma = next;
		vma_write_begin(s, next, cpu);
		cpu_charge(s, cpu, COST_MMAP_NS);
		f->vmas[next].vm_start = start;
		vma_write_end(s, next, cpu);
		ev_emit(s, EV_VMA_CHANGE, FN_VMA_MERGE, cpu, NULL, 0, 0, 0,
			(int32_t)(f->vmas[next].vm_start << 12),
			(int32_t)(f->vmas[next].vm_end << 12), next);
	} else {
		cpu_charge(s, cpu, COST_MMAP_NS);
		/* the tree insert: SPF's lookups share the mm_rb rwlock with it */
		rb_write(s, mm, cpu);
		vma = vma_new(s, mm, start, end, flags);
		if (vma < 0) {
			mmap_write_unlock(s, mm, cpu);
			return refuse(s, cpu, FAULT_REFUSE_NO_VMA_SLOT, start, mm);
		}
	}
	ev_emit(s, EV_VMA_MAP, FN_DO_MMAP, cpu, NULL, 0, 0, 0, (int32_t)(start << 12),
		(int32_t)(end << 12), vma);
	mmap_write_unlock(s, mm, cpu);
	return SIM_OK;
}

/*
 * Split the VMAs of mm straddling start or end so that [start, end) is made of whole VMAs;
 * 0, or -1 when no slot is left for a split (nothing is changed past that point).
 */
static int split_at_bounds(struct sim *s, int mm, uint32_t start, uint32_t end, int cpu)
{
	struct fault_state *f = fault_state(s);
	int v = vma_lookup(f, mm, start);

	if (v >= 0 && f->vmas[v].vm_start < start && vma_split(s, v, start, cpu) < 0)
		return -1;
	v = end < FAULT_VA_PAGES ? vma_lookup(f, mm, end) : -1;
	if (v >= 0 && f->vmas[v].vm_start < end && vma_split(s, v, end, cpu) < 0)
		return -1;
	return 0;
}

/* zap_pte_range over [start, end): free every mapped page under its PTE lock; pages zapped. */
static uint32_t zap_range(struct sim *s, int mm, uint32_t start, uint32_t end, int cpu)
{
	struct fault_state *f = fault_state(s);
	uint32_t zapped = 0;

	for (uint32_t pmd = start / PTRS_PER_PTE; pmd <= (end - 1) / PTRS_PER_PTE; pmd++) {
		struct pte_table *t = pte_table_of(f, mm, pmd * PTRS_PER_PTE);
		uint32_t from = pmd * PTRS_PER_PTE > start ? pmd * PTRS_PER_PTE : start;
		uint32_t to = (pmd + 1) * PTRS_PER_PTE < end ? (pmd + 1) * PTRS_PER_PTE : end;
		if (!t || !t->nr_present)
			continue;
		spin_lock(s, &t->ptl, cpu);
		for (uint32_t page = from; page < to; page++) {
			uint32_t *pte = &t->pte[page % PTRS_PER_PTE];
			if (*pte == PTE_NONE)
				continue;
			cpu_charge(s, cpu, COST_ZAP_PTE_NS);
			fault_page_free(s, *pte, cpu);
			*pte = PTE_NONE;
			t->nr_present--;
			zapped++;
		}
		spin_unlock(s, &t->ptl, cpu);
	}
	return zapped;
}

/* OP_MUNMAP: unmap [start, end) of mm. */
static int op_munmap(struct sim *s, int mm, int cpu, uint32_t start, uint32_t end)
{
	struct fault_state *f = fault_state(s);
	int downgraded = 0;

	mmap_write_lock(s, mm, cpu);
	if (split_at_bounds(s, mm, start, end, cpu) < 0) {
		mmap_write_unlock(s, mm, cpu);
		return refuse(s, cpu, FAULT_REFUSE_NO_VMA_SLOT, start, mm);
	}
	cpu_charge(s, cpu, COST_MUNMAP_NS);
	/* detach every VMA inside: each is write-locked first (vma_start_write before detaching) */
	for (int n = 0; n < FAULT_MAX_VMAS; n++) {
		int v = vma_first_in(f, mm, start, end);
		if (v < 0)
			break;
		vma_write_begin(s, v, cpu);
		ev_emit(s, EV_VMA_UNMAP, FN_DO_VMI_MUNMAP, cpu, NULL, 0, 0, 0,
			(int32_t)(f->vmas[v].vm_start << 12), (int32_t)(f->vmas[v].vm_end << 12),
			v);
		vma_write_end(s, v, cpu);
		rb_write(s, mm, cpu);
		vma_remove(s, v);
	}
	if (s->profile.munmap_downgrade) {
		mmap_write_downgrade(s, mm, cpu);
		downgraded = 1;
	}
	if (zap_range(s, mm, start, end, cpu))
		cpu_charge(s, cpu, COST_TLB_FLUSH_NS);
	free_pgtables(s, mm, start, end, cpu);
	if (downgraded)
		mmap_read_unlock(s, mm, cpu);
	else
		mmap_write_unlock(s, mm, cpu);
	return SIM_OK;
}

/* OP_MPROTECT: give every page of [start, end) of mm the access flags prot. */
static int op_mprotect(struct sim *s, int mm, int cpu, uint32_t start, uint32_t end, uint32_t prot)
{
	struct fault_state *f = fault_state(s);
	uint32_t changed = 0;

	/* a hole in the range: the kernel's ENOMEM, before anything changes */
	for (uint32_t page = start; page < end;) {
		int v = vma_lookup(f, mm, page);
		if (v < 0)
			return refuse(s, cpu, FAULT_REFUSE_NOT_MAPPED, page, mm);
		page = f->vmas[v].vm_end;
	}
	mmap_write_lock(s, mm, cpu);
	if (split_at_bounds(s, mm, start, end, cpu) < 0) {
		mmap_write_unlock(s, mm, cpu);
		return refuse(s, cpu, FAULT_REFUSE_NO_VMA_SLOT, start, mm);
	}
	cpu_charge(s, cpu, COST_MPROTECT_NS);
	for (uint32_t page = start; page < end;) {
		int v = vma_lookup(f, mm, page);
		struct vm_area *a = &f->vmas[v];
		struct pte_table *t;
		vma_write_begin(s, v, cpu);
		a->vm_flags = (a->vm_flags & ~VM_ACCESS_FLAGS) | (prot & VM_ACCESS_FLAGS);
		for (uint32_t p = a->vm_start; p < a->vm_end; p++)
			if ((t = pte_table_of(f, mm, p)) && t->pte[p % PTRS_PER_PTE] != PTE_NONE) {
				cpu_charge(s, cpu, COST_CHANGE_PTE_NS);
				changed++;
			}
		vma_write_end(s, v, cpu);
		ev_emit(s, EV_VMA_CHANGE, FN_MPROTECT_FIXUP, cpu, NULL, 0, 0, 0,
			(int32_t)(a->vm_start << 12), (int32_t)(a->vm_end << 12), v);
		page = a->vm_end;
	}
	if (changed)
		cpu_charge(s, cpu, COST_TLB_FLUSH_NS);
	mmap_write_unlock(s, mm, cpu);
	return SIM_OK;
}

/* OP_TOUCH: the thread on cpu accesses pages one after another; a fault for each unmapped one. */
static int op_touch(struct sim *s, int mm, int cpu, uint32_t start, uint32_t pages, int write)
{
	struct fault_state *f = fault_state(s);

	for (uint32_t page = start; page < start + pages && !s->frozen; page++) {
		struct pte_table *t = pte_table_of(f, mm, page);
		int v;
		if (t && t->pte[page % PTRS_PER_PTE] != PTE_NONE) {
			/* mapped: a write to a read-only VMA still faults (and gets SIGSEGV) */
			v = vma_lookup(f, mm, page);
			if (!write || (v >= 0 && (f->vmas[v].vm_flags & VM_WRITE)))
				continue;
		}
		do_user_addr_fault(s, mm, cpu, page, write);
	}
	return SIM_OK;
}

/* mmap, munmap or mprotect, as one MM_WRITE stretch of the CPU's lane (its waits cut out of it). */
static int change(struct sim *s, const struct sim_op *op, int mm, int cpu, uint32_t start,
		  uint32_t pages)
{
	int err;

	lane_open(s, cpu, LANE_MM_WRITE);
	if (op->kind == OP_MMAP)
		err = op_mmap(s, mm, cpu, start, pages, op->gfp);
	else if (op->kind == OP_MUNMAP)
		err = op_munmap(s, mm, cpu, start, start + pages);
	else
		err = op_mprotect(s, mm, cpu, start, start + pages, op->gfp);
	lane_close(s, cpu);
	return err;
}

/* The subsystem's apply hook: ops 40..45. */
static int fault_apply(struct sim *s, const struct sim_op *op)
{
	struct fault_state *f = fault_state(s);
	int mm = op->order, cpu = op->cpu;
	uint32_t start = op->handle, pages = (uint32_t)op->arg;

	switch (op->kind) {
	case OP_THREAD:
	case OP_MMAP:
	case OP_MUNMAP:
	case OP_MPROTECT:
	case OP_TOUCH:
		break;
	case OP_WORK:
		/* user-space time: no lock, no fault, only this CPU's clock moves */
		if (op->arg < 1 || op->arg > 1000000000)
			return refuse(s, cpu, FAULT_REFUSE_RANGE, 0, 0);
		lane_open(s, cpu, LANE_USER);
		cpu_charge(s, cpu, (uint64_t)op->arg);
		lane_close(s, cpu);
		return SIM_OK;
	default:
		return SIM_ENOTMINE;
	}
	if (mm >= FAULT_MAX_MMS)
		return refuse(s, cpu, FAULT_REFUSE_RANGE, 0, mm);
	if (op->kind == OP_THREAD)
		return op_thread(s, mm, cpu);
	if (fault_cpus(f)[cpu].thread_mm != mm + 1)
		return refuse(s, cpu, FAULT_REFUSE_NO_THREAD, start, mm);
	if (op->arg < 1 || start >= FAULT_VA_PAGES || pages > FAULT_VA_PAGES - start ||
	    (op->kind == OP_TOUCH && pages > FAULT_MAX_TOUCH))
		return refuse(s, cpu, FAULT_REFUSE_RANGE, start, mm);
	if (op->kind == OP_TOUCH)
		return op_touch(s, mm, cpu, start, pages,
				op->gfp & 1); /* each fault is its own segment */
	if (op->kind == OP_MMAP && (op->gfp & ~FAULT_VM_FLAGS))
		return refuse(s, cpu, FAULT_REFUSE_RANGE, start, mm);
	return change(s, op, mm, cpu, start, pages);
}

/* The fault state and its per-CPU records for the machine's CPUs (the lane rings follow). */
static uint64_t state_bytes(const struct sim_config *cfg)
{
	_Static_assert(sizeof(struct fault_state) % 8 == 0, "its CPU records follow it aligned");
	_Static_assert(sizeof(struct fault_cpu) % 8 == 0, "the lane rings follow them 8-aligned");
	return sizeof(struct fault_state) +
	       (uint64_t)cfg->nr_nodes * cfg->cpus_per_node * sizeof(struct fault_cpu);
}

/* Boot: no process, no VMA, no PTE table. */
static void fault_boot(struct sim *s)
{
	struct fault_state *f = fault_state(s);

	for (int mm = 0; mm < FAULT_MAX_MMS; mm++)
		f->mms[mm].mmap = VMA_NONE;
	for (int i = 0; i < FAULT_MAX_VMAS; i++)
		f->vmas[i].next = VMA_NONE;
	f->lanes_off = (uint32_t)state_bytes(&s->config);
	f->lane_segs = FAULT_LANE_SEGS;
}

/* The fault state is one fixed-size struct, its per-CPU records, then a lane ring per CPU. */
static uint64_t fault_arena_bytes(const struct sim_config *cfg)
{
	return state_bytes(cfg) + lane_ring_bytes((uint32_t)cfg->nr_nodes * cfg->cpus_per_node);
}

const struct subsystem fault_subsystem = {
	.name = "fault",
	.arena_bytes = fault_arena_bytes,
	.boot = fault_boot,
	.apply = fault_apply,
	.owned_pages = fault_owned_pages,
	.check = fault_check,
	.trace_event = fault_trace,
	.vmstat = fault_vmstat,
};
