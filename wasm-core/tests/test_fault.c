/*
 * test_fault.c: the fault subsystem against docs/kernel/fault/README.md (L.1-L.5) and the sources it cites: the classic
 * mmap_lock path ([4.16] do_page_fault, [6.18] lock_mmap), the posted SPF series ([v9, v11]
 * handle_speculative_fault, pte_map_lock) and per-VMA locks ([6.4] lock_vma_under_rcu with its
 * anon-only rule, [6.18] with __vmf_anon_prepare's trylock). Every op goes through sim_apply and
 * sim_check runs after each one, so the page tables are checked against the VMAs throughout.
 */
#include <stdlib.h>
#include <string.h>

#include "base/sim.h"
#include "base/state.h"
#include "boot.h"
#include "fault/check.h"
#include "fault/lane.h"
#include "fault/mm.h"
#include "fault/vocab.h"
#include "harness.h"
#include "owned_test_util.h"
#include "page_alloc/procfs.h"
#include "page_alloc/tracefmt.h"

/* A one-node machine of cpus CPUs and 64 MiB under profile. */
static struct sim *fault_boot_machine(int profile, int cpus)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	cfg.profile = (uint8_t)profile;
	cfg.cpus_per_node = (uint8_t)cpus;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 4096, 16384, 16384, 16384 };
	cfg.event_capacity = 1u << 16;
	return test_boot(&cfg);
}

/* Apply one op, clear the events first unless keep, and check the whole state after it. */
static int op(struct sim *s, int kind, int cpu, int mm, uint32_t page, int32_t pages,
	      uint32_t flags)
{
	struct sim_op o = { (uint8_t)kind, (uint8_t)mm, (uint16_t)cpu, flags, page, pages };
	int err;

	sim_events_clear(s);
	err = sim_apply(s, &o);
	CHECK_EQ(sim_check(s), SIM_OK);
	return err;
}

/* Events of kind in the buffer (of the last op). */
static int count(const struct sim *s, int kind)
{
	int n = 0;

	for (uint32_t i = 0; i < s->nr_events; i++)
		n += sim_events(s)[i].kind == kind;
	return n;
}

/* The last event of kind, or NULL. */
static const struct sim_event *last(const struct sim *s, int kind)
{
	const struct sim_event *e = NULL;

	for (uint32_t i = 0; i < s->nr_events; i++)
		if (sim_events(s)[i].kind == kind)
			e = &sim_events(s)[i];
	return e;
}

/* fault_done's path and result. */
static int done_path(const struct sim_event *e)
{
	return e ? (e->b & 15) : -1;
}

static int done_result(const struct sim_event *e)
{
	return e ? ((e->b >> 4) & 15) : -1;
}

#define RW (VM_READ | VM_WRITE)

/* n threads of process 0 on CPUs 0..n-1 */
static void threads(struct sim *s, int n)
{
	for (int cpu = 0; cpu < n; cpu++)
		CHECK_EQ(op(s, OP_THREAD, cpu, 0, 0, 0, 0), SIM_OK);
}

/* The k-th newest segment of cpu's lane (k = 1: the last one). */
static const struct fault_lane_seg *seg_back(const struct sim *s, int cpu, int k)
{
	const struct fault_cpu *fc = &fault_cpus(fault_state(s))[cpu];

	if ((uint64_t)k > fc->lane_count || k > FAULT_LANE_SEGS)
		return NULL;
	return &lane_ring(s, cpu)[(fc->lane_count - (uint64_t)k) % FAULT_LANE_SEGS];
}

/* The state of the k-th newest segment, or -1. */
static int seg_state(const struct sim *s, int cpu, int k)
{
	const struct fault_lane_seg *g = seg_back(s, cpu, k);

	return g ? g->state : -1;
}

TEST(fault_classic_path_takes_mmap_lock_for_every_fault)
{
	struct sim *s = fault_boot_machine(PROFILE_4_16, 2);
	struct fault_state *f;
	int64_t free_before;

	CHECK(s);
	if (!s)
		return;
	f = fault_state(s);
	threads(s, 2);
	free_before = sim_zone(s, 0, ZONE_NORMAL)->nr_free_pages;
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 100, 600, RW), SIM_OK);
	CHECK_EQ(count(s, EV_MMAP_LOCK_START_LOCKING), 1);
	CHECK_EQ(last(s, EV_MMAP_LOCK_START_LOCKING)->a, 1); /* write=true */
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, 100, 4, 1), SIM_OK);
	/* four faults, each mmap_read_lock: start_locking, acquire_returned, released (write=0) */
	CHECK_EQ(count(s, EV_PAGE_FAULT_USER), 4);
	CHECK_EQ(last(s, EV_PAGE_FAULT_USER)->b, X86_PF_USER | X86_PF_WRITE);
	CHECK_EQ(count(s, EV_MMAP_LOCK_START_LOCKING), 4);
	CHECK_EQ(count(s, EV_MMAP_LOCK_ACQUIRE_RETURNED), 4);
	CHECK_EQ(count(s, EV_MMAP_LOCK_RELEASED), 4);
	CHECK_EQ(done_path(last(s, EV_FAULT_DONE)), FAULT_PATH_MMAP_LOCK);
	/* one PTE table (GFP_PGTABLE_USER) and four GFP_HIGHUSER_MOVABLE | __GFP_ZERO pages */
	CHECK_EQ(count(s, EV_PTE_ALLOC), 1);
	CHECK_EQ(count(s, EV_MM_PAGE_ALLOC), 5);
	CHECK_EQ((uint32_t)last(s, EV_MM_PAGE_ALLOC)->a, GFP_HIGHUSER_MOVABLE | __GFP_ZERO);
	CHECK_EQ(f->ev.pgfault, 4);
	CHECK_EQ(f->ev.fault_mmap_reads, 4);
	/* touching mapped pages again: no fault */
	CHECK_EQ(op(s, OP_TOUCH, 0, 0, 100, 4, 1), SIM_OK);
	CHECK_EQ(count(s, EV_PAGE_FAULT_USER), 0);
	/* munmap gives every page and the PTE table back */
	CHECK_EQ(op(s, OP_MUNMAP, 0, 0, 100, 600, 0), SIM_OK);
	CHECK_EQ(count(s, EV_PTE_FREE), 1);
	CHECK_EQ(f->nr_vmas, 0);
	CHECK_EQ(f->nr_pte_tables, 0);
	CHECK_EQ(op(s, OP_TICK, 0, 0, 0, 1, 0), SIM_OK); /* nothing pending */
	(void)free_before;
	free(s);
}

TEST(fault_classic_faults_wait_for_a_writer_per_vma_faults_do_not)
{
	for (int per_vma = 0; per_vma <= 1; per_vma++) {
		struct sim *s = fault_boot_machine(per_vma ? PROFILE_6_18 : PROFILE_4_16, 2);
		uint64_t writer_end;
		const struct sim_event *e;
		CHECK(s);
		if (!s)
			return;
		threads(s, 2);
		CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 512, RW), SIM_OK);
		CHECK_EQ(op(s, OP_TOUCH, 1, 0, 0, 2, 1), SIM_OK); /* anon_vma and PTE table exist */
		CHECK_EQ(op(s, OP_MMAP, 0, 0, 1024, 512, RW), SIM_OK);
		CHECK_EQ(op(s, OP_TOUCH, 0, 0, 1024, 64, 1), SIM_OK);
		/* CPU 0 unmaps its 64 pages while CPU 1, behind on its clock, faults in VMA 0 */
		sim_cpus(s)[1].clock_ns = sim_cpus(s)[0].clock_ns;
		CHECK_EQ(op(s, OP_MUNMAP, 0, 0, 1024, 512, 0), SIM_OK);
		writer_end = sim_cpus(s)[0].clock_ns;
		CHECK_EQ(op(s, OP_TOUCH, 1, 0, 2, 1, 1), SIM_OK);
		e = last(s, EV_FAULT_DONE);
		CHECK(e != NULL);
		if (per_vma) {
			CHECK_EQ(done_path(e), FAULT_PATH_VMA_LOCK);
			CHECK_EQ(e->c, 0);
			CHECK_EQ(count(s, EV_MMAP_LOCK_START_LOCKING), 0);
			CHECK(sim_cpus(s)[1].clock_ns < writer_end);
		} else {
			CHECK_EQ(done_path(e), FAULT_PATH_MMAP_LOCK);
			CHECK(e->c > 0); /* it waited for the munmap's write hold */
			CHECK(sim_cpus(s)[1].clock_ns > writer_end);
		}
		free(s);
	}
}

TEST(fault_spf_first_fault_per_vma_and_pmd_needs_mmap_sem)
{
	struct sim *s = fault_boot_machine(PROFILE_4_16_SPF_V9, 2);
	struct fault_state *f;

	CHECK(s);
	if (!s)
		return;
	f = fault_state(s);
	threads(s, 2);
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 1024, RW), SIM_OK);
	/* the first fault: no anon_vma -> spf_vma_notsup, then mmap_sem */
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, 0, 1, 1), SIM_OK);
	CHECK_EQ(count(s, EV_SPF_VMA_NOTSUP), 1);
	CHECK_EQ(done_path(last(s, EV_FAULT_DONE)), FAULT_PATH_MMAP_LOCK);
	CHECK_EQ(last(s, EV_FAULT_DONE)->b >> 8 & 1, 1); /* fell back */
	/* then speculative within the PMD */
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, 1, 10, 1), SIM_OK);
	CHECK_EQ(count(s, EV_MMAP_LOCK_START_LOCKING), 0);
	CHECK_EQ(done_path(last(s, EV_FAULT_DONE)), FAULT_PATH_SPF);
	CHECK_EQ(f->ev.speculative_pgfault, 10);
	/* the next PMD has no PTE table: the walk does not allocate, notsup again */
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, 512, 1, 1), SIM_OK);
	CHECK_EQ(count(s, EV_SPF_VMA_NOTSUP), 1);
	CHECK_EQ(count(s, EV_PTE_ALLOC), 1);
	CHECK_EQ(f->ev.wasted_pages, 0);
	free(s);
}

TEST(fault_spf_skipped_for_single_threaded_processes)
{
	struct sim *s = fault_boot_machine(PROFILE_4_16_SPF_V9, 2);

	CHECK(s);
	if (!s)
		return;
	threads(s, 1);
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 64, RW), SIM_OK);
	CHECK_EQ(op(s, OP_TOUCH, 0, 0, 0, 8, 1), SIM_OK);
	CHECK_EQ(count(s, EV_MMAP_LOCK_START_LOCKING), 8);
	CHECK_EQ(count(s, EV_SPF_VMA_NOTSUP), 0);
	CHECK_EQ(fault_state(s)->ev.speculative_pgfault, 0);
	free(s);
}

/*
 * A writer grows VMA 0 (mmap merging into it) over [T, T + COST_MMAP]; a speculative fault on
 * another CPU whose section overlaps that write, applied after it, sees the sequence move at
 * pte_map_lock, after it allocated its page: spf_vma_changed, one page wasted, then the classic
 * path maps a fresh page.
 */
TEST(fault_spf_vma_change_after_allocation_wastes_one_page)
{
	struct sim *s = fault_boot_machine(PROFILE_4_16_SPF_V9, 3);
	struct fault_state *f;
	uint64_t t;
	const struct sim_event *w;

	CHECK(s);
	if (!s)
		return;
	f = fault_state(s);
	threads(s, 3);
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 256, RW), SIM_OK);
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, 0, 1, 1), SIM_OK);
	t = sim_cpus(s)[0].clock_ns > sim_cpus(s)[1].clock_ns ? sim_cpus(s)[0].clock_ns :
								sim_cpus(s)[1].clock_ns;
	sim_cpus(s)[0].clock_ns = sim_cpus(s)[1].clock_ns = sim_cpus(s)[2].clock_ns = t;
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 256, 256, RW), SIM_OK); /* merges: VMA 0 grows */
	CHECK_EQ(count(s, EV_VMA_CHANGE), 1);
	CHECK_EQ(f->nr_vmas, 1);
	/*
	 * CPU 1's fault began 600 ns before the write: its walk re-check (about 400 ns in) comes
	 * before the write begins, its pte_map_lock (after the page is allocated and zeroed) after.
	 */
	sim_cpus(s)[1].clock_ns = t - 600;
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, 5, 1, 1), SIM_OK);
	CHECK(count(s, EV_SPF_VMA_CHANGED) == 1);
	w = last(s, EV_FAULT_PAGE_WASTED);
	CHECK(w != NULL);
	if (w) {
		CHECK_EQ(w->b, 1);
		CHECK_EQ(w->c, 1); /* alone at that instant */
	}
	CHECK_EQ(count(s, EV_MM_PAGE_ALLOC), 2); /* the wasted page and the classic path's */
	CHECK_EQ(done_path(last(s, EV_FAULT_DONE)), FAULT_PATH_MMAP_LOCK);
	CHECK_EQ(done_result(last(s, EV_FAULT_DONE)), FAULT_MAPPED);
	CHECK_EQ(f->ev.wasted_pages, 1);
	/* CPU 2 aborts the same way over an overlapping interval: two pages at once */
	sim_cpus(s)[2].clock_ns = t - 500;
	CHECK_EQ(op(s, OP_TOUCH, 2, 0, 6, 1, 1), SIM_OK);
	w = last(s, EV_FAULT_PAGE_WASTED);
	CHECK(w && w->c == 2);
	CHECK_EQ(f->ev.wasted_at_once_max, 2);
	CHECK(f->ev.wasted_at_once_max <= s->nr_cpus - 1);
	free(s);
}

/* v9 aborts on a busy PTE lock (spf_pte_lock); v11 waits for it. */
TEST(fault_spf_busy_pte_lock_v9_aborts_v11_spins)
{
	for (int v11 = 0; v11 <= 1; v11++) {
		struct sim *s =
			fault_boot_machine(v11 ? PROFILE_4_17_SPF_V11 : PROFILE_4_16_SPF_V9, 2);
		struct pte_table *t;
		CHECK(s);
		if (!s)
			return;
		threads(s, 2);
		CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 64, RW), SIM_OK);
		CHECK_EQ(op(s, OP_TOUCH, 0, 0, 0, 1, 1), SIM_OK);
		t = &fault_state(s)->pte_tables[0];
		sim_cpus(s)[1].clock_ns =
			sim_cpus(s)[0].clock_ns; /* after the PTE table appeared */
		/* CPU 0 holds the PTE lock far into CPU 1's future (a long zap, say) */
		t->ptl.free_at_ns = sim_cpus(s)[1].clock_ns + 100000;
		CHECK_EQ(op(s, OP_TOUCH, 1, 0, 1, 1, 1), SIM_OK);
		if (v11) {
			CHECK_EQ(count(s, EV_SPF_PTE_LOCK), 0);
			CHECK_EQ(done_path(last(s, EV_FAULT_DONE)), FAULT_PATH_SPF);
			CHECK(last(s, EV_FAULT_DONE)->c > 0);
		} else {
			CHECK_EQ(count(s, EV_SPF_PTE_LOCK), 1);
			CHECK_EQ(count(s, EV_FAULT_PAGE_WASTED), 1);
			CHECK_EQ(done_path(last(s, EV_FAULT_DONE)), FAULT_PATH_MMAP_LOCK);
		}
		free(s);
	}
}

TEST(fault_per_vma_6_4_aborts_without_anon_vma_6_18_trylocks)
{
	for (int late = 0; late <= 1; late++) {
		struct sim *s = fault_boot_machine(late ? PROFILE_6_18 : PROFILE_6_6, 2);
		struct fault_state *f;
		CHECK(s);
		if (!s)
			return;
		f = fault_state(s);
		threads(s, 2);
		CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 64, RW), SIM_OK);
		CHECK_EQ(op(s, OP_TOUCH, 1, 0, 0, 1, 1), SIM_OK);
		if (late) {
			/* 6.18: handled under the VMA lock; anon_vma_prepare under mmap_read_trylock */
			CHECK_EQ(done_path(last(s, EV_FAULT_DONE)), FAULT_PATH_VMA_LOCK);
			CHECK_EQ(f->ev.vma_lock_success, 1);
			CHECK_EQ(f->ev.vma_lock_abort, 0);
			CHECK_EQ(last(s, EV_MMAP_LOCK_START_LOCKING)->fn, FN_MMAP_READ_TRYLOCK);
		} else {
			/* 6.4: lock_vma_under_rcu refuses it (vma_lock_abort), mmap_lock runs it */
			CHECK_EQ(done_path(last(s, EV_FAULT_DONE)), FAULT_PATH_MMAP_LOCK);
			CHECK_EQ(f->ev.vma_lock_abort, 1);
			CHECK_EQ(last(s, EV_MMAP_LOCK_START_LOCKING)->fn, FN_MMAP_READ_LOCK);
		}
		CHECK_EQ(f->ev.fault_mmap_reads, 1);
		/* later faults: no mmap_lock at all */
		CHECK_EQ(op(s, OP_TOUCH, 1, 0, 1, 20, 1), SIM_OK);
		CHECK_EQ(count(s, EV_MMAP_LOCK_START_LOCKING), 0);
		CHECK_EQ(f->ev.vma_lock_success, (uint64_t)(20 + late));
		/* a file VMA: 6.4 aborts, 6.18 handles it */
		CHECK_EQ(op(s, OP_MMAP, 0, 0, 128, 16, VM_READ | VMA_FILE), SIM_OK);
		CHECK_EQ(op(s, OP_TOUCH, 1, 0, 128, 1, 0), SIM_OK);
		CHECK_EQ(done_path(last(s, EV_FAULT_DONE)),
			 late ? FAULT_PATH_VMA_LOCK : FAULT_PATH_MMAP_LOCK);
		free(s);
	}
}

/*
 * 6.18: a munmap that splits VMA 0 write-locks it (vma_start_write) until mmap_write_downgrade;
 * a fault in VMA 0 whose clock falls inside that interval is refused (vma_lock_abort) and waits
 * on mmap_lock; one after it takes the VMA lock.
 */
TEST(fault_per_vma_write_locked_vma_aborts_then_mmap_lock)
{
	struct sim *s = fault_boot_machine(PROFILE_6_18, 2);
	struct fault_state *f;
	uint64_t t;

	CHECK(s);
	if (!s)
		return;
	f = fault_state(s);
	threads(s, 2);
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 512, RW), SIM_OK);
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, 0, 1, 1), SIM_OK);
	t = sim_cpus(s)[0].clock_ns > sim_cpus(s)[1].clock_ns ? sim_cpus(s)[0].clock_ns :
								sim_cpus(s)[1].clock_ns;
	sim_cpus(s)[0].clock_ns = sim_cpus(s)[1].clock_ns = t;
	CHECK_EQ(op(s, OP_MUNMAP, 0, 0, 256, 256, 0), SIM_OK); /* splits VMA 0 */
	CHECK(count(s, EV_VMA_START_WRITE) >= 1);
	sim_cpus(s)[1].clock_ns = t + 200;
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, 3, 1, 1), SIM_OK);
	CHECK_EQ(last(s, EV_VMA_LOCK)->b, VMA_LOCK_ABORT);
	CHECK_EQ(done_path(last(s, EV_FAULT_DONE)), FAULT_PATH_MMAP_LOCK);
	CHECK_EQ(f->ev.vma_lock_abort, 1);
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, 4, 1, 1), SIM_OK); /* now after the unlock */
	CHECK_EQ(last(s, EV_VMA_LOCK)->b, VMA_LOCK_SUCCESS);
	free(s);
}

/* A writer that finds a VMA read-locked by a fault later on the clocks waits for it. */
TEST(fault_per_vma_writer_waits_for_the_vma_reader)
{
	struct sim *s = fault_boot_machine(PROFILE_6_18, 2);

	CHECK(s);
	if (!s)
		return;
	threads(s, 2);
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 512, RW), SIM_OK);
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, 0, 1, 1), SIM_OK);
	sim_cpus(s)[1].clock_ns = sim_cpus(s)[0].clock_ns + 50000;
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, 1, 1, 1), SIM_OK);
	CHECK_EQ(op(s, OP_MPROTECT, 0, 0, 0, 512, VM_READ), SIM_OK);
	CHECK(last(s, EV_VMA_START_WRITE) && last(s, EV_VMA_START_WRITE)->b > 0);
	CHECK(fault_cpus(fault_state(s))[0].vma_wait_ns > 0);
	/* on CPU 0's lane the wait is cut out of its mprotect stretch */
	CHECK_EQ(seg_state(s, 0, 3), LANE_MM_WRITE);
	CHECK_EQ(seg_state(s, 0, 2), LANE_WAIT_VMA);
	CHECK_EQ(seg_state(s, 0, 1), LANE_MM_WRITE);
	free(s);
}

TEST(fault_mprotect_read_only_write_is_sigsegv)
{
	int profiles[] = { PROFILE_4_16, PROFILE_4_16_SPF_V9, PROFILE_6_6, PROFILE_6_18 };

	for (unsigned i = 0; i < sizeof profiles / sizeof *profiles; i++) {
		struct sim *s = fault_boot_machine(profiles[i], 2);
		CHECK(s);
		if (!s)
			return;
		threads(s, 2);
		CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 64, RW), SIM_OK);
		CHECK_EQ(op(s, OP_TOUCH, 1, 0, 0, 4, 1), SIM_OK);
		CHECK_EQ(op(s, OP_MPROTECT, 0, 0, 2, 10, VM_READ), SIM_OK);
		CHECK_EQ(fault_state(s)->nr_vmas, 3);		  /* split at both ends */
		CHECK_EQ(op(s, OP_TOUCH, 1, 0, 3, 1, 1), SIM_OK); /* mapped, but read-only */
		CHECK_EQ(done_result(last(s, EV_FAULT_DONE)), FAULT_SIGSEGV);
		CHECK_EQ(op(s, OP_TOUCH, 1, 0, 8, 1, 0), SIM_OK); /* a read is fine */
		CHECK_EQ(done_result(last(s, EV_FAULT_DONE)), FAULT_MAPPED);
		CHECK_EQ(op(s, OP_TOUCH, 1, 0, 100, 1, 0), SIM_OK); /* no VMA */
		CHECK_EQ(done_result(last(s, EV_FAULT_DONE)), FAULT_SIGSEGV);
		CHECK_EQ(fault_state(s)->ev.sigsegv, 2);
		free(s);
	}
}

TEST(fault_bad_ops_are_refused)
{
	struct sim *s = fault_boot_machine(PROFILE_6_18, 2);

	CHECK(s);
	if (!s)
		return;
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 64, RW), SIM_EINVAL); /* no thread on CPU 0 */
	CHECK_EQ(last(s, EV_FAULT_OP_REFUSED)->a, FAULT_REFUSE_NO_THREAD);
	threads(s, 1);
	CHECK_EQ(op(s, OP_THREAD, 0, 1, 0, 0, 0), SIM_EINVAL); /* CPU 0 already runs one */
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 64, RW), SIM_OK);
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 32, 64, RW), SIM_EINVAL);
	CHECK_EQ(last(s, EV_FAULT_OP_REFUSED)->a, FAULT_REFUSE_OVERLAP);
	CHECK_EQ(op(s, OP_MMAP, 0, 0, FAULT_VA_PAGES - 1, 2, RW), SIM_EINVAL);
	CHECK_EQ(op(s, OP_TOUCH, 0, 0, 0, FAULT_MAX_TOUCH + 1, 1), SIM_EINVAL);
	CHECK_EQ(op(s, OP_MPROTECT, 0, 0, 60, 10, VM_READ), SIM_EINVAL); /* a hole */
	CHECK_EQ(last(s, EV_FAULT_OP_REFUSED)->a, FAULT_REFUSE_NOT_MAPPED);
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 100, 4, 0x10000), SIM_EINVAL); /* unknown flag */
	CHECK_EQ(op(s, OP_TOUCH, 0, FAULT_MAX_MMS, 0, 1, 1), SIM_EINVAL);
	free(s);
}

/*
 * A machine of `profile` with two threads, a 64-page mapping on mm 0 and its first four pages
 * written by CPU 1 (one page table, four mapped pages); NULL if it did not boot.
 */
static struct sim *touched_machine(int profile)
{
	struct sim *s = fault_boot_machine(profile, 2);
	struct sim_op touch = { OP_TOUCH, 0, 1, 1, 0, 4 };

	CHECK(s);
	if (!s)
		return NULL;
	threads(s, 2);
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 64, RW), SIM_OK);
	CHECK_EQ(sim_apply(s, &touch), SIM_OK);
	return s;
}

/* The checker finds page tables that disagree with the VMAs, and locks left held. */
TEST(fault_checker_catches_corruption)
{
	struct sim *s = touched_machine(PROFILE_4_16_SPF_V9);
	struct fault_state *f;

	if (!s)
		return;
	f = fault_state(s);
	CHECK_EQ(sim_check(s), SIM_OK);
	/* a PTE moved beyond the VMA (a page mapped twice would first be an owned page too many) */
	f->pte_tables[0].pte[100] = f->pte_tables[0].pte[0];
	f->pte_tables[0].pte[0] = PTE_NONE;
	CHECK_EQ(sim_check(s), SIM_ECORRUPT);
	CHECK(strstr(s->error, "outside every VMA") != NULL);
	f->pte_tables[0].pte[0] = f->pte_tables[0].pte[100];
	f->pte_tables[0].pte[100] = PTE_NONE;
	CHECK_EQ(sim_check(s), SIM_OK);
	/* the same page mapped twice: one owned mark, two owners' records */
	f->pte_tables[0].pte[10] = f->pte_tables[0].pte[0];
	f->pte_tables[0].nr_present++;
	CHECK_EQ(sim_check(s), SIM_ECORRUPT);
	CHECK(strstr(s->error, "owned pages differ") != NULL);
	f->pte_tables[0].pte[10] = PTE_NONE;
	f->pte_tables[0].nr_present--;
	CHECK_EQ(sim_check(s), SIM_OK);
	/* an odd sequence count left behind */
	f->vmas[0].vm_sequence.sequence++;
	CHECK_EQ(sim_check(s), SIM_ECORRUPT);
	f->vmas[0].vm_sequence.sequence++;
	/* mmap_lock held between ops */
	f->mms[0].mmap_lock.readers = 1;
	CHECK_EQ(sim_check(s), SIM_ECORRUPT);
	f->mms[0].mmap_lock.readers = 0;
	/* a VMA list that loops */
	f->vmas[0].next = 0;
	CHECK_EQ(sim_check(s), SIM_ECORRUPT);
	f->vmas[0].next = VMA_NONE;
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

/* A raw free of a page table or of a mapped page is refused: only the zap and free_pgtables free them. */
TEST(fault_pages_refuse_a_raw_free)
{
	struct sim *s = touched_machine(PROFILE_6_18);
	struct fault_state *f;
	uint32_t table, page;

	if (!s)
		return;
	f = fault_state(s);
	table = f->pte_tables[0].pfn;
	page = f->pte_tables[0].pte[2];
	CHECK_EQ(fault_owned_pages(s), 5u); /* the table and its four pages */
	check_raw_free_refused_as_owned(s, table, 0);
	check_raw_free_refused_as_owned(s, page, 0);
	/* munmap zaps the pages and frees the table: the marks go with them */
	CHECK_EQ(op(s, OP_MUNMAP, 0, 0, 0, 64, 0), SIM_OK);
	CHECK_EQ(sim_check(s), SIM_OK);
	CHECK_EQ(fault_owned_pages(s), 0u);
	CHECK(!(frame_at(s, page)->flags & PAGEF_OWNED));
	free(s);
}

/* ---- the CPU lanes (fault/lane.h) ---------------------------------------------------------- */

/*
 * The scenario of fault_classic_faults_wait_for_a_writer_per_vma_faults_do_not on the lanes:
 * under 4.16 CPU 1's fault is cut in three (fault, waiting for mmap_lock for read until the
 * munmap's release and the wake-up, fault); under 6.18 it is one stretch under its VMA lock.
 */
TEST(fault_lanes_show_the_wait_for_mmap_lock)
{
	for (int per_vma = 0; per_vma <= 1; per_vma++) {
		struct sim *s = fault_boot_machine(per_vma ? PROFILE_6_18 : PROFILE_4_16, 2);
		const struct fault_lane_seg *g;
		uint64_t writer_end, fault_from;
		uint32_t first_seq;
		CHECK(s);
		if (!s)
			return;
		threads(s, 2);
		CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 512, RW), SIM_OK);
		CHECK_EQ(op(s, OP_TOUCH, 1, 0, 0, 2, 1), SIM_OK);
		CHECK_EQ(op(s, OP_MMAP, 0, 0, 1024, 512, RW), SIM_OK);
		CHECK_EQ(op(s, OP_TOUCH, 0, 0, 1024, 64, 1), SIM_OK);
		sim_cpus(s)[1].clock_ns = sim_cpus(s)[0].clock_ns;
		CHECK_EQ(op(s, OP_MUNMAP, 0, 0, 1024, 512, 0), SIM_OK);
		writer_end = sim_cpus(s)[0].clock_ns;
		CHECK_EQ(seg_state(s, 0, 1), LANE_MM_WRITE); /* the munmap, one stretch */
		g = seg_back(s, 0, 1);
		CHECK(g && g->to_ns == writer_end &&
		      g->op == s->op_seq - 1); /* the op just applied */
		fault_from = sim_cpus(s)[1].clock_ns;
		first_seq = s->event_seq;
		CHECK_EQ(op(s, OP_TOUCH, 1, 0, 2, 1, 1), SIM_OK);
		if (per_vma) {
			CHECK_EQ(seg_state(s, 1, 1), LANE_FAULT_VMA);
			g = seg_back(s, 1, 1);
			CHECK(g && g->from_ns == fault_from && g->to_ns == sim_cpus(s)[1].clock_ns);
			/* every event of the fault is inside it */
			CHECK(g && g->seq_from == first_seq && g->seq_to == s->event_seq);
		} else {
			CHECK_EQ(seg_state(s, 1, 3), LANE_FAULT_MMAP);
			CHECK_EQ(seg_state(s, 1, 2), LANE_WAIT_MMAP_READ);
			CHECK_EQ(seg_state(s, 1, 1), LANE_FAULT_MMAP);
			g = seg_back(s, 1, 2);
			/* from the ask to past the writer's release: the wait and the wake-up */
			CHECK(g && g->from_ns < writer_end && g->to_ns >= writer_end);
			CHECK(g && seg_back(s, 1, 3)->to_ns == g->from_ns &&
			      seg_back(s, 1, 1)->from_ns == g->to_ns);
			CHECK(seg_back(s, 1, 3)->from_ns == fault_from);
			CHECK(seg_back(s, 1, 3)->seq_from == first_seq &&
			      seg_back(s, 1, 1)->seq_to == s->event_seq);
		}
		free(s);
	}
}

/* SPF v9: the attempt that fell back is RETRY, the page it allocated WASTED, then the fault. */
TEST(fault_lanes_show_retries_and_wasted_pages)
{
	struct sim *s = fault_boot_machine(PROFILE_4_16_SPF_V9, 3);
	uint64_t t;

	CHECK(s);
	if (!s)
		return;
	threads(s, 3);
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 256, RW), SIM_OK);
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, 0, 1, 1), SIM_OK);
	t = sim_cpus(s)[0].clock_ns > sim_cpus(s)[1].clock_ns ? sim_cpus(s)[0].clock_ns :
								sim_cpus(s)[1].clock_ns;
	sim_cpus(s)[0].clock_ns = sim_cpus(s)[1].clock_ns = t;
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 256, 256, RW), SIM_OK);
	sim_cpus(s)[1].clock_ns =
		t - 600; /* as in fault_spf_vma_change_after_allocation_wastes_one_page */
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, 5, 1, 1), SIM_OK);
	CHECK_EQ(fault_state(s)->ev.wasted_pages, 1);
	/* then the classic path asks for mmap_lock at once and waits for CPU 0's mmap */
	CHECK_EQ(seg_state(s, 1, 4), LANE_RETRY);
	CHECK_EQ(seg_state(s, 1, 3), LANE_WASTED);
	CHECK_EQ(seg_state(s, 1, 2), LANE_WAIT_MMAP_READ);
	CHECK_EQ(seg_state(s, 1, 1), LANE_FAULT_MMAP);
	for (int k = 4; k > 1; k--)
		CHECK(seg_back(s, 1, k)->to_ns == seg_back(s, 1, k - 1)->from_ns);
	/* an undisturbed speculative fault is one SPF stretch */
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, 7, 1, 1), SIM_OK);
	CHECK_EQ(seg_state(s, 1, 1), LANE_FAULT_SPF);
	free(s);
}

/* The ring keeps the last FAULT_LANE_SEGS stretches, in order; user work is its own state. */
TEST(fault_lanes_ring_keeps_the_last_segments)
{
	struct sim *s = fault_boot_machine(PROFILE_6_18, 2);
	const struct fault_cpu *fc;

	CHECK(s);
	if (!s)
		return;
	threads(s, 2);
	CHECK_EQ(op(s, OP_MMAP, 1, 0, 0, 512, RW), SIM_OK);
	for (int i = 0; i < 50; i++) {
		CHECK_EQ(op(s, OP_TOUCH, 1, 0, (uint32_t)i, 1, 1), SIM_OK);
		CHECK_EQ(op(s, OP_WORK, 1, 0, 0, 1000, 0), SIM_OK);
	}
	fc = &fault_cpus(fault_state(s))[1];
	CHECK_EQ(fc->lane_count, 101);
	CHECK_EQ(seg_state(s, 1, 1), LANE_USER);
	CHECK_EQ(seg_back(s, 1, 1)->to_ns - seg_back(s, 1, 1)->from_ns, 1000);
	CHECK_EQ(seg_state(s, 1, 2), LANE_FAULT_VMA);
	CHECK(seg_back(s, 1, FAULT_LANE_SEGS) != NULL &&
	      seg_back(s, 1, FAULT_LANE_SEGS + 1) == NULL);
	for (int k = FAULT_LANE_SEGS; k > 1; k--)
		CHECK(seg_back(s, 1, k)->to_ns <= seg_back(s, 1, k - 1)->from_ns);
	/* the checker refuses an open lane and a segment of no state */
	fault_cpus(fault_state(s))[1].lane_state = LANE_USER;
	CHECK_EQ(sim_check(s), SIM_ECORRUPT);
	CHECK(strstr(s->error, "open between ops") != NULL);
	fault_cpus(fault_state(s))[1].lane_state = LANE_NONE;
	lane_ring(s, 1)[3].state = NR_LANE_STATES;
	CHECK_EQ(sim_check(s), SIM_ECORRUPT);
	lane_ring(s, 1)[3].state = LANE_USER;
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

/* Two threads under profile; CPU 0 maps pages 0..63, CPU 1 writes pages from..from+n-1. */
static struct sim *touched(int profile, uint32_t from, int32_t n)
{
	struct sim *s = fault_boot_machine(profile, 2);

	CHECK(s);
	if (!s)
		return NULL;
	threads(s, 2);
	CHECK_EQ(op(s, OP_MMAP, 0, 0, 0, 64, RW), SIM_OK);
	CHECK_EQ(op(s, OP_TOUCH, 1, 0, from, n, 1), SIM_OK);
	return s;
}

/* /proc/vmstat: pgfault, and vma_lock_* in the kernel's order under per-VMA locks. */
TEST(fault_vmstat_lines)
{
	struct sim *s = touched(PROFILE_6_18, 0, 3);
	char buf[8192];

	if (!s)
		return;
	CHECK(sim_proc_render(s, PROC_VMSTAT, buf, sizeof buf) < sizeof buf);
	CHECK(strstr(buf, "\npgfree ") != NULL);
	CHECK(strstr(buf, "\npgfault 3\npgmajfault 0\nvma_lock_success 3\nvma_lock_abort 0\n"
			  "vma_lock_retry 0\nvma_lock_miss 0\n") != NULL);
	CHECK(strstr(buf, "speculative_pgfault") == NULL);
	free(s);
}

/* Trace text in the kernel's formats: mmap_lock_* and page_fault_user. */
TEST(fault_trace_text_kernel_format)
{
	struct sim *s = touched(PROFILE_4_16, 2, 1);
	char buf[16384];

	if (!s)
		return;
	CHECK(sim_trace_render(s, 0, s->nr_events, buf, sizeof buf) < sizeof buf);
	CHECK(strstr(buf, ": page_fault_user: address=0x2000 ip=0x0 error_code=0x6\n") != NULL);
	CHECK(strstr(buf,
		     ": mmap_lock_start_locking: mm=0000000000000000 memcg_id=0 write=false\n") !=
	      NULL);
	CHECK(strstr(buf,
		     ": mmap_lock_acquire_returned: mm=0000000000000000 memcg_id=0 write=false "
		     "success=true\n") != NULL);
	CHECK(strstr(buf, ": mmap_lock_released: mm=0000000000000000 memcg_id=0 write=false\n") !=
	      NULL);
	free(s);
}
