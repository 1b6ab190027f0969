/*
 * pgtable.h: PTE tables. A process's PMD entry points at one PTE table of PTRS_PER_PTE entries;
 * the first fault under an empty PMD allocates its page from the page allocator
 * (GFP_PGTABLE_USER, __pte_alloc), and munmap frees the tables no VMA covers any more
 * (free_pgtables). Each table carries its split PTE lock.
 */
#ifndef BUDDYSCOPE_FAULT_PGTABLE_H
#define BUDDYSCOPE_FAULT_PGTABLE_H

#include "fault/mm.h"

/* GFP_PGTABLE_USER: GFP_KERNEL | __GFP_ZERO | __GFP_ACCOUNT (include/asm-generic/pgalloc.h) */
#define GFP_PGTABLE_USER (GFP_KERNEL | __GFP_ZERO | __GFP_ACCOUNT)

/* The PTE table mm's PMD of page points at, or NULL (pmd_none). */
struct pte_table *pte_table_of(const struct fault_state *f, int mm, uint32_t page);

/* __pte_alloc on cpu: a zeroed PTE table for page's PMD; NULL if no slot or no page. */
struct pte_table *pte_alloc(struct sim *s, int mm, uint32_t page, int cpu);

/* free_pgtables for [start, end): free every PTE table of mm there that no VMA overlaps. */
void free_pgtables(struct sim *s, int mm, uint32_t start, uint32_t end, int cpu);

/* Free an anonymous page a PTE mapped (or a fault's unused page) to the allocator on cpu. */
void fault_page_free(struct sim *s, uint32_t pfn, int cpu);

#endif
