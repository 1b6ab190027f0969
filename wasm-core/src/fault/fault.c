/*
 * fault.c: the three fault paths (fault.h), following arch/x86/mm/fault.c do_user_addr_fault
 * [4.16, 6.4, 6.18] and the posted SPF series' handle_speculative_fault [v9, v11]. docs/kernel/fault/README.md
 * (L.1-L.4) restates each; here is what the model keeps of them.
 *
 * Every fault ends in handle_pte_fault: find (or allocate) the PTE table, allocate and zero a
 * page (GFP_HIGHUSER_MOVABLE | __GFP_ZERO, through the per-CPU lists), take the PTE lock, set
 * the PTE. What differs is what protects the VMA while that happens:
 *
 *   mmap_lock   mmap_read_lock, find_vma, handle_mm_fault, mmap_read_unlock. A writer holding
 *               the lock (or queued for it) makes every fault of the process wait.
 *   SPF         no lock: snapshot the VMA's vm_sequence, check the VMA can be handled (anonymous
 *               with an anon_vma, a PTE table present), allocate the page, then pte_map_lock
 *               commits only if the sequence and the PMD did not change and the PTE lock is free
 *               (v9 aborts on a busy PTE lock, v11 tries again). An abort after the allocation
 *               frees the page unused (wasted) and the classic path allocates another.
 *   per-VMA     lock_vma_under_rcu: find the VMA and read-lock it unless a writer has marked it
 *               (vm_lock_seq == mm_lock_seq) or holds its lock; on failure (vma_lock_abort) or a
 *               handler asking to retry (vma_lock_retry) the classic path runs.
 *
 * Worked example (per-VMA, 6.18): thread A faults in VMA X at t = 10 us while thread W's
 * munmap of VMA Y holds mmap_lock for write over [9, 30] us: A never asks for mmap_lock, so it
 * does not wait; under the classic path A waits until 30 us.
 */
#include "base/event.h"
#include "base/lock.h"
#include "fault/cost.h"
#include "fault/fault.h"
#include "fault/lane.h"
#include "fault/mmap_lock.h"
#include "fault/pgtable.h"
#include "fault/vma.h"
#include "fault/vocab.h"
#include "page_alloc/page_alloc.h"

/* how a handler attempt ended */
enum attempt { DONE, RETRY };

/* one fault in progress */
struct fault_ctx {
	int mm, cpu, write;
	uint32_t page;
	int vma;	  /* the VMA found, -1 none */
	int result;	  /* enum fault_result once DONE */
	uint32_t pfn;	  /* the page mapped */
	uint64_t wait_ns; /* waited on locks */
};

/* A fault's address as the trace prints it: bytes inside the window. */
static int32_t address(const struct fault_ctx *c)
{
	return (int32_t)(c->page << 12);
}

/* access_error: the VMA's flags do not allow this access. */
static int access_error(const struct vm_area *v, int write)
{
	return write ? !(v->vm_flags & VM_WRITE) : !(v->vm_flags & (VM_READ | VM_EXEC));
}

/* The most wasted pages allocated at one instant, counting a new interval [from, to] on cpu. */
static uint64_t waste_at_once(struct sim *s, int cpu, uint64_t from, uint64_t to)
{
	struct fault_state *f = fault_state(s);
	struct fault_cpu *fc = &fault_cpus(f)[cpu];
	uint64_t best = 0;

	fc->waste_from_ns[fc->waste_next] = from;
	fc->waste_to_ns[fc->waste_next] = to;
	fc->waste_next = (uint8_t)((fc->waste_next + 1) % FAULT_WASTE_RING);
	/*
	 * The most intervals covering one instant is reached at the start of one of them, and only
	 * instants inside the new interval can have grown: try its start and every start inside it.
	 */
	for (uint32_t pc = 0; pc < s->nr_cpus; pc++) {
		for (int pi = 0; pi < FAULT_WASTE_RING; pi++) {
			uint64_t p = fault_cpus(f)[pc].waste_from_ns[pi], n = 0;
			if (fault_cpus(f)[pc].waste_to_ns[pi] == 0 || p < from || p > to)
				continue;
			for (uint32_t qc = 0; qc < s->nr_cpus; qc++)
				for (int qi = 0; qi < FAULT_WASTE_RING; qi++)
					n += fault_cpus(f)[qc].waste_to_ns[qi] != 0 &&
					     fault_cpus(f)[qc].waste_from_ns[qi] <= p &&
					     p < fault_cpus(f)[qc].waste_to_ns[qi];
			if (n > best)
				best = n;
		}
	}
	return best;
}

/* A page allocated at alloc_ns (its first event alloc_seq) for this fault goes back unused. */
static void waste_page(struct sim *s, struct fault_ctx *c, uint64_t alloc_ns, uint32_t alloc_seq,
		       int cause)
{
	struct fault_state *f = fault_state(s);
	uint64_t at_once;

	fault_page_free(s, c->pfn, c->cpu);
	at_once = waste_at_once(s, c->cpu, alloc_ns, sim_cpus(s)[c->cpu].clock_ns);
	f->ev.wasted_pages++;
	fault_cpus(f)[c->cpu].wasted_pages++;
	if (at_once > f->ev.wasted_at_once_max)
		f->ev.wasted_at_once_max = at_once;
	ev_emit(s, EV_FAULT_PAGE_WASTED, FN_PTE_MAP_LOCK, c->cpu, NULL, c->pfn, 0, 0, address(c),
		cause, (int32_t)at_once);
	lane_interval(s, c->cpu, alloc_ns, alloc_seq, LANE_WASTED);
	c->pfn = 0;
}

/* Allocate and zero the new page (do_anonymous_page's folio); PFN_NONE on failure. */
static uint32_t fault_alloc_page(struct sim *s, const struct fault_ctx *c, const struct vm_area *v)
{
	int zone;
	int file = !!(v->vm_flags & VMA_FILE);
	/* a page-cache page is read from its file, not zeroed (the model keeps no page cache) */
	uint32_t pfn =
		page_alloc_owned(s, c->cpu, GFP_HIGHUSER_MOVABLE | (file ? 0 : __GFP_ZERO), &zone);

	if (pfn != PFN_NONE && !file)
		cpu_charge(s, c->cpu, COST_PAGE_ZERO_NS);
	return pfn;
}

/* Set the PTE under the held PTE lock: the fault is done. */
static void set_pte(struct sim *s, struct fault_ctx *c, struct pte_table *t, uint32_t pfn)
{
	t->pte[c->page % PTRS_PER_PTE] = pfn;
	t->nr_present++;
	fault_state(s)->vmas[c->vma].faults++;
	cpu_charge(s, c->cpu, COST_PTE_SET_NS);
	c->pfn = pfn;
	c->result = FAULT_MAPPED;
}

/*
 * handle_mm_fault -> handle_pte_fault -> do_anonymous_page under mmap_lock or a VMA lock.
 * vma_locked: under the per-VMA lock, where a VMA without anon_vma must trylock mmap_lock
 * (__vmf_anon_prepare) and retries the fault under mmap_lock if that fails.
 */
static enum attempt handle_mm_fault(struct sim *s, struct fault_ctx *c, int vma_locked)
{
	struct fault_state *f = fault_state(s);
	struct vm_area *v = &f->vmas[c->vma];
	struct pte_table *t = pte_table_of(f, c->mm, c->page);
	uint32_t pfn;

	if (!t && !(t = pte_alloc(s, c->mm, c->page, c->cpu))) {
		c->result = FAULT_OOM;
		return DONE;
	}
	if (t->pte[c->page % PTRS_PER_PTE] != PTE_NONE) {
		c->result = FAULT_SPURIOUS;
		return DONE;
	}
	if (!(v->vm_flags & VMA_FILE) && !v->anon_vma) {
		if (vma_locked) {
			if (!mmap_read_trylock(s, c->mm, c->cpu))
				return RETRY;
			f->ev.fault_mmap_reads++;
			cpu_charge(s, c->cpu, COST_ANON_VMA_PREPARE_NS);
			v->anon_vma = 1;
			mmap_read_unlock(s, c->mm, c->cpu);
		} else {
			cpu_charge(s, c->cpu, COST_ANON_VMA_PREPARE_NS);
			v->anon_vma = 1;
		}
	}
	pfn = fault_alloc_page(s, c, v);
	if (pfn == PFN_NONE) {
		c->result = FAULT_OOM;
		return DONE;
	}
	spin_lock(s, &t->ptl, c->cpu);
	set_pte(s, c, t, pfn);
	spin_unlock(s, &t->ptl, c->cpu);
	return DONE;
}

/* The classic path: everything under mmap_lock for read. */
static void classic_fault(struct sim *s, struct fault_ctx *c)
{
	struct fault_state *f = fault_state(s);

	c->wait_ns += mmap_read_lock(s, c->mm, c->cpu);
	f->ev.fault_mmap_reads++;
	cpu_charge(s, c->cpu, COST_VMA_WALK_NS);
	c->vma = vma_lookup(f, c->mm, c->page);
	if (c->vma < 0 || access_error(&f->vmas[c->vma], c->write))
		c->result = FAULT_SIGSEGV;
	else
		handle_mm_fault(s, c, 0);
	mmap_read_unlock(s, c->mm, c->cpu);
}

/* ---- speculative page faults (posted series v9, v11) -------------------------------------- */

/* Trace an SPF abort (pagefault:spf_*) and count it. */
static enum attempt spf_abort(struct sim *s, struct fault_ctx *c, int kind, int fn)
{
	struct fault_state *f = fault_state(s);
	const struct vm_area *v = c->vma >= 0 ? &f->vmas[c->vma] : NULL;

	f->ev.spf_abort[kind - EV_SPF_VMA_CHANGED]++;
	ev_emit(s, kind, fn, c->cpu, NULL, 0, 0, 0, address(c),
		v ? (int32_t)(v->vm_start << 12) : 0, v ? (int32_t)(v->vm_end << 12) : 0);
	return RETRY;
}

/* __handle_speculative_fault: DONE with the page mapped (or SIGSEGV), or RETRY under mmap_sem. */
static enum attempt spf_fault(struct sim *s, struct fault_ctx *c)
{
	struct fault_state *f = fault_state(s);
	struct mm *m = &f->mms[c->mm];
	struct seqcount_read seen;
	struct vm_area *v;
	struct pte_table *t;
	uint64_t alloc_ns;
	uint32_t alloc_seq;

	cpu_charge(s, c->cpu, COST_SPF_BOOKKEEPING_NS);
	/* get_vma: the lookup under the mm_rb rwlock (spinning out a tree update), then a reference */
	if (sim_cpus(s)[c->cpu].clock_ns >= m->rb_write_from_ns &&
	    sim_cpus(s)[c->cpu].clock_ns < m->rb_write_until_ns) {
		uint64_t spin = m->rb_write_until_ns - sim_cpus(s)[c->cpu].clock_ns;
		m->rb_lock_spins++;
		m->rb_lock_spin_ns += spin;
		c->wait_ns += spin;
		cpu_charge(s, c->cpu, spin);
	}
	cpu_charge(s, c->cpu, COST_VMA_WALK_NS);
	c->vma = vma_lookup(f, c->mm, c->page);
	if (c->vma < 0)
		return RETRY; /* no VMA: the classic path decides (SIGSEGV or stack expansion) */
	v = &f->vmas[c->vma];
	seen = read_seqcount_begin(s, &v->vm_sequence, c->cpu);
	if (seen.sequence & 1)
		return spf_abort(s, c, EV_SPF_VMA_CHANGED, FN_HANDLE_SPECULATIVE_FAULT);
	/* vm_ops (file and special mappings), no anon_vma yet, stack VMAs: not handled (v10 code) */
	if ((v->vm_flags & (VMA_FILE | VM_GROWSDOWN)) || !v->anon_vma)
		return spf_abort(s, c, EV_SPF_VMA_NOTSUP, FN_HANDLE_SPECULATIVE_FAULT);
	if (access_error(v, c->write)) {
		spf_abort(s, c, EV_SPF_VMA_ACCESS, FN_HANDLE_SPECULATIVE_FAULT);
		c->result = FAULT_SIGSEGV;
		return DONE;
	}
	/* the walk does not allocate: at least one fault per PMD takes mmap_sem */
	t = pte_table_of(f, c->mm, c->page);
	if (!t)
		return spf_abort(s, c, EV_SPF_VMA_NOTSUP, FN_HANDLE_SPECULATIVE_FAULT);
	if (read_seqcount_retry(s, &v->vm_sequence, c->cpu, seen))
		return spf_abort(s, c, EV_SPF_VMA_CHANGED, FN_HANDLE_SPECULATIVE_FAULT);
	if (t->pte[c->page % PTRS_PER_PTE] != PTE_NONE) {
		c->result = FAULT_SPURIOUS;
		return DONE;
	}
	alloc_ns = sim_cpus(s)[c->cpu].clock_ns;
	alloc_seq = s->event_seq;
	c->pfn = fault_alloc_page(s, c, v);
	if (c->pfn == PFN_NONE) {
		c->pfn = 0;
		return RETRY; /* the classic path reports the OOM */
	}
	/* pte_map_lock: the commit point, with IRQs off */
	if (read_seqcount_retry(s, &v->vm_sequence, c->cpu, seen)) {
		waste_page(s, c, alloc_ns, alloc_seq, 1);
		return spf_abort(s, c, EV_SPF_VMA_CHANGED, FN_PTE_MAP_LOCK);
	}
	/* the PMD changed inside the speculative section on the clocks (a collapse, a free) */
	if (pte_table_of(f, c->mm, c->page) != t ||
	    (t->installed_ns >= seen.at_ns && t->installed_ns <= sim_cpus(s)[c->cpu].clock_ns)) {
		waste_page(s, c, alloc_ns, alloc_seq, 1);
		return spf_abort(s, c, EV_SPF_PMD_CHANGED, FN_PTE_MAP_LOCK);
	}
	if (!spin_trylock(s, &t->ptl, c->cpu)) {
		if (!s->profile.spf_pte_trylock_spins) {
			waste_page(s, c, alloc_ns, alloc_seq, 1);
			return spf_abort(s, c, EV_SPF_PTE_LOCK, FN_PTE_MAP_LOCK);
		}
		/* v11: IRQs back on and try again until the holder lets go */
		spin_lock(s, &t->ptl, c->cpu);
		c->wait_ns += t->ptl.last_wait_ns;
	}
	set_pte(s, c, t, c->pfn);
	spin_unlock(s, &t->ptl, c->cpu);
	f->ev.speculative_pgfault++;
	return DONE;
}

/* ---- per-VMA locks (6.4+) ----------------------------------------------------------------- */

/* Count a vma_lock_* outcome and trace it. */
static void vma_lock_stat(struct sim *s, struct fault_ctx *c, int outcome)
{
	struct fault_events *ev = &fault_state(s)->ev;

	switch (outcome) {
	case VMA_LOCK_SUCCESS:
		ev->vma_lock_success++;
		break;
	case VMA_LOCK_ABORT:
		ev->vma_lock_abort++;
		break;
	case VMA_LOCK_RETRY:
		ev->vma_lock_retry++;
		break;
	default:
		ev->vma_lock_miss++;
		break;
	}
	ev_emit(s, EV_VMA_LOCK, FN_LOCK_VMA_UNDER_RCU, c->cpu, NULL, 0, 0, 0, address(c), outcome,
		c->vma);
}

/*
 * vma_start_read: refuse a VMA a writer has marked at this instant (vm_lock_seq ==
 * mm_lock_seq, here: the clock inside its write-locked interval) or whose lock a writer holds;
 * never sleeps. The 6.15+ refcount form refuses the same cases (a writer's VMA_LOCK_OFFSET).
 */
static int vma_start_read(struct sim *s, struct vm_area *v, int cpu)
{
	uint64_t now = sim_cpus(s)[cpu].clock_ns;

	if (now >= v->write_locked_from_ns && now < v->write_locked_until_ns)
		return 0;
	if (!down_read_trylock(s, &v->vm_lock, cpu))
		return 0;
	v->vm_refcnt++;
	return 1;
}

/* vma_end_read. */
static void vma_end_read(struct sim *s, struct vm_area *v, int cpu)
{
	up_read(s, &v->vm_lock, cpu);
	v->vm_refcnt--;
}

/* lock_vma_under_rcu: the VMA read-locked, or NULL (counted vma_lock_abort). */
static struct vm_area *lock_vma_under_rcu(struct sim *s, struct fault_ctx *c)
{
	struct fault_state *f = fault_state(s);
	struct vm_area *v;

	/* under RCU: the maple-tree walk. A detached VMA (a miss) cannot be found here: ops are
	 * applied whole, so munmap has unlinked it before this walk (model notes) */
	cpu_charge(s, c->cpu, COST_VMA_WALK_NS);
	c->vma = vma_lookup(f, c->mm, c->page);
	if (c->vma < 0) {
		vma_lock_stat(s, c, VMA_LOCK_ABORT);
		return NULL;
	}
	v = &f->vmas[c->vma];
	/* 6.4: only anonymous VMAs that already have an anon_vma */
	if (s->profile.vma_lock_anon_only && ((v->vm_flags & VMA_FILE) || !v->anon_vma)) {
		vma_lock_stat(s, c, VMA_LOCK_ABORT);
		return NULL;
	}
	if (!vma_start_read(s, v, c->cpu)) {
		vma_lock_stat(s, c, VMA_LOCK_ABORT);
		return NULL;
	}
	return v;
}

/* The per-VMA attempt of do_user_addr_fault: DONE, or RETRY under mmap_lock. */
static enum attempt vma_lock_fault(struct sim *s, struct fault_ctx *c)
{
	struct vm_area *v = lock_vma_under_rcu(s, c);
	enum attempt r;

	if (!v)
		return RETRY;
	if (access_error(v, c->write)) {
		/* 6.4: drop the VMA lock and let the mmap_lock path report it */
		vma_end_read(s, v, c->cpu);
		return RETRY;
	}
	r = handle_mm_fault(s, c, 1);
	vma_end_read(s, v, c->cpu);
	vma_lock_stat(s, c, r == DONE ? VMA_LOCK_SUCCESS : VMA_LOCK_RETRY);
	return r;
}

/* ---- do_user_addr_fault ------------------------------------------------------------------- */

void do_user_addr_fault(struct sim *s, int mm, int cpu, uint32_t page, int write)
{
	struct fault_state *f = fault_state(s);
	struct fault_cpu *fc = &fault_cpus(f)[cpu];
	struct fault_ctx c = { mm, cpu, write, page, -1, FAULT_MAPPED, 0, 0 };
	uint64_t start = sim_cpus(s)[cpu].clock_ns;
	enum attempt r = RETRY;
	int path = FAULT_PATH_MMAP_LOCK, fell_back = 0;
	int spf = s->profile.fault_lock == FAULT_LOCK_SPF && f->mms[mm].mm_users > 1;

	lane_open(s, cpu,
		  s->profile.fault_lock == FAULT_LOCK_PER_VMA ? LANE_FAULT_VMA :
		  spf					      ? LANE_FAULT_SPF :
								LANE_FAULT_MMAP);
	ev_emit(s, EV_PAGE_FAULT_USER, FN_DO_USER_ADDR_FAULT, cpu, NULL, 0, 0, 0,
		(int32_t)(page << 12), X86_PF_USER | (write ? X86_PF_WRITE : 0), mm);
	f->ev.pgfault++;
	cpu_charge(s, cpu, COST_FAULT_ENTRY_NS);
	switch (s->profile.fault_lock) {
	case FAULT_LOCK_PER_VMA:
		path = FAULT_PATH_VMA_LOCK;
		r = vma_lock_fault(s, &c);
		break;
	case FAULT_LOCK_SPF:
		/* single-threaded processes skip the speculative path (mm_users == 1) */
		if (spf) {
			path = FAULT_PATH_SPF;
			r = spf_fault(s, &c);
		}
		break;
	default:
		break;
	}
	if (r == RETRY) {
		if (path != FAULT_PATH_MMAP_LOCK) {
			fell_back = 1;
			fc->retry_ns += sim_cpus(s)[cpu].clock_ns - start - COST_FAULT_ENTRY_NS;
			lane_fell_back(s, cpu, start);
			lane_open(s, cpu, LANE_FAULT_MMAP);
		}
		path = FAULT_PATH_MMAP_LOCK;
		c.pfn = 0;
		c.result = FAULT_MAPPED;
		classic_fault(s, &c);
	}
	if (c.result == FAULT_SIGSEGV)
		f->ev.sigsegv++;
	f->ev.by_path[path]++;
	fc->faults++;
	fc->fault_ns += sim_cpus(s)[cpu].clock_ns - start;
	ev_emit(s, EV_FAULT_DONE, FN_DO_USER_ADDR_FAULT, cpu, NULL,
		c.result == FAULT_MAPPED ? c.pfn : 0, 0, 0, (int32_t)(page << 12),
		path | c.result << 4 | fell_back << 8,
		(int32_t)(c.wait_ns > INT32_MAX ? INT32_MAX : c.wait_ns));
	lane_close(s, cpu);
}
