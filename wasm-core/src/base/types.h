/*
 * types.h: every type of the Buddyscope simulation core, and the glossary.
 *
 * Glossary (the kernel's words; see ../../docs/model-notes.md for where the model simplifies):
 *   pfn           page frame number: physical address >> PAGE_SHIFT (12).
 *   frame         our struct page: one per *materialised* pfn (managed pages only).
 *   order         a block of 2^order contiguous, naturally aligned page frames.
 *   buddy         the other half of the order+1 block: buddy pfn = pfn ^ (1 << order),
 *                 e.g. the buddy of pfn 8 at order 1 is 8 ^ 2 = 10.
 *   migratetype   what a block may hold: UNMOVABLE, MOVABLE, RECLAIMABLE (the three "pcp types"),
 *                 HIGHATOMIC (reserve for high-order atomic allocations), ISOLATE.
 *   pageblock     2^pageblock_order frames sharing one migratetype tag (512 on x86-64).
 *   free_area     per zone and order: one free list per migratetype, and nr_free blocks.
 *   zone          DMA, DMA32, Normal, Movable, Device: pfn ranges with their own free lists,
 *                 watermarks and per-CPU lists.
 *   node          a NUMA node: its zones and CPUs.
 *   pcp           per_cpu_pages: per (CPU, zone) lists of free blocks, so most allocations
 *                 and frees skip the zone lock.  pindex names one of its lists.
 *   batch, high   how many pages a pcp refill/drain moves; how many pages a pcp may hold.
 *   watermark     min/low/high/promo free-page thresholds of a zone.
 *   lowmem_reserve pages a lower zone keeps back from allocations that could use a higher zone.
 *   lock          spinlock, rwsem or seqcount in virtual time (base/lock.h); a hand-over is its
 *                 cache line moving to another CPU, a contended acquisition one that waited.
 *   gfp           "get free pages" flags of a request: zones, migratetype, reclaim rights.
 *   op            one command applied to the simulation (alloc, free, drain, tick, ...).
 *   event         one decision the core made, shaped like a kernel tracepoint record.
 *
 * Shape: one struct sim at the start of a caller-provided arena holds everything; variable-size
 * arrays (frames, pageblock tags, pcps, handles, events) follow it and are reached by byte
 * offsets from the arena start, so a snapshot is one memcpy and no pointer is ever stored.
 * Lists are linked by pfn; PFN_NONE ends a list.
 */
#ifndef BUDDYSCOPE_TYPES_H
#define BUDDYSCOPE_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* ---- Limits of the model ------------------------------------------------------------------ */

/* MAX_NUMNODES, MAX_CPUS_PER_NODE, MAX_PAGE_ORDER_LIMIT, MAX_FRAMES, ...: see machine.def */
enum model_limit {
#define LIMIT(NAME, value, doc) NAME = value,
#define PRESET(NAME, name, nodes, cpus_per_node, max_order, offered, label)
#include "base/machine.def"
#undef LIMIT
#undef PRESET
};

#define PAGE_SHIFT 12
#define NR_PAGE_ORDERS_LIMIT (MAX_PAGE_ORDER_LIMIT + 1)
#define PAGE_ALLOC_COSTLY_ORDER 3
#define PFN_NONE 0xffffffffu /* end of a pfn-linked list */
#define MAX_SUBSYSTEMS 8     /* entries of sim_subsystems[] at most (src/subsystems.c) */
#define HANDLE_NONE 0xffffffffu

/* enum zone_type of x86-64 with ZONE_DEVICE (5 zones, so protection arrays print 5 values) */
enum zone_type { ZONE_DMA, ZONE_DMA32, ZONE_NORMAL, ZONE_MOVABLE, ZONE_DEVICE, MAX_NR_ZONES };

/* enum migratetype without CONFIG_CMA, with CONFIG_MEMORY_ISOLATION (as on the live 6.18 machine) */
enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
	MIGRATE_PCPTYPES, /* number of types that have pcp lists */
	MIGRATE_HIGHATOMIC = MIGRATE_PCPTYPES,
	MIGRATE_ISOLATE,
	MIGRATE_TYPES
};

/* pcp lists: 3 types x orders 0..3 + 2 THP lists (6.10+); 5.14 had 15 */
#define NR_PCP_LISTS_LIMIT 15

/* ---- GFP flags (include/linux/gfp_types.h values) ------------------------------------------ */

#define __GFP_DMA 0x1u
#define __GFP_HIGHMEM 0x2u
#define __GFP_DMA32 0x4u
#define __GFP_MOVABLE 0x8u
#define __GFP_RECLAIMABLE 0x10u
#define __GFP_HIGH 0x20u
#define __GFP_IO 0x40u
#define __GFP_FS 0x80u
#define __GFP_ZERO 0x100u
#define __GFP_DIRECT_RECLAIM 0x400u
#define __GFP_KSWAPD_RECLAIM 0x800u
#define __GFP_WRITE 0x1000u
#define __GFP_NOWARN 0x2000u
#define __GFP_RETRY_MAYFAIL 0x4000u
#define __GFP_NOFAIL 0x8000u
#define __GFP_NORETRY 0x10000u
#define __GFP_MEMALLOC 0x20000u
#define __GFP_COMP 0x40000u
#define __GFP_NOMEMALLOC 0x80000u
#define __GFP_HARDWALL 0x100000u
#define __GFP_THISNODE 0x200000u
#define __GFP_ACCOUNT 0x400000u
#define __GFP_ZEROTAGS 0x800000u
#define __GFP_RECLAIM (__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define GFP_ATOMIC (__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL (__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_KERNEL_ACCOUNT (GFP_KERNEL | __GFP_ACCOUNT)
#define GFP_NOWAIT (__GFP_KSWAPD_RECLAIM | __GFP_NOWARN)
#define GFP_NOIO (__GFP_RECLAIM)
#define GFP_NOFS (__GFP_RECLAIM | __GFP_IO)
#define GFP_USER (GFP_KERNEL | __GFP_HARDWALL)
#define GFP_DMA __GFP_DMA
#define GFP_DMA32 __GFP_DMA32
#define GFP_HIGHUSER (GFP_USER | __GFP_HIGHMEM)
#define GFP_HIGHUSER_MOVABLE (GFP_HIGHUSER | __GFP_MOVABLE)

/* ---- alloc_flags (mm/internal.h values) ----------------------------------------------------- */

#define ALLOC_WMARK_MIN 0x0u
#define ALLOC_WMARK_LOW 0x1u
#define ALLOC_WMARK_HIGH 0x2u
#define ALLOC_WMARK_MASK 0x3u
#define ALLOC_NO_WATERMARKS 0x4u
#define ALLOC_OOM 0x8u
#define ALLOC_NON_BLOCK 0x10u
#define ALLOC_MIN_RESERVE 0x20u
#define ALLOC_CPUSET 0x40u
#define ALLOC_CMA 0x80u
#define ALLOC_NOFRAGMENT 0x100u
#define ALLOC_HIGHATOMIC 0x200u
#define ALLOC_TRYLOCK 0x400u
#define ALLOC_KSWAPD 0x800u
#define ALLOC_RESERVES (ALLOC_NON_BLOCK | ALLOC_MIN_RESERVE | ALLOC_HIGHATOMIC | ALLOC_OOM)

enum wmark { WMARK_MIN, WMARK_LOW, WMARK_HIGH, WMARK_PROMO, NR_WMARK };

/* ---- Kernel profiles: behaviour switches as data ---------------------------------------------- */

/* the profiles, in the row order of base/profiles.def (0, PROFILE_6_18, is the default) */
enum profile_id {
#define PROFILE_SWITCH(field, kind, doc)
#define PROFILE(id, name, what, kernels, ...) id,
#include "base/profiles.def"
#undef PROFILE
#undef PROFILE_SWITCH
	NR_PROFILES
};

/* how the pcp lists are laid out */
enum pcp_layout {
	PCP_LAYOUT_ORDER0, /* <= 5.13: lists[MIGRATE_PCPTYPES], order 0 only */
	PCP_LAYOUT_2016,   /* 2016 series: 3 order-0 lists + one list per order 1..3 */
	PCP_LAYOUT_5_14,   /* 5.14-5.19: 3 x (orders 0..3 + THP) = 15 lists */
	PCP_LAYOUT_6_10,   /* 6.10+: 3 x orders 0..3 + THP unmovable + THP movable = 14 lists */
	PCP_LAYOUT_6_0,	   /* ~6.0-6.9: 3 x orders 0..3 + one shared THP list = 13 lists (6.6) */
};

/* how pcp->high is chosen */
enum pcp_high_rule {
	PCP_HIGH_6_BATCH, /* <= 5.13: high = 6 * batch */
	PCP_HIGH_2016,	  /* 2016: batch * MIGRATE_PCPTYPES + (batch << PAGE_ALLOC_COSTLY_ORDER) */
	PCP_HIGH_ZONE_HIGHSIZE, /* 5.14-6.6: one high from zone_highsize() */
	PCP_HIGH_AUTOTUNE,	/* 6.7+: high between high_min and high_max */
};

/* how free_pcppages_bulk picks lists */
enum pcp_drain_rule {
	PCP_DRAIN_BATCH_FREE, /* up to 5.18: from list 0, round-robin, batch_free weight carried over */
	PCP_DRAIN_REQUESTED_FIRST, /* 5.19+: start at the list just freed to, drain each list in turn */
	PCP_DRAIN_BATCH_FREE_FROM_TYPE, /* 2016 series: from the freed page's order-0 type list, the
					   batch_free weight restarting at every list */
};

/* how __rmqueue_fallback takes a foreign block */
enum fallback_rule {
	FALLBACK_STEAL_6_12, /* one pass: claim the pageblock if enough alike pages, else take one piece */
	FALLBACK_CLAIM_STEAL_6_18, /* CLAIM stage (whole pageblocks) then STEAL stage (single block) */
	FALLBACK_MOVE_RETRY_5_0, /* 5.0-6.9: move the block (or every free page of its pageblock) to the
				    requester's lists, claim at half, then retry the requester's lists */
	FALLBACK_MOVE_EXPAND_4_9, /* 4.9: move the pageblock's free pages when allowed, retag at half
				     free, split the block on the requester's lists; no retry */
};

/* which percpu chunk allocator serves alloc_percpu (mm/percpu.c) */
enum pcpu_allocator {
	PCPU_AREA_MAP, /* <= 4.13: int map[] of area offsets, bit 0 = in use */
	PCPU_BITMAP,   /* 4.14+: alloc_map, bound_map and per-page pcpu_block_md hints */
};

/* what the bitmap allocator's free path offers the chunk hint when the freed run stays in a block */
enum pcpu_free_hint_rule {
	PCPU_FREE_HINT_MERGED, /* area map: contig_hint = max(old, merged area), exact */
	PCPU_FREE_HINT_BLOCK_CONTIG, /* 4.14-5.0: the run's chunk start with the *block's* contig hint as length */
	PCPU_FREE_HINT_BLOCK_END, /* 5.1+: pcpu_block_update(chunk_md, chunk start, block-relative end) */
};

/* how a user page fault finds and locks its VMA (arch/x86/mm/fault.c, do_user_addr_fault) */
enum fault_lock_rule {
	FAULT_LOCK_MMAP, /* every fault under mmap_lock for read (<= 6.3, or CONFIG_PER_VMA_LOCK off) */
	FAULT_LOCK_SPF, /* the posted speculative faults: vm_sequence checks, then mmap_sem on abort */
	FAULT_LOCK_PER_VMA, /* 6.4+: lock_vma_under_rcu, then mmap_lock when it fails or retries */
};

/* CONFIG_HZ: jiffies per second, the unit of the zonelist cache's one-second zap (profile_hz) */
enum hz_rule {
	HZ_100,
	HZ_250, /* the live 6.18 machine */
	HZ_300,
	HZ_1000, /* common on 2011 servers (seed 001's kernels) */
};

/* how build_zonelists orders zones across nodes (numa_zonelist_order) */
enum zonelist_order_rule {
	ZONELIST_ORDER_NODE_ONLY, /* 4.14+: node order only (the sysctl is accepted and ignored) */
	ZONELIST_ORDER_DEFAULT_3_0,  /* <= 3.15: default_zonelist_order picks node or zone order by
				       the size of DMA/DMA32 against the nodes */
	ZONELIST_ORDER_NODE_DEFAULT, /* 3.16-4.13: node order on 64-bit, zone order only if asked */
};

/*
 * one kernel version's behaviour: a row of profile_table[] (profile.c). The switches are the
 * PROFILE_SWITCH rows of base/profiles.def, in that order, each named for what it does and
 * documented there with the kernels that have it; behaviour reads them, never id.
 */
struct sim_profile {
	uint8_t id; /* enum profile_id: which row, for names and display only */
#define PROFILE_SWITCH(field, kind, doc) uint8_t field;
#define PROFILE(id, name, what, kernels, ...)
#include "base/profiles.def"
#undef PROFILE
#undef PROFILE_SWITCH
	uint8_t nr_pcp_lists; /* lists used by the layout (profile_nr_pcp_lists) */
	char name[24];	      /* "6.18", "2016-v5", ... as the workload language spells it */
};

/* ---- Page frames ------------------------------------------------------------------------------ */

/* what a frame is (page_states.def); only the head frame of a block says more than PG_TAIL */
enum page_state {
#define PG(NAME, doc) PG_##NAME,
#include "base/page_states.def"
#undef PG
};

/* one materialised page frame (struct page); 16 bytes */
struct page {
	uint32_t next; /* next pfn on the free list / pcp list, PFN_NONE at the end */
	uint32_t prev; /* previous pfn on the list, PFN_NONE at the head */
	uint8_t state; /* enum page_state */
	uint8_t order; /* block order when state != PG_TAIL */
	uint8_t list; /* PG_BUDDY: migratetype list it sits on; PG_PCP: pindex; PG_ALLOCATED: the allocation's migratetype (claims count MOVABLE ones as movable) */
	uint8_t flags; /* PAGEF_* */
	uint16_t cpu; /* PG_PCP: owning CPU; PG_ALLOCATED: allocating CPU (an LRU extent: its folios' order) */
	uint16_t lru_flags; /* PG_ALLOCATED head on an LRU list: PGL_* (reclaim/); next/prev link the list */
};

#define PAGEF_HWPOISON 0x1 /* marked bad by the corrupt op: the refill check will reject it */
#define PAGEF_CAPTURED \
	0x2 /* PG_ALLOCATED: memory a captured state showed in use (no handle holds it) */
/*
 * PG_ALLOCATED, the head of a whole max-order block (base/frames.h): an LRU extent, captured LRU
 * memory standing for 2^(order - cpu) folios of order cpu on one list, all alike, placed one by
 * one (reclaim/capture.c). Never the tail of its list: reclaim/lru.c turns it into its folios first.
 */
#define PAGEF_EXTENT 0x4
/*
 * PG_ALLOCATED, an order-0 page another subsystem holds from the page allocator: a percpu chunk's
 * backing page, a page table, a page mapped by a PTE. Only its owner frees it (page_free_owned);
 * a raw free of it is refused as a bad page (BAD_OWNED), as the kernel's free_page_is_bad refuses
 * a page still mapped or still in use, and the checker counts the marks against the owners'.
 */
#define PAGEF_OWNED 0x8

/* A block's page flags as reclaim sees them (struct page.lru_flags; the kernel's PG_* names). */
#define PGL_LRU 0x1	     /* PG_lru: on one of its node's LRU lists */
#define PGL_ACTIVE 0x2	     /* PG_active: on an active list */
#define PGL_REFERENCED 0x4   /* PG_referenced: accessed since reclaim last looked */
#define PGL_SWAPBACKED 0x8   /* PG_swapbacked: anonymous memory, reclaimable only to swap */
#define PGL_DIRTY 0x10	     /* PG_dirty: page cache not yet written back */
#define PGL_MAPPED 0x20	     /* mapped into a page table (folio_mapped) */
#define PGL_YOUNG 0x40	     /* a mapping's accessed bit (what folio_referenced counts) */
#define PGL_RECLAIM 0x80     /* PG_reclaim: reclaim found it dirty; rotate it when written back */
#define PGL_WORKINGSET 0x100 /* PG_workingset: was active once */

/* enum lru_list: the evictable LRU lists of a node, in the kernel's order */
enum lru_list {
	LRU_INACTIVE_ANON,
	LRU_ACTIVE_ANON,
	LRU_INACTIVE_FILE,
	LRU_ACTIVE_FILE,
	NR_LRU_LISTS
};

/* What an allocation is for (the workload's for=...): which LRU it joins, and how. */
enum lru_purpose {
	PURPOSE_NONE,	     /* kernel memory: not on any LRU */
	PURPOSE_ANON,	     /* anonymous memory, mapped by the faulting task */
	PURPOSE_FILE,	     /* clean page cache (read), not mapped */
	PURPOSE_FILE_DIRTY,  /* page cache written by write(2): dirty until the flusher runs */
	PURPOSE_FILE_MAPPED, /* page cache mapped by mmap, accessed through the mapping */
	NR_PURPOSES
};

/* ---- Free areas, zones, nodes --------------------------------------------------------------- */

/* struct free_area: one list per migratetype, heads and tails by pfn */
struct free_area {
	uint32_t head[MIGRATE_TYPES];  /* first pfn of each list, PFN_NONE if empty */
	uint32_t tail[MIGRATE_TYPES];  /* last pfn of each list */
	uint32_t count[MIGRATE_TYPES]; /* blocks on each list (what pagetypeinfo prints) */
	uint32_t nr_free;	       /* blocks of this order on all lists (buddyinfo) */
};

#define ZONE_BELOW_HIGH 0x1	   /* a watermark check against HIGH failed (pcp heuristics) */
#define ZONE_BOOSTED_WATERMARK 0x2 /* boost raised by a fallback: wake kswapd after the alloc */
#define ZONE_RECLAIM_ACTIVE 0x4	   /* kswapd is balancing this zone */

/* ---- Locks in virtual time (operations and costs in base/lock.h) ---------------------------- */

/* What every lock counts, in virtual nanoseconds; an rwsem keeps one set per side. */
struct lock_stats {
	uint64_t acquisitions; /* times taken */
	uint64_t contended;    /* acquisitions that had to wait */
	uint64_t wait_ns;      /* total time CPUs waited to take it */
	uint64_t hold_ns;      /* total time held, from taking it to releasing it */
	uint64_t handovers;    /* acquisitions that pulled the lock's cache line from another CPU */
};

/* spinlock_t: one holder; a CPU that finds it taken waits (spins) until it is released */
struct spinlock {
	struct lock_stats stats; /* what it counts */
	uint64_t free_at_ns; /* virtual time of the last release: a taker at an earlier clock waits */
	uint64_t acquired_at_ns; /* when the current (or last) holder got it, after waiting */
	uint32_t last_wait_ns; /* wait of the current (or last) acquisition, for the caller's event */
	uint16_t line_cpu;     /* 1 + the CPU whose cache holds the lock word; 0 before first use */
	uint16_t pad;
};

/* struct rw_semaphore: readers share it, a writer holds it alone, and once a writer is queued the
 * readers that come after it wait for it (the anti-starvation rule) */
struct rwsem {
	struct lock_stats read;	     /* down_read .. up_read */
	struct lock_stats write;     /* down_write .. up_write */
	uint64_t readers_free_at_ns; /* latest release of a reader let in so far: writers wait for it */
	uint64_t writer_free_at_ns; /* release of the last writer: everyone who comes after waits */
	uint64_t write_acquired_at_ns; /* when the current (or last) writer got it */
	uint64_t read_open_ns;	       /* sum of releases - sum of acquisitions of readers inside */
	uint32_t readers;	       /* readers between down_read and up_read */
	uint16_t line_cpu; /* 1 + the CPU whose cache holds the count; 0 before first use */
	uint8_t writer;	   /* 1 between down_write and up_write */
	uint8_t pad;
};

/* seqcount_t: a writer makes the count odd while it changes what the count guards; a reader that
 * saw it odd, or changed, or overlapped a write in virtual time, retries */
struct seqcount {
	/* write sections: hold = time odd; no waits (writers are serialised by their own lock) */
	struct lock_stats write;
	uint64_t reads;		 /* read sections begun */
	uint64_t retries;	 /* read sections that had to be done again */
	uint64_t write_begin_ns; /* virtual time the last write section began */
	uint64_t write_end_ns;	 /* ... and ended (its begin while a write is inside) */
	uint32_t sequence;	 /* even: stable; odd: a writer is inside */
	uint16_t line_cpu;	 /* 1 + the CPU that wrote the count last; 0 before first use */
	uint16_t pad;
};

/* What a reader saw at read_seqcount_begin, to hand to read_seqcount_retry. */
struct seqcount_read {
	uint32_t sequence; /* the count at begin */
	uint32_t pad;
	uint64_t at_ns; /* the reader's clock at begin */
};

/* struct zone */
struct zone {
	uint32_t start_pfn; /* zone_start_pfn */
	uint32_t spanned;   /* spanned_pages: pfn range including holes */
	uint32_t present;   /* present_pages: physical pages */
	uint32_t managed;   /* managed_pages: pages given to the buddy allocator */
	uint32_t mem_pfn;   /* first managed pfn: managed frames are [mem_pfn, mem_pfn + managed) */
	uint32_t pageblock_base;      /* index of mem_pfn's pageblock in the pageblock tag array */
	uint32_t nr_pageblocks;	      /* pageblocks covering the materialised range */
	int32_t _watermark[NR_WMARK]; /* without boost */
	int32_t watermark_boost;
	int32_t lowmem_reserve[MAX_NR_ZONES]; /* "protection" */
	int64_t nr_free_pages; /* NR_FREE_PAGES exactly: buddy free pages, not counting ISOLATE lists
				  (what zone_page_state_snapshot sums to) */
	int64_t vm_stat_free; /* zone->vm_stat[NR_FREE_PAGES]: lags nr_free_pages by the CPUs' deltas */
	int64_t percpu_drift_mark; /* below this zone_watermark_ok_safe sums the deltas; 0: never */
	int64_t nr_free_pages_blocks; /* NR_FREE_PAGES_BLOCKS (6.18): free pages in blocks >= pageblock_order */
	int64_t nr_free_highatomic;	/* free pages on HIGHATOMIC lists */
	int64_t nr_reserved_highatomic; /* pages in HIGHATOMIC pageblocks */
	int32_t pageset_batch;		/* zone_batchsize(): batch of every CPU's pcp */
	int32_t pageset_high_min;	/* zone_highsize(..., 0) */
	int32_t pageset_high_max;	/* zone_highsize(..., 8) */
	uint32_t flags; /* ZONE_BELOW_HIGH, ZONE_BOOSTED_WATERMARK, ZONE_RECLAIM_ACTIVE */
	uint32_t pad_lru;
	int64_t nr_zone_lru[NR_LRU_LISTS]; /* NR_ZONE_{IN,}ACTIVE_{ANON,FILE}: this zone's LRU pages */
	int64_t nr_zone_write_pending; /* NR_ZONE_WRITE_PENDING: dirty page cache in this zone */
	int64_t nr_zone_file_pages; /* NR_FILE_PAGES of this zone (zone_reclaim's input before 4.8) */
	int64_t nr_zone_file_mapped; /* NR_FILE_MAPPED of this zone (zone_reclaim's input before 4.8) */
	int64_t min_unmapped_pages; /* <= 4.7: present * min_unmapped_ratio / 100 (zone_reclaim) */
	int64_t min_slab_pages;	    /* <= 4.7: present * min_slab_ratio / 100 */
	uint8_t node;		    /* zone_to_nid */
	uint8_t idx;		    /* zone_idx: enum zone_type */
	uint16_t stat_cpu; /* 1 + the CPU holding zone->lock, whose deltas its changes go to; 0 */
	uint8_t stat_threshold; /* the CPUs' stat_threshold (calculate_normal_threshold) */
	uint8_t pad;
	uint16_t pcp_slot; /* populated: its index among the machine's populated zones (sim_pcp) */
	uint64_t pgalloc;  /* vmstat pgalloc_<zone> */
	uint64_t numa_hit, numa_miss, numa_foreign, numa_local, numa_other;
	struct spinlock lock;	   /* zone->lock: the buddy lists and their counters */
	uint64_t lock_pages_moved; /* pages moved between pcp and buddy lists under the lock */
	struct free_area free_area[NR_PAGE_ORDERS_LIMIT];
	/* a captured state (page_alloc/capture.c), recorded by OP_CAPTURE_ZONE before it is laid out */
	uint32_t capture_free[NR_PAGE_ORDERS_LIMIT]
			     [MIGRATE_TYPES];	/* free blocks per order and type */
	uint32_t capture_blocks[MIGRATE_TYPES]; /* pageblocks per type; all 0: not captured */
	uint32_t capture_unplaced; /* free pages the layout could not place (reported, not hidden) */
	uint32_t capture_laid_out; /* 1 once OP_CAPTURE_ZONE laid the zone out */
	/* per pageblock type (the last: any type), frames before it hold no captured in-use block of
	 * a pageblock of that type (CAPTURE_FREE's scan; a retagged pageblock pulls its new type's back) */
	uint32_t capture_cursor[MIGRATE_TYPES + 1];
	/* per pageblock type, frames before it hold no unowned LRU page there (CAPTURE_FREE's scan) */
	uint32_t capture_lru_cursor[MIGRATE_TYPES];
};

/* struct lruvec of a node: its LRU lists, linked through allocated heads' next/prev by pfn */
struct lruvec {
	uint32_t head[NR_LRU_LISTS]; /* most recently added block (the kernel's list head side) */
	uint32_t tail[NR_LRU_LISTS]; /* oldest block: where reclaim scans from */
	int64_t nr_pages[NR_LRU_LISTS];	  /* NR_{IN,}ACTIVE_{ANON,FILE}: pages on each list */
	uint32_t nr_blocks[NR_LRU_LISTS]; /* blocks on each list (what the checker walks) */
	int64_t nr_dirty;		  /* NR_FILE_DIRTY */
	int64_t nr_mapped;		  /* NR_FILE_MAPPED: mapped page cache */
	int64_t nr_anon;		  /* NR_ANON_MAPPED */
	int64_t nr_file;		  /* NR_FILE_PAGES */
};

/* one node's kswapd: between a wake and the sleep after balance_pgdat */
struct kswapd {
	uint8_t running;	 /* inside balance_pgdat: ZONE_RECLAIM_ACTIVE is set on its zones */
	uint8_t priority;	 /* sc.priority of the next round: DEF_PRIORITY (12) down to 1 */
	uint8_t order;		 /* sc.order it balances for */
	uint8_t highest_zoneidx; /* the highest zone it balances */
	uint8_t boosted; /* began with a watermark boost: the boosts are dropped at the end */
	uint8_t napping; /* balanced, in kswapd_try_to_sleep's HZ/10 nap (counted in nr_awake_workers) */
	uint8_t unpaced; /* its lists hold captured pages of unknown folio size: the clock is no guide */
	uint8_t pad;
	int64_t clock_us;   /* the replayed trace's clock (OP_CLOCK), microseconds from its start */
	int64_t nap_end_us; /* clock_us at which the nap ends; the next vmstat tick ends it anyway */
	uint64_t clock_op;  /* 1 + op_seq of the last OP_CLOCK: kswapd takes no step for that op */
	int64_t run_begin_us;	  /* clock_us when this balance_pgdat began */
	int64_t run_cost_ns;	  /* what its rounds so far took the kernel (kswapd_round_cost) */
	int64_t nr_to_reclaim;	  /* kswapd_shrink_node's target: sum of the zones' high marks */
	int64_t nr_scanned;	  /* scanned in the last round */
	int64_t nr_reclaimed;	  /* reclaimed since balance_pgdat began */
	int64_t nr_boost_reclaim; /* boost still to reclaim for */
	uint64_t rounds;	  /* rounds of the priority loop run in all */
	int32_t zone_boosts[MAX_NR_ZONES]; /* each zone's watermark_boost when balance_pgdat began */
};

/* zonelist slots of a node's fallback zonelist: MAX_ZONES_PER_ZONELIST */
#define MAX_ZONES_PER_ZONELIST (MAX_NUMNODES * MAX_NR_ZONES)

/*
 * struct zonelist_cache (2.6.20-4.3): a hint shared by every task walking one node's fallback
 * zonelist, updated without locks. A set bit says "this slot's zone was found full recently";
 * the walk skips it until the next zap (a zlc_setup more than HZ jiffies after the last).
 */
#define ZLC_WORDS ((MAX_ZONES_PER_ZONELIST + 63) / 64) /* 64-bit words of fullzones */
struct zonelist_cache {
	uint8_t z_to_n[MAX_ZONES_PER_ZONELIST]; /* node id of each zonelist slot */
	uint64_t fullzones[ZLC_WORDS];		/* one bit per slot: recently found full */
	uint64_t last_full_zap;			/* jiffies of the last clearing of fullzones */
};

/* struct pglist_data, reduced to what the model needs */
struct node {
	uint16_t first_cpu; /* CPUs of the node are first_cpu .. first_cpu + nr_cpus - 1 */
	uint16_t nr_cpus;
	uint8_t kswapd_awake; /* woken by wakeup_kswapd and not yet balanced */
	uint8_t kswapd_order; /* kswapd_order */
	uint8_t kswapd_highest_zoneidx;
	uint8_t kswapd_failures;
	uint8_t distance[MAX_NUMNODES]; /* node_distance(this, other): 10 local, 20 remote */
	uint8_t zonelist[MAX_NUMNODES * MAX_NR_ZONES][2]; /* ZONELIST_FALLBACK: (node, zone) pairs */
	uint16_t zonelist_len;	/* entries of zonelist: up to MAX_ZONES_PER_ZONELIST (320) */
	uint8_t zonelist_order; /* how the zonelist was built: 1 node order, 2 zone order */
	uint8_t reclaim_locked; /* PGDAT_RECLAIM_LOCKED / ZONE_RECLAIM_LOCKED: a node reclaim runs */
	uint16_t kswapd_cpu; /* 1 + the CPU kswapd runs on (OP_KSWAPD_CPU); 0: the node's first online */
	/* DEACTIVATE_ANON / _FILE: the workingset activations of that type moved since reclaim last
	 * took its snapshot_refaults (the model keeps no refaults; a capture's trace shows them) */
	uint8_t refaults_moved;
	uint8_t pad2;
	uint64_t totalreserve_pages; /* pgdat->totalreserve_pages (calculate_totalreserve_pages) */
	uint64_t kswapd_wakeups;
	int64_t min_unmapped_pages; /* 4.8+: sum over zones of managed * min_unmapped_ratio / 100 */
	int64_t min_slab_pages;	    /* 4.8+: sum over zones of managed * min_slab_ratio / 100 */
	struct zonelist_cache zlc;  /* the ZLC of the fallback zonelist (profiles with zlc) */
	struct lruvec lruvec;	    /* the node's LRU lists (reclaim/lru.c) */
	struct kswapd kswapd;	    /* where kswapd's balance_pgdat stands (reclaim/kswapd.c) */
	struct zone zones[MAX_NR_ZONES];
};

/* ---- Per-CPU pages ---------------------------------------------------------------------------- */

#define PCPF_PREV_FREE_HIGH_ORDER 0x1
#define PCPF_FREE_HIGH_BATCH 0x2

/* struct per_cpu_pages of one (CPU, zone); lists by pindex */
struct per_cpu_pages {
	int32_t count;	      /* pages on all lists (an order-k block counts 2^k) */
	int32_t high;	      /* current limit: 0 until first used, then in [high_min, high_max] */
	int32_t high_min;     /* 6.7+: lower bound of high */
	int32_t high_max;     /* 6.7+: upper bound of high */
	int32_t batch;	      /* refill / drain chunk */
	int16_t free_count;   /* 6.7+: recent consecutive freed pages */
	uint8_t flags;	      /* PCPF_* */
	uint8_t alloc_factor; /* 6.7+: refill scale, 0 .. PCP_BATCH_SCALE_MAX */
	uint8_t free_factor;  /* 5.14-6.6: drain scale */
	uint8_t expire;	      /* NUMA: ticks left before remote-node pages are drained */
	uint8_t last_pindex;  /* round-robin position of the batch_free drain */
	int8_t vm_stat_diff; /* per_cpu_zonestat.vm_stat_diff[NR_FREE_PAGES]: not yet in the zone's */
	uint32_t head[NR_PCP_LISTS_LIMIT];	/* first pfn of each list */
	uint32_t tail[NR_PCP_LISTS_LIMIT];	/* last pfn of each list */
	uint32_t nr_blocks[NR_PCP_LISTS_LIMIT]; /* blocks on each list (the count as the lists see it) */
};

/* one CPU */
struct cpu {
	uint16_t node; /* cpu_to_node */
	uint8_t online;
	uint8_t trace_ctx; /* what the trace's flags column would say now: TRACE_CTX_* (base/event.h) */
	uint64_t clock_ns;				       /* this CPU's virtual time */
	uint64_t pcp_hits, pcp_refills, pcp_frees, pcp_drains; /* per-CPU counters */
	uint64_t lock_acquisitions, lock_wait_ns; /* every lock this CPU took, and its waits */
};

/* ---- Ops: what a workload does ----------------------------------------------------------------- */

/* the op kinds the base owns (ops.def); each subsystem adds its own (page_alloc/vocab.h) */
enum op_kind {
#define OP(id, NAME, order, cpu, gfp, handle, arg, doc) OP_##NAME = id,
#include "base/ops.def"
#undef OP
};

/* one op; 16 bytes */
struct sim_op {
	uint8_t kind; /* enum op_kind */
	uint8_t order;
	uint16_t cpu;
	uint32_t gfp;
	uint32_t handle; /* handle index, pfn for OP_FREE_PFN, sysctl id for OP_SYSCTL (ops.def) */
	int32_t arg;
};

/* what sim_apply returns */
enum sim_err {
	SIM_OK = 0,
	SIM_ENOMEM = 1,	    /* allocation failed (not an error of the input) */
	SIM_EINVAL = 2,	    /* malformed op: unknown kind, order above the maximum, bad sysctl */
	SIM_EBADCPU = 3,    /* unknown or offline CPU */
	SIM_EBADHANDLE = 4, /* handle out of range or holding no page */
	SIM_EBADPAGE = 5,   /* free of a pfn out of range, of a free page, or at a wrong order */
	SIM_ECORRUPT =
		6, /* the state is corrupted: a bounded loop ran out (reported, state frozen) */
	SIM_ECONFIG = 7, /* sim_init: the machine description is invalid */
	SIM_ENOSPACE =
		8, /* sim_init: the arena is too small; an op: the frame budget ran out (base/frames.h) */
};

/* ---- Events: tracepoint-shaped records -------------------------------------------------------- */

/*
 * One decision of the core; 40 bytes; fields unused by a kind are 0. What every emit site knows
 * at compile time (kind, fn, src_file, src_line) lies side by side, so the compiler stores it as
 * a half-word and a word of constants instead of three scattered stores.
 */
struct sim_event {
	uint32_t seq;	 /* position in the whole history */
	uint32_t op;	 /* index of the op that caused it */
	uint32_t pfn;	 /* block head, 0 when none */
	int32_t a, b, c; /* kind-specific: named in the kind's row of events.def */
	uint16_t cpu;
	uint8_t node;
	uint8_t zone; /* enum zone_type */
	uint8_t order;
	uint8_t mt;   /* migratetype */
	uint8_t kind; /* enum ev_kind */
	uint8_t fn;   /* enum ev_fn: the kernel function that made the decision */
	uint16_t src_file; /* the model's C file that emitted it: SRC_FILE_HASH of its path (base/src_loc.h) */
	uint16_t src_line; /* the line of that file's ev_emit call */
	/*
	 * Its CPU's trace_ctx when it was emitted (the flags column): TRACE_CTX_*, a byte held in a
	 * word, so that the record has no padding (its bytes are compared natively and in wasm) and
	 * ev_emit stores it once. In the record, not an array beside it: ev_emit then needs no
	 * second address (bench1m: about 10 wasm instructions an op fewer).
	 */
	uint32_t ctx;
};

/*
 * The event kinds, kernel functions and bad-page reasons the base owns (events.def); each
 * subsystem adds its kinds and functions (page_alloc/vocab.h). Ids are shared and stable.
 */
#define EV(id, NAME, name, marker, zone, pfn, order, mt, a, fa, b, fb, c, fc, doc) EV_##NAME = id,
#define EV_BITS(NAME, field, name, shift, width)
#define FN(id, NAME, name, file)
#define BAD(id, NAME, words)
/* the base's event kinds (struct sim_event.kind) */
enum ev_kind {
#include "base/events.def"
};
#undef EV
#undef FN
#define EV(id, NAME, name, marker, zone, pfn, order, mt, a, fa, b, fb, c, fc, doc)
#define FN(id, NAME, name, file) FN_##NAME = id,
/* the kernel functions the base's events name (struct sim_event.fn) */
enum ev_fn {
#include "base/events.def"
};
#undef FN
#undef BAD
#define FN(id, NAME, name, file)
#define BAD(id, NAME, words) BAD_##NAME = id,
/* why a bad-page event was reported (its a) */
enum bad_reason {
#include "base/events.def"
};
#undef EV
#undef EV_BITS
#undef FN
#undef BAD

/* ---- The machine description ------------------------------------------------------------------- */

/* one zone as configured */
struct zone_config {
	uint32_t start_pfn;
	uint32_t spanned;
	uint32_t present;
	uint32_t managed; /* frames materialised for this zone; 0 = unpopulated */
};

/* what sim_init builds: a machine, a profile and the tunables */
struct sim_config {
	uint8_t profile;	 /* enum profile_id */
	uint8_t nr_nodes;	 /* 1 .. MAX_NUMNODES */
	uint8_t cpus_per_node;	 /* 1 .. MAX_CPUS_PER_NODE */
	uint8_t max_order;	 /* MAX_PAGE_ORDER: 1 .. 10 */
	uint8_t pageblock_order; /* 0 .. max_order */
	uint8_t thp; /* THP configured (pcp THP lists, min_free_kbytes recommendation) */
	uint16_t max_memcgs; /* memory cgroups reclaim may hold (reclaim/memcg.c); 0: none, one root lruvec */
	int32_t min_free_kbytes;		    /* -1: the kernel's default rule */
	int32_t watermark_scale_factor;		    /* default 10 */
	int32_t watermark_boost_factor;		    /* default 15000 */
	int32_t percpu_pagelist_high_fraction;	    /* default 0 */
	int32_t lowmem_reserve_ratio[MAX_NR_ZONES]; /* default 256 256 32 0 0 */
	int32_t zone_reclaim_mode;		    /* default 0 */
	int32_t pcp_batch; /* 0: zone_batchsize(); else a teaching override of every zone's batch (not a kernel knob) */
	uint32_t swap_pages; /* swap space in pages (0: no swap, anonymous memory cannot be reclaimed) */
	uint32_t max_handles;	 /* handle table size */
	uint32_t event_capacity; /* events kept between sim_events_clear calls */
	uint32_t percpu_static_size; /* bytes of static percpu variables (__per_cpu_end - start); 0 = 185560, this machine's */
	uint32_t percpu_reserved_size; /* the reserved chunk's bytes (PERCPU_MODULE_RESERVE with modules); 0 = none */
	uint32_t percpu_peak_kib; /* the most percpu KiB per unit a workload holds at once: sizes the chunk table */
	uint32_t percpu_handles; /* percpu handle table entries (the highest percpu handle + 1); 0: no percpu request can be made */
	uint64_t seed;				      /* the random stream's seed */
	uint8_t distance[MAX_NUMNODES][MAX_NUMNODES]; /* 0 = default (10 local, 20 remote) */
	struct zone_config zones[MAX_NUMNODES][MAX_NR_ZONES];
};

/* ---- The state ---------------------------------------------------------------------------------- */

/* what a handle holds */
struct handle {
	uint32_t pfn;  /* PFN_NONE when empty; in a random stream's header slot: live blocks */
	uint8_t order; /* HANDLE_STREAM marks a random stream's header slot */
	uint8_t node;
	uint8_t zone;
	uint8_t gone; /* enum handle_gone: reclaim took the block; a free only lets go of the handle */
};

/* What reclaim did with a handle's block (struct handle.gone). */
enum handle_gone {
	HANDLE_HELD,	/* the handle holds its block, or nothing */
	HANDLE_DROPPED, /* page cache dropped: freeing the handle does nothing more */
	HANDLE_SWAPPED, /* anonymous memory swapped out: freeing the handle frees its swap slots */
};

/* vmstat event counters the model keeps (machine-wide) */
struct vm_events {
	uint64_t pgalloc[MAX_NR_ZONES];
	uint64_t pgfree;
	uint64_t allocstall[MAX_NR_ZONES];
	uint64_t alloc_fail;
	uint64_t pcp_hit, pcp_refill, pcp_drain_pages, pcp_bulk_frees;
	uint64_t extfrag, pageblock_claimed;
	uint64_t kswapd_wakeups;
	uint64_t bad_page;
	/* reclaim (reclaim/): the kernel's vm_event_item names */
	uint64_t pgscan_kswapd, pgscan_direct, pgsteal_kswapd, pgsteal_direct;
	uint64_t pgscan_anon, pgscan_file, pgsteal_anon, pgsteal_file;
	uint64_t pgrefill, pgactivate, pgdeactivate, pgrotated, pageoutrun, pswpout;
	uint64_t oom_kill; /* OOM decisions that would kill a task (the model kills nothing) */
	uint64_t zone_reclaim_success; /* PGSCAN_ZONE_RECLAIM_SUCCESS: a node reclaim freed 2^order */
	uint64_t zone_reclaim_failed; /* PGSCAN_ZONE_RECLAIM_FAILED: it scanned and fell short */
	uint64_t node_reclaim_calls; /* zone_reclaim/node_reclaim calls, whatever they returned (model) */
	uint64_t zlc_skips;	     /* zones the zonelist cache let a walk skip (model) */
};

/* the whole simulation: the header of the arena */
/*
 * A folio batch gathered one block per op before it is freed at once: a handle's
 * (OP_FREE_FOLIOS) or a captured block chosen as it joins (OP_FREE_FOLIOS_CAPTURED).
 */
struct folio_gather {
	uint32_t ref[31]; /* FOLIO_BATCH_SIZE: a handle, or a captured block's pfn, in join order */
	uint8_t captured[31]; /* FOLIO_HANDLE: ref[i] is a handle; else the captured block's order */
	uint8_t nr;	      /* blocks gathered; 0: none */
	uint16_t cpu;	      /* the CPU gathering them */
};

#define FOLIO_HANDLE 0xff /* folio_gather.captured[i] of a handle's block */

struct sim {
	uint32_t magic;	     /* SIM_MAGIC */
	uint32_t arena_size; /* bytes of the arena this state lives in */
	struct sim_config config;
	struct sim_profile profile;
	uint32_t nr_cpus;
	uint32_t nr_frames;
	uint32_t nr_pageblocks;
	uint32_t pageblock_nr_pages;
	uint32_t nr_pcp_zones; /* populated zones of the machine: pcp records per CPU (zone.pcp_slot) */
	int32_t min_free_kbytes;      /* in force */
	int32_t user_min_free_kbytes; /* last written by sysctl, -1 never */
	int32_t min_unmapped_ratio;   /* vm.min_unmapped_ratio (default 1) */
	int32_t min_slab_ratio;	      /* vm.min_slab_ratio (default 5) */
	int32_t user_zonelist_order; /* vm.numa_zonelist_order written: 0 default, 1 node, 2 zone */
	/* byte offsets from the arena start; the frames live in slabs (base/frames.h) */
	uint32_t block_frames_off; /* uint32_t per max-order block: where its frames are (frame_at), BLOCK_WHOLE */
	uint32_t block_heads_off; /* struct page per max-order block: the head of a whole block */
	uint32_t slab_blocks_off; /* uint32_t per slab: the block it holds, SLAB_NONE when free */
	uint32_t slab_free_off;	  /* uint32_t [nr_slabs]: stack of released slabs */
	uint32_t pool_off; /* struct page [nr_slabs << max_order]: the slabs' frames (after the fixed state) */
	uint32_t pool_owners_off; /* uint32_t [nr_slabs << max_order]: each slab frame's LRU owner */
	uint32_t nr_slabs;	  /* slabs in the pool: the budget of materialised blocks */
	uint32_t slab_high;	  /* slabs ever taken: those at and above it were never written */
	uint32_t nr_slab_free;	  /* released slabs on the stack */
	uint32_t slabs_used;	  /* slabs holding a block now */
	uint32_t slabs_peak;	  /* most slabs held at once (what a workload touched) */
	uint32_t whole_owner;	  /* HANDLE_NONE: the owner of every frame of a whole block */
	struct page
		whole_tail; /* what every non-head frame of a whole block reads as (a clean tail) */
	uint32_t pageblocks_off;   /* uint8_t tag per pageblock: migratetype | PB_ISOLATE */
	uint32_t frame_stamps_off; /* uint64_t per max-order block of pfns: see frame_changed */
	uint32_t frame_group_stamps_off; /* uint64_t per FRAME_STAMP_GROUP blocks: frame_changed */
	uint32_t nr_frame_stamps;	 /* max-order blocks from pfn 0 to the last managed frame */
	uint32_t pcp_off;		 /* struct per_cpu_pages [cpu][populated zone's pcp_slot] */
	uint32_t handles_off;		 /* struct handle [max_handles] */
	uint32_t events_off;		 /* struct sim_event [event_capacity] */
	int64_t nr_swap_free;		 /* free swap slots (pages) */
	uint32_t nr_events;		 /* events in the buffer */
	uint32_t events_dropped; /* events lost since the last clear because the buffer was full */
	uint32_t event_seq;	 /* next event's seq */
	uint32_t op_seq;	 /* index of the op being applied */
	uint64_t rng;		 /* xorshift state of the seeded random stream */
	uint64_t history; /* digest of every op applied, in order (a hash chain): see sim_apply */
	uint32_t nr_awake_workers; /* kernel threads with work between ops (each node's awake kswapd); 0 skips the op_done hooks */
	uint64_t now_ns;	  /* global virtual time (ticks) */
	uint32_t corrupt_pending; /* OP_CORRUPT armed: the next refill's first block is bad */
	uint32_t frozen; /* SIM_ECORRUPT (1) or, FROZEN_NOSPACE, SIM_ENOSPACE was reported: every later op is refused */
	struct folio_gather gather; /* OP_FREE_FOLIOS(_CAPTURED): a folio batch being gathered */
	struct vm_events ev;
	uint32_t nodes_off; /* struct node [config.nr_nodes]: sized by the machine, not MAX_NUMNODES */
	uint32_t cpus_off; /* struct cpu [nr_cpus] */
	uint32_t subsystem_off
		[MAX_SUBSYSTEMS]; /* arena offset of each subsystem's own region (0: none), in sim_subsystems order */
	char error[128]; /* last error in words (sim_check, frozen state) */
};

#define HANDLE_STREAM 0xff		    /* handle.order of a random stream's header slot */
#define SIM_MAGIC 0x42534331u		    /* "BSC1" */
#define HISTORY_EMPTY 0x6A09E667F3BCC909ULL /* sim.history before any op */
#define PB_ISOLATE 0x80	      /* pageblock tag bit: isolated (6.18 keeps the type beside it) */
#define SLAB_NONE 0xffffffffu /* a whole block's slab; a free slab's block */
#define BLOCK_WHOLE \
	0xffffffffu /* block_frames entry of a whole block (never a frame base: those are multiples of 8) */
#define FROZEN_NOSPACE 2 /* sim.frozen: the pool of slabs ran out (SIM_ENOSPACE) */

#endif
