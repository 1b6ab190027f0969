/*
 * cost.h: what the fault paths and address-space changes cost in virtual time. Documented
 * choices in the spirit of base/lock.h, not measurements: their ratios decide who waits for whom.
 * A minor anonymous fault is about 1-1.5 us on a 2018 x86 core (entry, walk, a zeroed page,
 * the PTE); munmap of a populated range is dominated by the zap and the TLB shootdown.
 */
#ifndef BUDDYSCOPE_FAULT_COST_H
#define BUDDYSCOPE_FAULT_COST_H

/* Exception entry, do_user_addr_fault's checks and the return to user mode. */
#define COST_FAULT_ENTRY_NS 250
/* find_vma / the maple-tree walk for one address. */
#define COST_VMA_WALK_NS 40
/* The speculative path's extra work: get_vma/put_vma atomics, sequence reads, the PMD snapshot
 * with IRQs off. Paid by every speculative attempt (docs/kernel/fault/README.md (L.2): the page_fault2/3 regressions). */
#define COST_SPF_BOOKKEEPING_NS 80
/* anon_vma_prepare on a VMA's first anonymous fault. */
#define COST_ANON_VMA_PREPARE_NS 400
/* clear_page of 4 KiB (a fresh anonymous page, a fresh page-table page). */
#define COST_PAGE_ZERO_NS 500
/* set_pte_at with the rmap, LRU and counter updates of a new anonymous page. */
#define COST_PTE_SET_NS 60
/* A task that finds an rw_semaphore taken sleeps (rwsem_down_read_slowpath / _write_slowpath):
 * schedule() out, the releaser's wake_up_q, the wake-up IPI and schedule() back in. Charged on
 * top of the wait to every contended mmap_lock or VMA-lock acquisition; spinlocks do not sleep. */
#define COST_RWSEM_SLEEP_WAKEUP_NS 2000
/* mmap: get_unmapped_area, the VMA allocation, the tree insert, accounting. */
#define COST_MMAP_NS 1200
/* munmap's tree removal and VMA frees (the zap and the flush are counted apart). */
#define COST_MUNMAP_NS 1200
/* Zapping one present PTE: clear it, drop the rmap (the page's free is the allocator's cost). */
#define COST_ZAP_PTE_NS 40
/* A TLB flush of the mm with IPIs to the CPUs its threads run on. */
#define COST_TLB_FLUSH_NS 2500
/* mprotect's own work, and changing one present PTE. */
#define COST_MPROTECT_NS 1000
#define COST_CHANGE_PTE_NS 20

#endif
