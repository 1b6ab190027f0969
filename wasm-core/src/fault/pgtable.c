/*
 * pgtable.c: PTE tables from the page allocator (pgtable.h). The model keeps the PMD level only
 * as an index per 2 MiB of the window; PGD, P4D and PUD always exist.
 */
#include <string.h>

#include "base/event.h"
#include "base/lock.h"
#include "base/state.h"
#include "fault/cost.h"
#include "fault/pgtable.h"
#include "fault/vma.h"
#include "fault/vocab.h"
#include "page_alloc/page_alloc.h"

struct pte_table *pte_table_of(const struct fault_state *f, int mm, uint32_t page)
{
	uint16_t t = f->mms[mm].pmd[page / PTRS_PER_PTE];

	return t ? (struct pte_table *)&f->pte_tables[t - 1] : NULL;
}

struct pte_table *pte_alloc(struct sim *s, int mm, uint32_t page, int cpu)
{
	struct fault_state *f = fault_state(s);
	uint32_t pmd = page / PTRS_PER_PTE;
	int zone;

	for (int i = 0; i < FAULT_MAX_PTE_TABLES; i++) {
		struct pte_table *t = &f->pte_tables[i];
		uint32_t pfn;
		if (t->in_use)
			continue;
		pfn = page_alloc_owned(s, cpu, GFP_PGTABLE_USER, &zone);
		if (pfn == PFN_NONE)
			return NULL;
		cpu_charge(s, cpu, COST_PAGE_ZERO_NS);
		memset(t, 0, sizeof *t);
		memset(t->pte, 0xff, sizeof t->pte); /* PTE_NONE everywhere */
		t->pfn = pfn;
		t->in_use = 1;
		t->mm = (uint8_t)mm;
		t->pmd_index = (uint16_t)pmd;
		t->zone = (uint16_t)zone;
		t->installed_ns = sim_cpus(s)[cpu].clock_ns; /* pmd_populate */
		f->mms[mm].pmd[pmd] = (uint16_t)(i + 1);
		f->nr_pte_tables++;
		ev_emit(s, EV_PTE_ALLOC, FN___PTE_ALLOC, cpu, NULL, pfn, 0, 0, (int32_t)pmd, 0, mm);
		return t;
	}
	return NULL;
}

void fault_page_free(struct sim *s, uint32_t pfn, int cpu)
{
	page_free_owned(s, cpu, pfn);
}

void free_pgtables(struct sim *s, int mm, uint32_t start, uint32_t end, int cpu)
{
	struct fault_state *f = fault_state(s);

	for (uint32_t pmd = start / PTRS_PER_PTE; pmd <= (end - 1) / PTRS_PER_PTE; pmd++) {
		uint16_t t = f->mms[mm].pmd[pmd];
		struct pte_table *table;
		if (!t || vma_range_used(f, mm, pmd * PTRS_PER_PTE, (pmd + 1) * PTRS_PER_PTE))
			continue;
		table = &f->pte_tables[t - 1];
		/* the zap emptied it: a table still mapping pages would leak them (the checker's too) */
		if (table->nr_present)
			continue;
		f->mms[mm].pmd[pmd] = 0;
		table->in_use = 0;
		f->nr_pte_tables--;
		ev_emit(s, EV_PTE_FREE, FN_FREE_PGTABLES, cpu, NULL, table->pfn, 0, 0, (int32_t)pmd,
			0, mm);
		fault_page_free(s, table->pfn, cpu);
	}
}
