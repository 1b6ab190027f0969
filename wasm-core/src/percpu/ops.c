/*
 * ops.c: the percpu allocator as a subsystem: boot (the embedded first chunk of
 * pcpu_setup_first_chunk), its ops (pcpu_alloc, free_percpu, the balance work) and its hooks.
 *
 * pcpu_alloc in short (mm/percpu.c [4.9, 4.14, 6.18]): round the request (area map: 2-byte
 * granule; bitmap: 4-byte), refuse what the kernel refuses, serve reserved requests from the
 * reserved chunk, else walk the slots from the request's own upwards and every chunk on each
 * list; with nothing found an atomic request fails and a sleeping one creates a chunk and walks
 * again. A sleeping request then populates the pages under its area; an allocation that leaves
 * fewer than two empty populated pages schedules the balance work, which runs at the next tick
 * (a workqueue item: the model runs it at the end of the interval) or at `percpu balance`.
 */
#include "base/event.h"
#include "base/state.h"
#include "percpu/percpu.h"
#include "percpu/vocab.h"

#define PCPU_MAX_RESTARTS 64 /* bound on create-and-retry rounds of one request */

/* Refuse bad input as pcpu_alloc refuses it (WARN, NULL): an event and SIM_EINVAL. */
static int bad_request(struct sim *s, int cpu, int reserved, int size, int align, int reason)
{
	s->ev.bad_page++;
	ev_emit(s, EV_PERCPU_BAD_REQUEST, FN_PCPU_ALLOC, cpu, NULL, 0, reserved, 0, size, align,
		reason);
	return SIM_EINVAL;
}

/* The state is not what the handles say: report it, freeze (as a runaway loop does). */
static int corrupt(struct sim *s, const char *what)
{
	size_t i = 0;

	for (; what[i] && i + 1 < sizeof s->error; i++)
		s->error[i] = what[i];
	s->error[i] = 0;
	s->frozen = 1;
	return SIM_ECORRUPT;
}

/* Try one chunk: the byte offset served, -1 when it does not fit, -2 to restart the slot walk. */
static int try_chunk(struct sim *s, struct pcpu_state *ps, uint32_t ci, int slot, int size,
		     int align, int is_atomic, int cpu)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);

	if (s->profile.percpu_allocator == PCPU_AREA_MAP) {
		int new_alloc;

		if (size > c->contig_hint)
			return -1;
		new_alloc = pcpu_need_to_extend(ps, c, is_atomic);
		if (new_alloc) {
			if (is_atomic)
				return -1;
			if (pcpu_extend_area_map(s, ps, ci, new_alloc, cpu, PCPU_PHASE_ALLOC))
				return -3; /* the map could not grow: the request fails */
			return -2;
		}
		return pcpu_area_alloc(s, ps, ci, size, align, is_atomic, cpu);
	} else {
		int bits = size / PCPU_MIN_ALLOC_SIZE, bit_align = align / PCPU_MIN_ALLOC_SIZE;
		int off = pcpu_find_block_fit(s, ps, ci, bits, bit_align, is_atomic,
					      PCPU_PHASE_ALLOC);

		if (off < 0) {
			/* 5.1+: a chunk that fails in a low slot is relegated to slot 0 */
			if (s->profile.percpu_slot_by_contig && slot < PCPU_SLOT_FAIL_THRESHOLD &&
			    !c->reserved)
				pcpu_chunk_move(ps, ci, 0);
			return -1;
		}
		return pcpu_bitmap_alloc(s, ps, ci, bits, bit_align, off, cpu);
	}
}

/* pcpu_alloc: find (or make) room, populate it, record the handle. */
static int op_alloc(struct sim *s, struct pcpu_state *ps, const struct sim_op *op)
{
	int cpu = op->cpu, reserved = op->order & 1;
	uint32_t arg = (uint32_t)op->arg, h = op->handle;
	int size = (int)(arg & 0xffff), align = (int)(arg >> 16);
	int is_atomic = (op->gfp & GFP_KERNEL) != GFP_KERNEL;
	int granule = s->profile.percpu_allocator == PCPU_AREA_MAP ? 2 : PCPU_MIN_ALLOC_SIZE;
	struct pcpu_work *w = &ps->work[PCPU_PHASE_ALLOC];
	uint32_t ci = PCPU_NONE;
	int off = -1, restarts = 0, failed = 0;
	struct pcpu_handle *hd;

	if (h >= s->config.percpu_handles)
		return bad_request(s, cpu, reserved, size, align, PCPU_BAD_HANDLE_RANGE);
	hd = &pcpu_handles(ps)[h];
	if (hd->chunk != PCPU_NONE)
		return bad_request(s, cpu, reserved, size, align, PCPU_BAD_HANDLE_BUSY);
	if (align < granule)
		align = granule;
	size = (size + granule - 1) & ~(granule - 1);
	if (!size || size > PCPU_MIN_UNIT_SIZE)
		return bad_request(s, cpu, reserved, size, align, PCPU_BAD_SIZE);
	if (align > PCPU_PAGE_SIZE || (align & (align - 1)))
		return bad_request(s, cpu, reserved, size, align, PCPU_BAD_ALIGN);
	w->ops++;

	if (reserved && ps->reserved_chunk != PCPU_NONE) {
		off = try_chunk(s, ps, ps->reserved_chunk, 0, size, align, is_atomic, cpu);
		if (off == -2)
			off = try_chunk(s, ps, ps->reserved_chunk, 0, size, align, is_atomic, cpu);
		ci = ps->reserved_chunk;
		failed = off < 0;
	} else {
		while (off < 0 && !failed) {
			int restart = 0;

			for (int slot = pcpu_size_to_slot(ps, size);
			     slot <= (int)ps->free_slot && !restart && off < 0; slot++) {
				for (uint32_t i = ps->slot_head[slot], n = 0;
				     i != PCPU_NONE && n < ps->max_chunks; n++) {
					uint32_t next = pcpu_chunk(ps, i)->next;
					int r = try_chunk(s, ps, i, slot, size, align, is_atomic,
							  cpu);

					if (r >= 0) {
						off = r;
						ci = i;
						break;
					}
					if (r == -2 || r == -3) {
						restart = r == -2;
						failed = r == -3;
						break;
					}
					i = next;
				}
				if (failed)
					break;
			}
			if (off >= 0 || failed)
				break;
			if (++restarts > PCPU_MAX_RESTARTS) {
				failed = 1;
				break;
			}
			if (restart)
				continue;
			if (is_atomic) {
				ps->atomic_alloc_failed = 1;
				ps->balance_pending = 1;
				failed = 1;
				break;
			}
			if (ps->slot_head[ps->free_slot] == PCPU_NONE &&
			    pcpu_create_chunk(s, ps, cpu, PCPU_PHASE_ALLOC) == PCPU_NONE)
				failed = 1;
		}
	}
	if (!failed && off >= 0 && !is_atomic) {
		struct pcpu_chunk *c = pcpu_chunk(ps, ci);
		int page_start = off / PCPU_PAGE_SIZE;
		int page_end = (off + size + PCPU_PAGE_SIZE - 1) / PCPU_PAGE_SIZE;

		/* pcpu_for_each_unpop_region over the area's pages */
		for (int p = page_start; p < page_end && !failed; p++) {
			int q = p;

			if (c->immutable || pcpu_page_populated(ps, ci, (uint32_t)p))
				continue;
			while (q < page_end && !pcpu_page_populated(ps, ci, (uint32_t)q))
				q++;
			if (pcpu_populate(s, ps, ci, p, q, cpu, PCPU_PHASE_ALLOC)) {
				/* pcpu_free_area of what was just allocated */
				if (s->profile.percpu_allocator == PCPU_AREA_MAP)
					pcpu_area_free(s, ps, ci, off, cpu);
				else
					pcpu_bitmap_free(s, ps, ci, off, cpu);
				failed = 1;
			}
			p = q;
		}
	}
	if (failed || off < 0) {
		ev_emit(s, EV_PERCPU_ALLOC_PERCPU_FAIL, FN_PCPU_ALLOC, cpu, NULL, 0, reserved,
			is_atomic, size, align, 0);
		return SIM_ENOMEM;
	}
	if (ps->nr_empty_pop_pages < PCPU_EMPTY_POP_PAGES_LOW)
		ps->balance_pending = 1;
	w->bytes_zeroed += (uint64_t)size * s->nr_cpus;
	hd->chunk = ci;
	hd->off = off;
	hd->size = size;
	hd->cpu = cpu;
	/* pcpu_stats_area_alloc */
	{
		struct pcpu_chunk *c = pcpu_chunk(ps, ci);

		ps->nr_alloc++;
		ps->nr_cur_alloc++;
		if (ps->nr_cur_alloc > ps->nr_max_alloc)
			ps->nr_max_alloc = ps->nr_cur_alloc;
		if (!ps->min_alloc_size || (uint32_t)size < ps->min_alloc_size)
			ps->min_alloc_size = (uint32_t)size;
		if ((uint32_t)size > ps->max_alloc_size)
			ps->max_alloc_size = (uint32_t)size;
		c->nr_alloc++;
		if ((uint32_t)size > c->max_alloc_size)
			c->max_alloc_size = (uint32_t)size;
	}
	ev_emit(s, EV_PERCPU_ALLOC_PERCPU, FN_PCPU_ALLOC, cpu, NULL, ci, reserved, is_atomic, off,
		size, align);
	return SIM_OK;
}

/* pcpu_should_reclaim_chunk (5.14+): a dynamic chunk with a quarter of its pages empty while enough are. */
static int should_reclaim(struct pcpu_state *ps, const struct pcpu_chunk *c)
{
	if (c->immutable || c->reserved)
		return 0;
	return (c->isolated && c->nr_empty_pop_pages) ||
	       (ps->nr_empty_pop_pages > PCPU_EMPTY_POP_PAGES_HIGH + c->nr_empty_pop_pages &&
		c->nr_empty_pop_pages >= (int32_t)(c->nr_pages / 4));
}

/* free_percpu: free the handle's area, then wake the balance work when it has something to do. */
static int op_free(struct sim *s, struct pcpu_state *ps, const struct sim_op *op)
{
	int cpu = op->cpu, size;
	uint32_t h = op->handle, ci;
	struct pcpu_handle *hd;
	struct pcpu_chunk *c;

	if (h >= s->config.percpu_handles)
		return bad_request(s, cpu, 0, 0, 0, PCPU_BAD_HANDLE_RANGE);
	if (pcpu_handles(ps)[h].chunk == PCPU_NONE)
		return bad_request(s, cpu, 0, 0, 0, PCPU_BAD_HANDLE);
	hd = &pcpu_handles(ps)[h];
	ci = hd->chunk;
	if (ci >= ps->max_chunks || !pcpu_chunk(ps, ci)->in_use)
		return corrupt(s, "percpu handle names no chunk");
	ps->work[PCPU_PHASE_FREE].ops++;
	size = s->profile.percpu_allocator == PCPU_AREA_MAP ?
		       pcpu_area_free(s, ps, ci, hd->off, cpu) :
		       pcpu_bitmap_free(s, ps, ci, hd->off, cpu);
	if (size < 0)
		return corrupt(s, "percpu handle names no area of its chunk");
	c = pcpu_chunk(ps, ci);
	c->nr_alloc--;
	ps->nr_dealloc++;
	ps->nr_cur_alloc--;
	ev_emit(s, EV_PERCPU_FREE_PERCPU, FN_FREE_PERCPU, cpu, NULL, ci, 0, 0, hd->off, size, 0);
	hd->chunk = PCPU_NONE;
	if (!c->isolated && c->free_bytes == (int32_t)ps->unit_size) {
		/* a second completely free chunk: the grim reaper has work */
		for (uint32_t i = ps->slot_head[ps->free_slot], n = 0;
		     i != PCPU_NONE && n < ps->max_chunks; n++, i = pcpu_chunk(ps, i)->next)
			if (i != ci) {
				ps->balance_pending = 1;
				break;
			}
	} else if (s->profile.percpu_depopulate && should_reclaim(ps, c)) {
		/* pcpu_isolate_chunk: off the active slots until its empty pages are given back */
		if (!c->isolated) {
			c->isolated = 1;
			ps->nr_empty_pop_pages -= c->nr_empty_pop_pages;
		}
		pcpu_chunk_move(ps, ci, (int)ps->to_depopulate_slot);
		ps->balance_pending = 1;
	}
	return SIM_OK;
}

/* pcpu_setup_first_chunk: the embedded first chunk (and reserved chunk), populated from boot. */
static void percpu_boot(struct sim *s)
{
	struct pcpu_state *ps = pcpu_state(s);
	uint32_t static_size, dyn;

	if (!ps)
		return;
	pcpu_layout(&s->config, ps);
	pcpu_geometry(&s->config, ps);
	if (s->profile.percpu_depopulate) {
		ps->sidelined_slot = (uint32_t)pcpu_size_to_slot_raw((int)ps->unit_size) + 1;
		ps->free_slot = ps->sidelined_slot + 1;
		ps->to_depopulate_slot = ps->free_slot + 1;
		ps->nr_slots = ps->to_depopulate_slot + 1;
	} else {
		ps->nr_slots = (uint32_t)pcpu_size_to_slot_raw((int)ps->unit_size) + 2;
		ps->free_slot = ps->nr_slots - 1;
		ps->sidelined_slot = ps->to_depopulate_slot = PCPU_NONE;
	}
	for (int i = 0; i < PCPU_MAX_SLOTS; i++)
		ps->slot_head[i] = ps->slot_tail[i] = PCPU_NONE;
	for (int i = 0; i < PCPU_MAP_CLASSES; i++)
		ps->pool_free[i] = PCPU_NONE;
	for (uint32_t h = 0; h < s->config.percpu_handles; h++)
		pcpu_handles(ps)[h].chunk = PCPU_NONE;
	ps->unused_chunks = PCPU_NONE;
	for (uint32_t i = ps->max_chunks; i-- > 0;) {
		pcpu_chunk(ps, i)->next = ps->unused_chunks;
		ps->unused_chunks = i;
	}
	ps->reserved_chunk = PCPU_NONE;
	/* the static area ends on the allocation granule; the dynamic area pays for it */
	static_size = (ps->static_size + PCPU_MIN_ALLOC_SIZE - 1) &
		      ~(uint32_t)(PCPU_MIN_ALLOC_SIZE - 1);
	dyn = ps->dyn_size - (static_size - ps->static_size);
	for (int part = ps->reserved_size ? 0 : 1; part < 2; part++) {
		uint32_t ci = ps->unused_chunks, start = static_size, map_size = dyn;
		struct pcpu_chunk *c = pcpu_chunk(ps, ci);

		if (part == 0)
			map_size = ps->reserved_size;
		else if (ps->reserved_size)
			start += ps->reserved_size;
		ps->unused_chunks = c->next;
		*c = (struct pcpu_chunk){ .prev = PCPU_NONE, .next = PCPU_NONE, .in_use = 1 };
		c->immutable = 1;
		c->reserved = part == 0;
		if (s->profile.percpu_allocator == PCPU_AREA_MAP) {
			/* 4.9: the chunk spans the unit from 0, the static (and reserved) part in use */
			c->nr_pages = (start + map_size + PCPU_PAGE_SIZE - 1) / PCPU_PAGE_SIZE;
			c->base_offset = 0;
			pcpu_map_init(ps, c, (int)start, (int)map_size, PCPU_EARLY_MAP_ALLOC);
		} else {
			/* pcpu_alloc_first_chunk: page-aligned region around [start, start + map_size) */
			uint32_t aligned = start & ~(uint32_t)(PCPU_PAGE_SIZE - 1);
			uint32_t region = (start - aligned + map_size + PCPU_PAGE_SIZE - 1) &
					  ~(uint32_t)(PCPU_PAGE_SIZE - 1);

			c->base_offset = aligned;
			c->start_offset = (int32_t)(start - aligned);
			c->end_offset = (int32_t)(region - c->start_offset - map_size);
			c->nr_pages = region / PCPU_PAGE_SIZE;
			c->free_bytes = (int32_t)map_size;
		}
		for (uint32_t p = 0; p < c->nr_pages; p++) {
			pcpu_populated(ps, ci)[p / 64] |= 1ull << (p % 64);
			c->nr_empty_pop_pages++;
			if (!c->reserved)
				ps->nr_empty_pop_pages++;
		}
		for (uint32_t i = 0; i < c->nr_pages * s->nr_cpus; i++)
			pcpu_pfns(ps, ci)[i] = PFN_NONE; /* embedded: memblock, not the buddy */
		c->nr_populated = c->nr_pages;
		if (s->profile.percpu_allocator == PCPU_AREA_MAP)
			pcpu_account_pages(ps, ci, 0, (int)start, 1);
		else
			pcpu_bitmap_init(s, ps, ci);
		if (part == 0) {
			ps->reserved_chunk = ci;
		} else {
			ps->first_chunk = ci;
			pcpu_chunk_relocate(s, ps, ci, -1, 0, PCPU_PHASE_BALANCE);
		}
	}
	ps->nr_populated = ps->size_sum / PCPU_PAGE_SIZE;
	ps->nr_chunks = ps->nr_max_chunks = 1;
	/* the boot work is not a request's: start the counts clean */
	for (int i = 0; i < NR_PCPU_PHASES; i++)
		ps->work[i] = (struct pcpu_work){ 0 };
}

/* The percpu ops; SIM_ENOTMINE for other kinds. */
static int percpu_apply(struct sim *s, const struct sim_op *op)
{
	struct pcpu_state *ps;

	if (op->kind != OP_PERCPU_ALLOC && op->kind != OP_PERCPU_FREE &&
	    op->kind != OP_PERCPU_BALANCE)
		return SIM_ENOTMINE;
	ps = pcpu_state(s);
	if (!ps)
		return SIM_EINVAL;
	switch (op->kind) {
	case OP_PERCPU_ALLOC:
		return op_alloc(s, ps, op);
	case OP_PERCPU_FREE:
		return op_free(s, ps, op);
	default:
		pcpu_balance_work(s, ps, op->cpu);
		return SIM_OK;
	}
}

/* End of a vmstat interval: the balance work item runs if something scheduled it. */
static void percpu_tick_end(struct sim *s)
{
	struct pcpu_state *ps = pcpu_state(s);

	if (ps && ps->balance_pending)
		pcpu_balance_work(s, ps, 0);
}

/* The region's size: geometry and tables for this machine. */
static uint64_t percpu_arena_bytes(const struct sim_config *cfg)
{
	return pcpu_layout(cfg, NULL);
}

/* %p of a chunk's base: the model prints chunk index << 21 above a vmalloc-like base, unhashed. */
static void key_ptr(struct textbuf *tb, const char *name, uint64_t v)
{
	tb_char(tb, ' ');
	tb_str(tb, name);
	tb_char(tb, '=');
	tb_hex(tb, v, 16);
}

#define PCPU_MODEL_BASE 0xffffe8ffff800000ull /* where the model places chunk 0's unit 0 */

/* The kernel's percpu tracepoints, field for field (include/trace/events/percpu.h). */
static int percpu_trace_event(const struct sim *s, const struct sim_event *e, struct textbuf *tb)
{
	uint64_t base = PCPU_MODEL_BASE + ((uint64_t)e->pfn << 21);

	switch (e->kind) {
	case EV_PERCPU_ALLOC_PERCPU:
		tb_str(tb, "percpu_alloc_percpu:");
		if (s->profile.percpu_trace_call_site)
			tb_str(tb, " call_site=sim_workload+0x0/0x0");
		tb_str(tb, " reserved=");
		tb_int(tb, e->order, 0);
		tb_str(tb, " is_atomic=");
		tb_int(tb, e->mt, 0);
		tb_str(tb, " size=");
		tb_int(tb, e->b, 0);
		tb_str(tb, " align=");
		tb_int(tb, e->c, 0);
		key_ptr(tb, "base_addr", base);
		tb_str(tb, " off=");
		tb_int(tb, e->a, 0);
		key_ptr(tb, "ptr", base + (uint64_t)e->a);
		if (s->profile.percpu_trace_call_site) {
			tb_str(tb, " bytes_alloc=");
			tb_int(tb, (int64_t)e->b * s->nr_cpus, 0);
			tb_str(tb, e->mt ? " gfp_flags=GFP_NOWAIT" : " gfp_flags=GFP_KERNEL");
		}
		return 1;
	case EV_PERCPU_FREE_PERCPU:
		tb_str(tb, "percpu_free_percpu:");
		key_ptr(tb, "base_addr", base);
		tb_str(tb, " off=");
		tb_int(tb, e->a, 0);
		key_ptr(tb, "ptr", base + (uint64_t)e->a);
		return 1;
	case EV_PERCPU_ALLOC_PERCPU_FAIL:
		tb_str(tb, "percpu_alloc_percpu_fail: reserved=");
		tb_int(tb, e->order, 0);
		tb_str(tb, " is_atomic=");
		tb_int(tb, e->mt, 0);
		tb_str(tb, " size=");
		tb_int(tb, e->a, 0);
		tb_str(tb, " align=");
		tb_int(tb, e->b, 0);
		return 1;
	case EV_PERCPU_CREATE_CHUNK:
	case EV_PERCPU_DESTROY_CHUNK:
		tb_str(tb, e->kind == EV_PERCPU_CREATE_CHUNK ? "percpu_create_chunk:" :
							       "percpu_destroy_chunk:");
		key_ptr(tb, "base_addr", base);
		return 1;
	default:
		return 0;
	}
}

const struct subsystem percpu_subsystem = {
	.name = "percpu",
	.arena_bytes = percpu_arena_bytes,
	.boot = percpu_boot,
	.apply = percpu_apply,
	.tick_end = percpu_tick_end,
	.owned_pages = percpu_owned_pages,
	.check = percpu_check,
	.trace_event = percpu_trace_event,
};
