/*
 * mm.h: the fault subsystem's state, one fixed-size struct in the arena (base/subsystem.h's
 * arena_bytes): processes (struct mm_struct) with their threads pinned to CPUs, VMAs (struct
 * vm_area_struct) in a pool linked by index in address order, PTE tables (one per populated PMD,
 * each a page from the page allocator with its split PTE lock), and the counters /proc/vmstat
 * prints. Addresses are page numbers inside one window of FAULT_VA_PAGES per process.
 *
 * Glossary: mmap_lock (mmap_sem before 5.8) the process's rwsem over its VMAs; vm_sequence the
 * posted SPF series' per-VMA seqcount; vm_lock / vm_lock_seq / mm_lock_seq the per-VMA locks of
 * 6.4+; pmd one PMD entry covers PTRS_PER_PTE pages (2 MiB) and points at one PTE table.
 */
#ifndef BUDDYSCOPE_FAULT_MM_H
#define BUDDYSCOPE_FAULT_MM_H

#include "base/subsystem.h"
#include "base/types.h"

#define FAULT_MAX_MMS 4				      /* processes */
#define FAULT_MAX_VMAS 128			      /* VMAs of all processes together */
#define FAULT_VA_PMDS 64			      /* PMDs of one process's window */
#define PTRS_PER_PTE 512			      /* PTEs of one PTE table (x86-64) */
#define FAULT_VA_PAGES (FAULT_VA_PMDS * PTRS_PER_PTE) /* 32768 pages: a 128 MiB window */
#define FAULT_MAX_PTE_TABLES 64 /* PTE tables of all processes together (one full window) */
#define FAULT_MAX_TOUCH 512	/* pages one touch op may fault */
#define FAULT_WASTE_RING 8	/* wasted-page intervals kept per CPU for the at-once count */
#define FAULT_LANE_SEGS 64	/* lane segments kept per CPU for the lanes view (fault/lane.h) */
#define VMA_NONE 0xffffu
#define PTE_NONE 0xffffffffu

/* vm_flags bits (include/linux/mm.h values) and the model's file-backed mark */
#define VM_READ 0x1u
#define VM_WRITE 0x2u
#define VM_EXEC 0x4u
#define VM_SHARED 0x8u
#define VM_GROWSDOWN 0x100u
#define VMA_FILE 0x80000000u /* vm_ops set: a file mapping (the model keeps no page cache) */
#define VM_ACCESS_FLAGS (VM_READ | VM_WRITE | VM_EXEC)
#define FAULT_VM_FLAGS (VM_ACCESS_FLAGS | VM_SHARED | VM_GROWSDOWN | VMA_FILE) /* what mmap takes */

/* x86 page-fault error code bits (arch/x86/include/asm/trap_pf.h) */
#define X86_PF_PROT 0x1
#define X86_PF_WRITE 0x2
#define X86_PF_USER 0x4

/* struct vm_area_struct, reduced to what the fault paths read */
struct vm_area {
	uint32_t vm_start; /* first page */
	uint32_t vm_end;   /* one past the last page */
	uint32_t vm_flags; /* VM_* | VMA_FILE */
	uint16_t next;	   /* the process's next VMA by address, VMA_NONE at the end */
	uint8_t mm;	   /* owning process */
	uint8_t attached;  /* in its process's tree (0: a free slot) */
	uint8_t anon_vma;  /* anon_vma_prepare has run (first anonymous fault) */
	uint8_t pad[3];
	uint32_t vm_lock_seq; /* per-VMA locks: equals mm_lock_seq while write-locked */
	uint32_t vm_refcnt;   /* 6.15+ form: 1 while attached (+1 per reader inside an op) */
	uint64_t write_locked_from_ns;	/* virtual time of the last vma_start_write */
	uint64_t write_locked_until_ns; /* ... and of the mmap_write_unlock that ended it */
	uint64_t faults;		/* faults handled in it */
	struct rwsem vm_lock;	     /* the per-VMA lock (6.4-6.14 an rwsem; 6.15+ the refcount) */
	struct seqcount vm_sequence; /* SPF: odd while a writer changes the VMA */
};

/* struct mm_struct */
struct mm {
	uint8_t in_use; /* a thread has started in it */
	uint8_t pad;
	uint16_t mmap;	      /* first VMA by address, VMA_NONE if none */
	uint32_t mm_users;    /* threads */
	uint32_t map_count;   /* VMAs */
	uint32_t mm_lock_seq; /* per-VMA locks: advanced by every mmap_write_unlock */
	uint8_t write_locked; /* inside an mmap_write_lock section (within one op) */
	uint8_t pad2[7];
	struct rwsem mmap_lock; /* mmap_sem / mmap_lock */
	/* SPF v9/v11: the rwlock_t over the VMA tree. Its holds are a tree update or a lookup (tens
	 * of ns), so it is kept as the last write hold in virtual time: a speculative lookup whose
	 * clock falls inside it spins to its end (rb_lock_spin), and writers are not delayed */
	uint64_t rb_write_from_ns, rb_write_until_ns;
	uint64_t rb_lock_spins, rb_lock_spin_ns; /* lookups that spun, and for how long */
	uint16_t pmd[FAULT_VA_PMDS];		 /* PTE table index + 1 of each PMD; 0 = pmd_none */
};

/* one PTE table: a page-table page and its split PTE lock */
struct pte_table {
	uint32_t pte[PTRS_PER_PTE]; /* pfn mapped at each page, PTE_NONE if none */
	uint32_t pfn;		    /* the page-table page (GFP_PGTABLE_USER) */
	uint16_t nr_present;	    /* PTEs that are not PTE_NONE */
	uint8_t in_use;
	uint8_t mm;
	uint16_t pmd_index;    /* which PMD of its process points at it */
	uint16_t zone;	       /* node * MAX_NR_ZONES + zone of its page */
	uint64_t installed_ns; /* when pmd_populate made it visible (SPF's PMD re-check) */
	struct spinlock ptl;   /* the PTE lock */
};

/* what a CPU's fault lane did, in virtual ns (the lanes view) */
struct fault_cpu {
	uint64_t faults;       /* faults taken on this CPU */
	uint64_t fault_ns;     /* time inside fault handling, waits included */
	uint64_t mmap_wait_ns; /* waiting for mmap_lock (read or write) */
	uint64_t vma_wait_ns;  /* a writer waiting for a VMA's readers */
	uint64_t retry_ns;     /* time spent in speculative or per-VMA attempts that fell back */
	uint64_t wasted_pages; /* pages allocated then freed unused */
	uint64_t waste_from_ns[FAULT_WASTE_RING]; /* recent wasted-page intervals: allocated at */
	uint64_t waste_to_ns[FAULT_WASTE_RING];	  /* ... freed at */
	uint8_t waste_next;			  /* ring position */
	uint8_t thread_mm;			  /* 0: no thread; else the process + 1 */
	uint8_t lane_state; /* the open lane segment's state, LANE_NONE between ops */
	uint8_t pad;
	uint32_t lane_from_seq; /* the open segment's first event */
	uint64_t lane_from_ns;	/* ... and where it began */
	uint64_t lane_count; /* segments recorded on this CPU's lane ever (the ring keeps the last) */
};

/* one stretch of a CPU's lane (fault/lane.h), in its ring after the fault state */
struct fault_lane_seg {
	uint64_t from_ns, to_ns; /* virtual time on the CPU's clock, to_ns > from_ns */
	uint32_t op;		 /* the op that ran it */
	uint32_t seq_from;	 /* its first event's seq ... */
	uint32_t seq_to;	 /* ... and one past its last (equal: no event of its own) */
	uint8_t state;		 /* enum fault_lane_state */
	uint8_t mm;		 /* the thread's process */
	uint16_t pad;
};

/* vm_event_item counters the subsystem keeps (/proc/vmstat names) */
struct fault_events {
	uint64_t pgfault;	      /* every user fault */
	uint64_t speculative_pgfault; /* SPF v10/v11: handled without mmap_sem */
	uint64_t vma_lock_success, vma_lock_abort, vma_lock_retry, vma_lock_miss;
	uint64_t spf_abort[6];	   /* by EV_SPF_* kind - EV_SPF_VMA_CHANGED */
	uint64_t fault_mmap_reads; /* mmap_lock read acquisitions made by faults (trylocks included) */
	uint64_t sigsegv;
	uint64_t wasted_pages;	     /* allocated for a fault and freed unused */
	uint64_t wasted_at_once_max; /* most such pages allocated at one instant */
	uint64_t by_path[4];	     /* faults finished on each enum fault_path */
};

/* the subsystem's whole state */
struct fault_state {
	struct fault_events ev;
	uint32_t nr_vmas;	/* VMA slots in use */
	uint32_t nr_pte_tables; /* PTE tables in use */
	uint32_t lanes_off; /* bytes from this struct to the lane rings (FAULT_LANE_SEGS per CPU) */
	uint32_t lane_segs; /* FAULT_LANE_SEGS, for the readers of the rings */
	struct mm mms[FAULT_MAX_MMS];
	struct vm_area vmas[FAULT_MAX_VMAS];
	struct pte_table pte_tables[FAULT_MAX_PTE_TABLES];
	/* (then one struct fault_cpu per CPU of the machine: fault_cpus; a MAX_CPUS array here was
	 * 213 KB of every machine's fixed state, copied by every checkpoint) */
};

/* The fault subsystem's entry points for the base (fault/ops.c). */
extern const struct subsystem fault_subsystem;

/* This sim's fault state (never NULL once booted: the subsystem always has its region). */
static inline struct fault_state *fault_state(const struct sim *s)
{
	return (struct fault_state *)sim_subsystem_region(s, &fault_subsystem);
}

/* The per-CPU records, one per CPU of the machine, right after the fault state. */
static inline struct fault_cpu *fault_cpus(const struct fault_state *f)
{
	return (struct fault_cpu *)(f + 1);
}

#endif
