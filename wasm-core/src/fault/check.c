/*
 * check.c: the fault subsystem's invariants, in the spirit of CONFIG_DEBUG_VM_MAPLE_TREE and
 * validate_mm: every process's VMA list is sorted, inside its window and without overlaps; every
 * present PTE lies inside a VMA of its process and maps an allocated order-0 frame; every PMD
 * points at a PTE table of its own; and between ops no lock is held: mmap_lock free, no VMA
 * read-locked or write-marked open, every vm_sequence even, refcounts at their attached value.
 */
#include <stdio.h>

#include "base/state.h"
#include "fault/check.h"
#include "fault/lane.h"
#include "fault/mm.h"
#include "fault/vma.h"

/* Report the first broken invariant in s->error; SIM_ECORRUPT. */
static int fail(struct sim *s, const char *what, long a, long b)
{
	snprintf(s->error, sizeof s->error, "fault: %s (%ld, %ld)", what, a, b);
	return SIM_ECORRUPT;
}

/* A rwsem nobody holds between ops. */
static int rwsem_free(const struct rwsem *sem)
{
	return sem->readers == 0 && !sem->writer;
}

/* One process: its VMA list and its lock. */
static int check_mm(struct sim *s, int mm, uint32_t *vmas_seen)
{
	const struct fault_state *f = fault_state(s);
	const struct mm *m = &f->mms[mm];
	uint32_t prev_end = 0, count = 0;
	uint16_t i = m->mmap;

	if (!rwsem_free(&m->mmap_lock) || m->write_locked)
		return fail(s, "mmap_lock held between ops", mm, m->mmap_lock.readers);
	for (; i != VMA_NONE; i = f->vmas[i].next) {
		const struct vm_area *v;
		if (i >= FAULT_MAX_VMAS || ++count > FAULT_MAX_VMAS)
			return fail(s, "VMA list runs away", mm, i);
		v = &f->vmas[i];
		if (!v->attached || v->mm != mm)
			return fail(s, "VMA list holds a free or foreign VMA", mm, i);
		if (v->vm_start >= v->vm_end || v->vm_end > FAULT_VA_PAGES)
			return fail(s, "VMA range empty or outside the window", v->vm_start,
				    v->vm_end);
		if (v->vm_start < prev_end)
			return fail(s, "VMAs overlap or are out of order", v->vm_start, prev_end);
		if (v->vm_flags & ~FAULT_VM_FLAGS)
			return fail(s, "VMA has unknown flags", i, v->vm_flags);
		if (!rwsem_free(&v->vm_lock))
			return fail(s, "VMA lock held between ops", i, v->vm_lock.readers);
		if (v->vm_sequence.sequence & 1)
			return fail(s, "vm_sequence odd between ops", i, v->vm_sequence.sequence);
		if (v->write_locked_until_ns == UINT64_MAX)
			return fail(s, "VMA still write-locked after mmap_write_unlock", i,
				    v->vm_lock_seq);
		if (v->vm_lock_seq == m->mm_lock_seq)
			return fail(s, "vm_lock_seq equals mm_lock_seq between ops", i,
				    v->vm_lock_seq);
		if (v->vm_refcnt != 1)
			return fail(s, "attached VMA's refcount is not 1 between ops", i,
				    v->vm_refcnt);
		prev_end = v->vm_end;
		(*vmas_seen)++;
	}
	if (count != m->map_count)
		return fail(s, "map_count differs from the VMA list", mm, m->map_count);
	return SIM_OK;
}

/* Whether pfn is an allocated order-0 frame the fault subsystem owns (page_alloc_owned). */
static int mapped_frame_ok(const struct sim *s, uint32_t pfn)
{
	int zi = pfn_to_zone_index(s, pfn);
	const struct page *p;

	if (zi < 0)
		return 0;
	p = zone_page(s, &sim_nodes(s)[zi / MAX_NR_ZONES].zones[zi % MAX_NR_ZONES], pfn);
	return p->state == PG_ALLOCATED && p->order == 0 && (p->flags & PAGEF_OWNED);
}

/* One PTE table: its PMD, its count, and every PTE inside a VMA. */
static int check_table(struct sim *s, int idx)
{
	const struct fault_state *f = fault_state(s);
	const struct pte_table *t = &f->pte_tables[idx];
	uint32_t present = 0;

	if (t->mm >= FAULT_MAX_MMS || t->pmd_index >= FAULT_VA_PMDS ||
	    f->mms[t->mm].pmd[t->pmd_index] != idx + 1)
		return fail(s, "PTE table not pointed at by its PMD", idx, t->pmd_index);
	if (!mapped_frame_ok(s, t->pfn))
		return fail(s, "PTE table page is not an owned, allocated frame", idx, t->pfn);
	for (uint32_t i = 0; i < PTRS_PER_PTE; i++) {
		uint32_t page = t->pmd_index * PTRS_PER_PTE + i;
		if (t->pte[i] == PTE_NONE)
			continue;
		present++;
		if (vma_lookup(f, t->mm, page) < 0)
			return fail(s, "PTE present outside every VMA", t->mm, page);
		if (!mapped_frame_ok(s, t->pte[i]))
			return fail(s, "PTE maps a frame that is not owned and allocated", page,
				    t->pte[i]);
	}
	if (present != t->nr_present)
		return fail(s, "PTE table count differs from its PTEs", idx, t->nr_present);
	return SIM_OK;
}

int fault_check(struct sim *s)
{
	const struct fault_state *f = fault_state(s);
	uint32_t vmas_seen = 0, attached = 0, tables = 0, users[FAULT_MAX_MMS] = { 0 };
	int err;

	if (!f)
		return fail(s, "no fault state in the arena", 0, 0);
	for (int mm = 0; mm < FAULT_MAX_MMS; mm++)
		if ((err = check_mm(s, mm, &vmas_seen)))
			return err;
	for (int i = 0; i < FAULT_MAX_VMAS; i++)
		attached += f->vmas[i].attached;
	if (attached != vmas_seen || attached != f->nr_vmas)
		return fail(s, "attached VMAs differ from the lists", attached, vmas_seen);
	for (int mm = 0; mm < FAULT_MAX_MMS; mm++)
		for (int pmd = 0; pmd < FAULT_VA_PMDS; pmd++) {
			uint16_t t = f->mms[mm].pmd[pmd];
			if (t && (t > FAULT_MAX_PTE_TABLES || !f->pte_tables[t - 1].in_use))
				return fail(s, "PMD points at a free PTE table", mm, pmd);
		}
	for (int i = 0; i < FAULT_MAX_PTE_TABLES; i++) {
		if (!f->pte_tables[i].in_use)
			continue;
		tables++;
		if ((err = check_table(s, i)))
			return err;
	}
	if (tables != f->nr_pte_tables)
		return fail(s, "nr_pte_tables differs from the tables in use", tables,
			    f->nr_pte_tables);
	for (uint32_t cpu = 0; cpu < s->nr_cpus; cpu++) {
		uint8_t t = fault_cpus(f)[cpu].thread_mm;
		if (t > FAULT_MAX_MMS)
			return fail(s, "CPU runs a thread of no process", cpu, t);
		if (t)
			users[t - 1]++;
		if ((err = lane_check(s, (int)cpu)))
			return err;
	}
	for (int mm = 0; mm < FAULT_MAX_MMS; mm++)
		if (users[mm] != f->mms[mm].mm_users)
			return fail(s, "mm_users differs from the threads", mm,
				    f->mms[mm].mm_users);
	return SIM_OK;
}

uint64_t fault_owned_pages(const struct sim *s)
{
	const struct fault_state *f = fault_state(s);
	uint64_t held = 0;

	for (int i = 0; f && i < FAULT_MAX_PTE_TABLES; i++) {
		const struct pte_table *t = &f->pte_tables[i];

		if (!t->in_use)
			continue;
		held++; /* the table's own page */
		for (uint32_t j = 0; j < PTRS_PER_PTE; j++)
			held += t->pte[j] != PTE_NONE;
	}
	return held;
}
