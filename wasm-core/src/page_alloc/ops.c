/*
 * ops.c: the page allocator's ops (alloc, free, drain, CPU hotplug, sysctls, bad-page injection,
 * random streams) and its hooks for the base (base/subsystem.h). Every op is validated before it
 * touches the state, so bad input gets an error code and a "Bad page state"-style event and
 * changes nothing else. Handles name the blocks a workload holds; random streams keep their live
 * handles packed after a header slot.
 */
#include "base/event.h"
#include "base/fast_path.h"
#include "base/state.h"
#include "base/subsystem.h"
#include "page_alloc/capture.h"
#include "page_alloc/gfp.h"
#include "page_alloc/numa.h"
#include "page_alloc/page_alloc.h"
#include "page_alloc/pcp.h"
#include "page_alloc/reclaim_hook.h"
#include "page_alloc/vocab.h"
#include "page_alloc/vmstat.h"
#include "page_alloc/watermark.h"
#include "page_alloc/zonelist.h"

/* The zone holding pfn, or NULL. */
static struct zone *pfn_zone(struct sim *s, uint32_t pfn)
{
	int index = pfn_to_zone_index(s, pfn);
	return index < 0 ? NULL : &sim_nodes(s)[index / MAX_NR_ZONES].zones[index % MAX_NR_ZONES];
}

/* Why freeing (pfn, order) would be wrong, or 0 if it is an allocated block of that order. */
static int free_check(struct sim *s, struct zone *z, uint32_t pfn, int order)
{
	const struct page *page;

	if (!z)
		return BAD_PFN_RANGE;
	if (order > s->config.max_order)
		return BAD_ORDER_RANGE;
	page = zone_page(s, z, pfn);
	switch (page->state) {
	case PG_ALLOCATED:
		/* a percpu chunk's page, a page table or a mapped page: its owner frees it */
		if (page->flags & PAGEF_OWNED)
			return BAD_OWNED;
		return page->order == order ? 0 : BAD_WRONG_ORDER;
	case PG_BUDDY:
	case PG_PCP:
		return BAD_ALREADY_FREE;
	case PG_CORRUPT:
		return BAD_HWPOISON;
	default:
		return BAD_NOT_HEAD;
	}
}

/* Allocate into handle h; SIM_ENOMEM when the allocator fails. */
static FAST_PATH int do_alloc(struct sim *s, int cpu, uint32_t gfp, int order, uint32_t h)
{
	struct handle *hd = &sim_handles(s)[h];
	int zone_index = -1;
	uint32_t pfn = page_alloc_fast(s, cpu, gfp, order, &zone_index);

	if (pfn == PFN_NONE)
		return s->frozen ? SIM_ECORRUPT : SIM_ENOMEM;
	hd->pfn = pfn;
	hd->gone = HANDLE_HELD;
	hd->order = (uint8_t)order;
	hd->node = (uint8_t)(zone_index / MAX_NR_ZONES);
	hd->zone = (uint8_t)(zone_index % MAX_NR_ZONES);
	return SIM_OK;
}

/* Free the block of handle h (already validated) and empty the handle. */
static FAST_PATH void do_free_handle(struct sim *s, int cpu, uint32_t h)
{
	struct handle *hd = &sim_handles(s)[h];
	page_free_fast(s, cpu, &sim_nodes(s)[hd->node].zones[hd->zone], hd->pfn, hd->order);
	hd->pfn = PFN_NONE;
}

/* OP_FREE: free the block a handle holds. */
static int op_free(struct sim *s, const struct sim_op *op)
{
	struct handle *hd;

	if (op->handle >= s->config.max_handles)
		return sim_report_bad(s, op->cpu, 0, 0, BAD_HANDLE, SIM_EBADHANDLE);
	hd = &sim_handles(s)[op->handle];
	if (hd->pfn == PFN_NONE && hd->gone != HANDLE_HELD && hd->order != HANDLE_STREAM) {
		/* reclaim took the block: the page cache is gone already, swapped pages free their slots */
		if (hd->gone == HANDLE_SWAPPED)
			s->nr_swap_free += (int64_t)1 << hd->order;
		hd->gone = HANDLE_HELD;
		return SIM_OK;
	}
	if (hd->pfn == PFN_NONE || hd->order == HANDLE_STREAM)
		return sim_report_bad(s, op->cpu, 0, 0, BAD_HANDLE, SIM_EBADHANDLE);
	if (op->arg == FREE_PCP_LOCKED) {
		page_free_pcp_locked(s, op->cpu, &sim_nodes(s)[hd->node].zones[hd->zone], hd->pfn,
				     hd->order);
		hd->pfn = PFN_NONE;
		return SIM_OK;
	}
	do_free_handle(s, op->cpu, op->handle);
	return SIM_OK;
}

/*
 * OP_FREE_BATCH: the handles handle .. handle + arg - 1 freed as one folio batch. Every handle is
 * checked before anything is freed, so a bad one frees nothing.
 */
static int op_free_batch(struct sim *s, const struct sim_op *op)
{
	struct page_batch batch;

	if (op->arg < 1 || op->arg > FOLIO_BATCH_SIZE || op->handle >= s->config.max_handles ||
	    (uint64_t)op->handle + (uint32_t)op->arg > s->config.max_handles)
		return sim_report_bad(s, op->cpu, 0, 0, BAD_HANDLE, SIM_EBADHANDLE);
	batch.nr = 0;
	for (uint32_t h = op->handle; h < op->handle + (uint32_t)op->arg; h++) {
		struct handle *hd = &sim_handles(s)[h];

		if (hd->pfn == PFN_NONE || hd->order == HANDLE_STREAM)
			return sim_report_bad(s, op->cpu, 0, 0, BAD_HANDLE, SIM_EBADHANDLE);
		batch.zone[batch.nr] = &sim_nodes(s)[hd->node].zones[hd->zone];
		batch.pfn[batch.nr] = hd->pfn;
		batch.order[batch.nr] = hd->order;
		batch.nr++;
	}
	page_free_batch(s, op->cpu, &batch);
	for (uint32_t h = op->handle; h < op->handle + (uint32_t)op->arg; h++)
		sim_handles(s)[h].pfn = PFN_NONE;
	return SIM_OK;
}

/* base/types.h sizes the gathered batch without page_alloc.h's FOLIO_BATCH_SIZE */
_Static_assert(sizeof(((struct folio_gather *)0)->ref) / sizeof(uint32_t) == FOLIO_BATCH_SIZE &&
		       sizeof(((struct folio_gather *)0)->captured) == FOLIO_BATCH_SIZE,
	       "struct folio_gather holds one folio batch");

/* Whether handle h holds a block a free may take (not a stream's header, not emptied). */
static int handle_live(const struct sim *s, uint32_t h)
{
	const struct handle *hd = &sim_handles(s)[h];

	return h < s->config.max_handles && hd->pfn != PFN_NONE && hd->order != HANDLE_STREAM;
}

/* Whether op may add a block to the folio batch: arg 0 or 1, no other CPU gathering, room left. */
static int gather_open(const struct sim *s, const struct sim_op *op)
{
	const struct folio_gather *g = &s->gather;

	return op->arg >= 0 && op->arg <= 1 && !(g->nr && g->cpu != op->cpu) &&
	       g->nr < FOLIO_BATCH_SIZE;
}

/* Add a block to the CPU's folio batch (gather_open said there is room). */
static void gather_add(struct sim *s, int cpu, uint32_t ref, uint8_t captured)
{
	struct folio_gather *g = &s->gather;

	g->ref[g->nr] = ref;
	g->captured[g->nr] = captured;
	g->nr++;
	g->cpu = (uint16_t)cpu;
}

/*
 * Why gathered block i cannot be freed now (a BAD_* reason; 0: it can), its zone, head and order
 * in *b: a handle must still hold its block; a captured block must still be the captured in-use
 * block of its order that joined (a raw free, or a capture op, may have taken it since).
 */
static int gathered_bad(struct sim *s, uint32_t i, struct page_batch *b)
{
	const struct folio_gather *g = &s->gather;
	uint32_t ref = g->ref[i];
	struct zone *z;
	const struct page *page;
	int reason;

	if (g->captured[i] == FOLIO_HANDLE) {
		const struct handle *hd = &sim_handles(s)[ref];
		if (!handle_live(s, ref))
			return BAD_HANDLE;
		b->zone[b->nr] = &sim_nodes(s)[hd->node].zones[hd->zone];
		b->pfn[b->nr] = hd->pfn;
		b->order[b->nr] = hd->order;
		return 0;
	}
	z = pfn_zone(s, ref);
	reason = free_check(s, z, ref, g->captured[i]);
	if (reason)
		return reason;
	page = zone_page(s, z, ref);
	if (page->flags != PAGEF_CAPTURED || page->lru_flags)
		return BAD_OWNED; /* no longer captured memory: something else holds it */
	b->zone[b->nr] = z;
	b->pfn[b->nr] = ref;
	b->order[b->nr] = g->captured[i];
	return 0;
}

/*
 * Free the folio batch gathered on cpu at once (free_unref_folios: every mm_page_free, then the
 * commits). Every block is checked first, so a bad one frees nothing; the batch is let go of
 * either way, its captured blocks still captured.
 */
static int gather_commit(struct sim *s, int cpu)
{
	struct folio_gather *g = &s->gather;
	struct page_batch batch;

	batch.nr = 0;
	for (uint32_t i = 0; i < g->nr; i++) {
		int reason = gathered_bad(s, i, &batch);
		if (reason) {
			int handle = g->captured[i] == FOLIO_HANDLE;
			g->nr = 0;
			return sim_report_bad(s, cpu, handle ? 0 : g->ref[i],
					      handle ? 0 : g->captured[i], reason,
					      handle ? SIM_EBADHANDLE : SIM_EBADPAGE);
		}
		batch.nr++;
	}
	for (uint32_t i = 0; i < g->nr; i++)
		if (g->captured[i] != FOLIO_HANDLE) {
			/* a whole block (base/frames.h) gets its frames, as a raw free's does */
			struct page *page = frame_materialised(s, g->ref[i]);
			if (s->frozen)
				break;	 /* the frame budget ran out */
			page->flags = 0; /* the free path's block: no longer captured memory */
		}
	if (s->frozen) {
		g->nr = 0;
		return SIM_ECORRUPT;
	}
	page_free_batch(s, cpu, &batch);
	for (uint32_t i = 0; i < g->nr; i++)
		if (g->captured[i] == FOLIO_HANDLE)
			sim_handles(s)[g->ref[i]].pfn = PFN_NONE;
	g->nr = 0;
	return SIM_OK;
}

/*
 * OP_FREE_FOLIOS: a folio batch gathered one handle per op, freed when the op with arg 1 comes
 * (an imported trace's free_unref_folios: its mm_page_free lines, then the commits and drains).
 * One CPU gathers at a time; a handle that reclaim took is let go of at once, as OP_FREE does.
 */
static int op_free_folios(struct sim *s, const struct sim_op *op)
{
	struct folio_gather *g = &s->gather;

	if (!gather_open(s, op) || op->handle >= s->config.max_handles)
		return sim_report_bad(s, op->cpu, 0, 0, BAD_HANDLE, SIM_EBADHANDLE);
	for (uint32_t i = 0; i < g->nr; i++)
		if (g->captured[i] == FOLIO_HANDLE && g->ref[i] == op->handle)
			return sim_report_bad(s, op->cpu, 0, 0, BAD_HANDLE, SIM_EBADHANDLE);
	if (handle_live(s, op->handle)) {
		gather_add(s, op->cpu, op->handle, FOLIO_HANDLE);
	} else {
		int err = op_free(s, op); /* reclaimed (nothing more to do) or a bad handle */
		if (err)
			return err;
	}
	if (!op->arg || !g->nr)
		return SIM_OK;
	return gather_commit(s, op->cpu);
}

/*
 * OP_FREE_FOLIOS_CAPTURED: a block of captured memory joins the folio batch, chosen now as
 * CAPTURE_FREE would choose it (capture.c): a trace's free of memory allocated before it, in a
 * batch of free_unref_folios. Bad fields change nothing (SIM_EINVAL). With nothing captured left
 * to take, the op is refused (SIM_EINVAL) but, the last of its batch, still frees what gathered.
 */
static int op_free_folios_captured(struct sim *s, const struct sim_op *op)
{
	struct folio_gather *g = &s->gather;
	uint32_t pfn = PFN_NONE;
	int err, done;

	if (!gather_open(s, op) || op->order > s->config.max_order || op->gfp > MIGRATE_TYPES)
		return SIM_EINVAL;
	err = capture_gather(s, op->order, op->handle, op->gfp, g, &pfn);
	if (err == SIM_OK)
		gather_add(s, op->cpu, pfn, op->order);
	if (!op->arg || !g->nr)
		return err;
	done = gather_commit(s, op->cpu);
	return done != SIM_OK ? done : err;
}

/*
 * A raw free names pfn, which may lie in a whole block in use (base/frames.h): an LRU extent
 * becomes the folios it stands for (reclaim), so the free sees what per-frame memory would show;
 * a captured block of the largest order freed whole gets its frames, as the free path writes them.
 */
static void free_pfn_touch(struct sim *s, struct zone *z, uint32_t pfn, int order)
{
	const uint32_t first = pfn & ~((1u << s->config.max_order) - 1);
	const struct page *head;

	if (!z || !block_is_whole(s, first >> s->config.max_order))
		return;
	head = frame_at(s, first);
	if (head->state != PG_ALLOCATED)
		return;
	if (head->flags & PAGEF_EXTENT)
		page_alloc_reclaim->expand(s, z, first);
	else if (pfn == first && order == s->config.max_order)
		frame_materialised(s, pfn);
}

/* OP_FREE_PFN: a raw free; any handle still naming the block lets go of it. */
static int op_free_pfn(struct sim *s, const struct sim_op *op)
{
	uint32_t pfn = op->handle;
	struct zone *z = pfn_zone(s, pfn);
	int reason;
	struct handle *handles = sim_handles(s);

	free_pfn_touch(s, z, pfn, op->order);
	if (s->frozen)
		return SIM_ECORRUPT; /* the frame budget ran out (base/frames.h) */
	reason = free_check(s, z, pfn, op->order);
	if (reason)
		return sim_report_bad(s, op->cpu, pfn, op->order, reason, SIM_EBADPAGE);
	for (uint32_t h = 0; h < s->config.max_handles; h++)
		if (handles[h].pfn == pfn && handles[h].order != HANDLE_STREAM)
			handles[h].pfn = PFN_NONE;
	/* captured memory freed is the workload's no more: no captured free may pick it again */
	zone_page(s, z, pfn)->flags &= (uint8_t)~PAGEF_CAPTURED;
	page_free(s, op->cpu, z, pfn, op->order);
	return SIM_OK;
}

/*
 * Whether slot is one of the live slots of a stream whose header sits before it. A stream counts
 * its slots, it does not mark them, so a slot a plain free emptied still belongs to its stream.
 */
static int slot_in_a_stream(const struct sim *s, uint32_t slot)
{
	const struct handle *handles = sim_handles(s);

	for (uint32_t h = 0; h < slot; h++)
		if (handles[h].order == HANDLE_STREAM && handles[h].pfn != PFN_NONE &&
		    slot - h <= handles[h].pfn)
			return 1;
	return 0;
}

/*
 * OP_RANDOM: one step of a random stream. handles[base].pfn counts the live blocks, which sit
 * packed in handles[base + 1 ..]; a free picks one at random and moves the last into its slot.
 */
static int op_random(struct sim *s, const struct sim_op *op)
{
	uint32_t base = op->handle, capacity = (uint32_t)op->arg >> 7;
	uint32_t free_percent = (uint32_t)op->arg & 0x7f;
	struct handle *handles = sim_handles(s);
	uint32_t live;

	if (op->arg < 0 || free_percent > 100 || capacity < 1 || base >= s->config.max_handles ||
	    capacity >= s->config.max_handles - base || op->order > s->config.max_order)
		return SIM_EINVAL;
	if (handles[base].order != HANDLE_STREAM && handles[base].pfn != PFN_NONE)
		return SIM_EINVAL; /* the header slot holds a block: not a stream */
	if (handles[base].order != HANDLE_STREAM && slot_in_a_stream(s, base))
		return SIM_EINVAL; /* a new header there would be freed as the other stream's block */
	live = handles[base].pfn == PFN_NONE ? 0 : handles[base].pfn;
	if (live > capacity)
		return SIM_EINVAL;
	if (live && (live == capacity || sim_random(s) % 100 < free_percent)) {
		uint32_t victim = base + 1 + (uint32_t)(sim_random(s) % live);
		/* a plain free op may have emptied the slot already; then only the slot goes */
		if (handles[victim].pfn != PFN_NONE)
			do_free_handle(s, op->cpu, victim);
		handles[victim] = handles[base + live];
		handles[base + live].pfn = PFN_NONE;
		live--;
	} else {
		int order = (int)(sim_random(s) % ((uint64_t)op->order + 1));
		if (handles[base + 1 + live].pfn != PFN_NONE ||
		    handles[base + 1 + live].order == HANDLE_STREAM)
			return SIM_EINVAL; /* the stream's next slot is used by something else */
		if (do_alloc(s, op->cpu, op->gfp, order, base + 1 + live) == SIM_OK)
			live++;
	}
	/* PFN_NONE in the header means "no stream yet"; a count of 0 is stored the same way */
	handles[base].pfn = live ? live : PFN_NONE;
	handles[base].order = HANDLE_STREAM;
	return s->frozen ? SIM_ECORRUPT : SIM_OK;
}

/* Recompute what depends on min_free_kbytes and watermark_scale_factor (setup_per_zone_wmarks). */
static void recompute_wmarks(struct sim *s)
{
	wmark_setup_per_zone_wmarks(s);
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			if (zone_populated(&sim_nodes(s)[nid].zones[zid]))
				pcp_zone_update(s, &sim_nodes(s)[nid].zones[zid], 0);
}

/* The kernel's range check of a tunable (sysctls.def): whether v may be written to sysctl id. */
static int sysctl_in_range(uint32_t id, int32_t v)
{
	static const struct {
		uint8_t id, count, zero_ok;
		int32_t min, max;
	} ranges[] = {
#define SYSCTL(id, NAME, name, count, min, max, zero_ok, doc) { id, count, zero_ok, min, max },
#include "page_alloc/sysctls.def"
#undef SYSCTL
	};

	for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++)
		if (id >= ranges[i].id && id < (uint32_t)ranges[i].id + ranges[i].count)
			return (v >= ranges[i].min && v <= ranges[i].max) ||
			       (v == 0 && ranges[i].zero_ok);
	return 0;
}

/* OP_SYSCTL: write a tunable with the kernel's range checks, then recompute what depends on it. */
static int op_sysctl(struct sim *s, const struct sim_op *op)
{
	struct sim_config *cfg = &s->config;
	int32_t v = op->arg;
	uint32_t id = op->handle;

	if (!sysctl_in_range(id, v))
		return SIM_EINVAL;
	switch (id) {
	case SYSCTL_MIN_FREE_KBYTES:
		s->min_free_kbytes = s->user_min_free_kbytes = cfg->min_free_kbytes = v;
		recompute_wmarks(s);
		break;
	case SYSCTL_WATERMARK_SCALE_FACTOR:
		cfg->watermark_scale_factor = v;
		recompute_wmarks(s);
		break;
	case SYSCTL_WATERMARK_BOOST_FACTOR:
		cfg->watermark_boost_factor = v;
		break;
	case SYSCTL_PERCPU_PAGELIST_HIGH_FRACTION:
		cfg->percpu_pagelist_high_fraction = v;
		recompute_wmarks(s);
		break;
	case SYSCTL_ZONE_RECLAIM_MODE:
		cfg->zone_reclaim_mode = v;
		break;
	case SYSCTL_MIN_UNMAPPED_RATIO:
		s->min_unmapped_ratio = v;
		setup_min_unmapped_ratio(s);
		break;
	case SYSCTL_MIN_SLAB_RATIO:
		s->min_slab_ratio = v;
		setup_min_slab_ratio(s);
		break;
	case SYSCTL_NUMA_ZONELIST_ORDER: {
		int err = zonelist_order_sysctl(s, v, op->cpu);

		if (err != SIM_OK)
			return err;
		break;
	}
	default: /* lowmem_reserve_ratio[zone]: the range check knew the id */
		cfg->lowmem_reserve_ratio[id - SYSCTL_LOWMEM_RESERVE_RATIO_DMA] = v;
		wmark_setup_lowmem_reserve(s);
		break;
	}
	ev_emit(s, EV_SYSCTL, FN_SYSCTL, op->cpu, NULL, 0, 0, 0, (int32_t)id, v, 0);
	return SIM_OK;
}

/* Number of online CPUs. */
static uint32_t online_cpus(const struct sim *s)
{
	uint32_t n = 0;
	for (uint32_t cpu = 0; cpu < s->nr_cpus; cpu++)
		n += sim_cpus(s)[cpu].online;
	return n;
}

int page_alloc_alloc_op(struct sim *s, const struct sim_op *op)
{
	int cpu = op->cpu;

	if (op->order > s->config.max_order)
		return sim_report_bad(s, cpu, 0, op->order, BAD_ORDER_RANGE, SIM_EINVAL);
	if (op->handle >= s->config.max_handles || sim_handles(s)[op->handle].pfn != PFN_NONE ||
	    sim_handles(s)[op->handle].order == HANDLE_STREAM)
		return sim_report_bad(s, cpu, 0, op->order, BAD_HANDLE, SIM_EBADHANDLE);
	if (gfp_zone(op->gfp) < 0)
		return SIM_EINVAL;
	return do_alloc(s, cpu, op->gfp, op->order, op->handle);
}

/*
 * The ops no allocation or free takes, out of line: GCC folded them into sim_apply with the rest
 * (a static function called once is inlined whatever its size), and the register pressure of the
 * whole switch reached the alloc and free paths (bench1m, callgrind: 699 -> 652 native
 * instructions an op). In wasm Binaryen inlines every single-caller function again whatever LLVM
 * was told, so sim_apply there is the same.
 */
static OUT_OF_LINE int page_alloc_apply_rare(struct sim *s, const struct sim_op *op)
{
	int cpu = op->cpu;

	switch (op->kind) {
	case OP_FREE_PFN:
		return op_free_pfn(s, op);
	case OP_FREE_BATCH:
		return op_free_batch(s, op);
	case OP_FREE_FOLIOS:
		return op_free_folios(s, op);
	case OP_FREE_FOLIOS_CAPTURED:
		return op_free_folios_captured(s, op);
	case OP_DRAIN_CPU:
		pcp_drain_cpu(s, cpu);
		return SIM_OK;
	case OP_DRAIN_ALL:
		pcp_drain_all(s, cpu);
		return SIM_OK;
	case OP_CPU_OFFLINE:
		if (online_cpus(s) == 1)
			return SIM_EINVAL; /* the kernel never offlines its last CPU */
		pcp_cpu_dead(s, cpu);
		/* page_alloc_cpu_dead: cpu_vm_stats_fold; vmstat_cpu_dead: new thresholds */
		vmstat_fold_cpu(s, cpu);
		sim_cpus(s)[cpu].online = 0;
		vmstat_refresh_thresholds(s);
		ev_emit(s, EV_CPU_HOTPLUG, FN_PAGE_ALLOC_CPU_DEAD, cpu, NULL, 0, 0, 0, 0, 0, 0);
		return SIM_OK;
	case OP_CPU_ONLINE:
		if (sim_cpus(s)[cpu].online)
			return SIM_OK;
		sim_cpus(s)[cpu].online = 1;
		if (sim_cpus(s)[cpu].clock_ns < s->now_ns)
			sim_cpus(s)[cpu].clock_ns = s->now_ns;
		pcp_cpu_online(s, cpu);
		vmstat_refresh_thresholds(s);
		ev_emit(s, EV_CPU_HOTPLUG, FN_PAGE_ALLOC_CPU_ONLINE, cpu, NULL, 0, 0, 0, 1, 0, 0);
		return SIM_OK;
	case OP_SYSCTL:
		return op_sysctl(s, op);
	case OP_CORRUPT:
		/* armed per CPU: the next block a refill on this CPU takes fails check_new_pages */
		s->corrupt_pending = (uint32_t)cpu + 1;
		return SIM_OK;
	case OP_CAPTURE_ZONE:
		return capture_zone(s, op);
	case OP_CAPTURE_PCP:
		return capture_pcp(s, op);
	default:
		return SIM_ENOTMINE;
	}
}

FAST_PATH int page_alloc_apply(struct sim *s, const struct sim_op *op)
{
	switch (op->kind) {
	case OP_ALLOC:
		return page_alloc_alloc_op(s, op);
	case OP_FREE:
		return op_free(s, op);
	case OP_RANDOM:
		return op_random(s, op);
	default:
		return page_alloc_apply_rare(s, op);
	}
}

/* vmstat_update's page allocator work on one CPU: pcp high decay and remote drains. */
static void page_alloc_tick_cpu(struct sim *s, int cpu)
{
	/* refresh_cpu_vm_stats: fold this CPU's deltas, then the pcp work */
	vmstat_fold_cpu(s, cpu);
	pcp_vmstat_tick(s, cpu);
}

const struct subsystem page_alloc_subsystem = {
	.name = "page_alloc",
	.boot = page_alloc_boot,
	/* .apply: none, sim_subsystems_apply calls page_alloc_apply directly (src/subsystems.c) */
	.tick_cpu = page_alloc_tick_cpu,
	.check = page_alloc_check,
};
