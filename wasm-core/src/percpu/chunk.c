/*
 * chunk.c: chunks as the allocator's containers (mm/percpu.c, mm/percpu-vm.c): the slot lists
 * they sit on, creating and destroying dynamic chunks, populating and depopulating their pages
 * with real page frames from the page allocator, the empty-populated-page count, and the balance
 * work that keeps that count between PCPU_EMPTY_POP_PAGES_LOW and _HIGH.
 *
 * Slots: __pcpu_size_to_slot(size) = max(fls(size) - 5 + 2, 1): 1..15 bytes -> 1, 16..31 -> 2,
 * 32..63 -> 3 ... With 1 MiB units (fls 21) the largest size slot is 18; the free slot follows
 * it (<= 5.13: nr_slots = 18 + 2, free slot 19; 5.14+: sidelined 19, free 20, to_depopulate 21).
 */
#include "base/event.h"
#include "base/state.h"
#include "page_alloc/page_alloc.h"
#include "percpu/percpu.h"
#include "percpu/vocab.h"

/* fls: the 1-based index of the highest set bit, 0 for 0. */
static int fls32(uint32_t x)
{
	int n = 0;

	while (x) {
		n++;
		x >>= 1;
	}
	return n;
}

int pcpu_size_to_slot_raw(int size)
{
	int highbit = fls32((uint32_t)size);
	int slot = highbit - PCPU_SLOT_BASE_SHIFT + 2;

	return slot > 1 ? slot : 1;
}

int pcpu_size_to_slot(const struct pcpu_state *ps, int size)
{
	if ((uint32_t)size == ps->unit_size)
		return (int)ps->free_slot;
	return pcpu_size_to_slot_raw(size);
}

int pcpu_chunk_slot(const struct sim *s, struct pcpu_state *ps, const struct pcpu_chunk *c)
{
	if (s->profile.percpu_allocator == PCPU_AREA_MAP) {
		if (c->free_bytes < (int)sizeof(int32_t) || c->contig_hint < (int)sizeof(int32_t))
			return 0;
		return pcpu_size_to_slot(ps, c->free_bytes);
	}
	if (c->free_bytes < PCPU_MIN_ALLOC_SIZE || c->chunk_md.contig_hint == 0)
		return 0;
	if (s->profile.percpu_slot_by_contig)
		return pcpu_size_to_slot(ps, c->chunk_md.contig_hint * PCPU_MIN_ALLOC_SIZE);
	return pcpu_size_to_slot(ps, c->free_bytes);
}

/* Take chunk ci off its slot list. */
static void slot_unlink(struct pcpu_state *ps, uint32_t ci)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);

	if (c->prev != PCPU_NONE)
		pcpu_chunk(ps, c->prev)->next = c->next;
	else
		ps->slot_head[c->slot] = c->next;
	if (c->next != PCPU_NONE)
		pcpu_chunk(ps, c->next)->prev = c->prev;
	else
		ps->slot_tail[c->slot] = c->prev;
	c->prev = c->next = PCPU_NONE;
}

/* Put chunk ci on slot's list, at its head or tail. */
static void slot_link(struct pcpu_state *ps, uint32_t ci, int slot, int head)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);

	c->slot = (uint8_t)slot;
	if (head) {
		c->prev = PCPU_NONE;
		c->next = ps->slot_head[slot];
		if (c->next != PCPU_NONE)
			pcpu_chunk(ps, c->next)->prev = ci;
		else
			ps->slot_tail[slot] = ci;
		ps->slot_head[slot] = ci;
	} else {
		c->next = PCPU_NONE;
		c->prev = ps->slot_tail[slot];
		if (c->prev != PCPU_NONE)
			pcpu_chunk(ps, c->prev)->next = ci;
		else
			ps->slot_head[slot] = ci;
		ps->slot_tail[slot] = ci;
	}
}

void pcpu_chunk_move(struct pcpu_state *ps, uint32_t ci, int slot)
{
	slot_unlink(ps, ci);
	slot_link(ps, ci, slot, 0);
}

void pcpu_chunk_relocate(struct sim *s, struct pcpu_state *ps, uint32_t ci, int oslot, int cpu,
			 int phase)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	int nslot = pcpu_chunk_slot(s, ps, c);

	/* the reserved chunk and isolated chunks stay where they are */
	if (c->reserved || c->isolated || oslot == nslot)
		return;
	if (oslot >= 0)
		slot_unlink(ps, ci);
	/* list_move when it gained room (or is new), list_move_tail when it lost some */
	slot_link(ps, ci, nslot, oslot < nslot);
	ps->work[phase].relocations++;
	ev_emit(s, EV_PERCPU_RELOCATE, FN_PCPU_CHUNK_RELOCATE, cpu, NULL, ci, 0, 0, oslot, nslot,
		oslot < nslot);
}

/* Whether chunk ci's page p counts as empty and populated. */
static int page_empty_populated(struct pcpu_state *ps, uint32_t ci, uint32_t p)
{
	return pcpu_page_populated(ps, ci, p) && pcpu_pages_used(ps, ci)[p] == 0;
}

/* pcpu_update_empty_pages: the chunk's and (except reserved and isolated chunks) the global count. */
static void update_empty_pages(struct pcpu_state *ps, uint32_t ci, int nr)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);

	c->nr_empty_pop_pages += nr;
	if (!c->reserved && !c->isolated)
		ps->nr_empty_pop_pages += nr;
}

void pcpu_account_pages(struct pcpu_state *ps, uint32_t ci, int off, int size, int delta)
{
	uint16_t *used = pcpu_pages_used(ps, ci);
	int end = off + size;

	/* per page: the bytes of [off, end) it holds; a page changes emptiness at 0 */
	for (int p = off / PCPU_PAGE_SIZE; p * PCPU_PAGE_SIZE < end; p++) {
		int lo = off > p * PCPU_PAGE_SIZE ? off : p * PCPU_PAGE_SIZE;
		int hi = end < (p + 1) * PCPU_PAGE_SIZE ? end : (p + 1) * PCPU_PAGE_SIZE;
		int was_empty = page_empty_populated(ps, ci, (uint32_t)p);

		used[p] = (uint16_t)(used[p] + (delta > 0 ? hi - lo : lo - hi));
		if (was_empty != page_empty_populated(ps, ci, (uint32_t)p))
			update_empty_pages(ps, ci, was_empty ? -1 : 1);
	}
}

int pcpu_populate(struct sim *s, struct pcpu_state *ps, uint32_t ci, int rs, int re, int cpu,
		  int phase)
{
	uint32_t *pfns = pcpu_pfns(ps, ci);
	uint32_t nr_cpus = s->nr_cpus;
	int frames = 0;

	/* pcpu_alloc_pages: a page per possible CPU and page, from that CPU's node; all or none */
	for (int p = rs; p < re; p++) {
		for (uint32_t u = 0; u < nr_cpus; u++) {
			int zone;
			uint32_t pfn = page_alloc_owned(s, (int)u, GFP_KERNEL, &zone);

			if (pfn == PFN_NONE) {
				/* pcpu_free_pages: give back what this call took */
				for (int q = rs; q <= p; q++) {
					for (uint32_t v = 0; v < nr_cpus; v++) {
						uint32_t *slot = &pfns[(size_t)q * nr_cpus + v];

						if (q == p && v >= u)
							break;
						page_free_owned(s, (int)v, *slot);
						*slot = PFN_NONE;
					}
				}
				return -1;
			}
			pfns[(size_t)p * nr_cpus + u] = pfn;
			frames++;
		}
	}
	/* pcpu_chunk_populated */
	for (int p = rs; p < re; p++) {
		struct pcpu_chunk *c = pcpu_chunk(ps, ci);

		pcpu_populated(ps, ci)[p / 64] |= 1ull << (p % 64);
		c->nr_populated++;
		ps->nr_populated++;
		if (pcpu_pages_used(ps, ci)[p] == 0)
			update_empty_pages(ps, ci, 1);
	}
	ps->work[phase].pages_populated += (uint64_t)(re - rs);
	ev_emit(s, EV_PERCPU_POPULATE, FN_PCPU_POPULATE_CHUNK, cpu, NULL, ci, 0, 0, rs, re, frames);
	return 0;
}

void pcpu_depopulate(struct sim *s, struct pcpu_state *ps, uint32_t ci, int rs, int re, int cpu,
		     int phase)
{
	uint32_t *pfns = pcpu_pfns(ps, ci);
	int frames = 0;

	for (int p = rs; p < re; p++) {
		struct pcpu_chunk *c = pcpu_chunk(ps, ci);

		if (!pcpu_page_populated(ps, ci, (uint32_t)p))
			continue;
		if (pcpu_pages_used(ps, ci)[p] == 0)
			update_empty_pages(ps, ci, -1);
		for (uint32_t u = 0; u < s->nr_cpus; u++) {
			uint32_t *slot = &pfns[(size_t)p * s->nr_cpus + u];

			if (pfn_to_zone_index(s, *slot) >= 0) {
				page_free_owned(s, (int)u, *slot);
				frames++;
			}
			*slot = PFN_NONE;
		}
		pcpu_populated(ps, ci)[p / 64] &= ~(1ull << (p % 64));
		c->nr_populated--;
		ps->nr_populated--;
	}
	ps->work[phase].pages_depopulated += (uint64_t)(re - rs);
	ev_emit(s, EV_PERCPU_DEPOPULATE, FN_PCPU_DEPOPULATE_CHUNK, cpu, NULL, ci, 0, 0, rs, re,
		frames);
}

uint32_t pcpu_create_chunk(struct sim *s, struct pcpu_state *ps, int cpu, int phase)
{
	uint32_t ci = ps->unused_chunks;
	struct pcpu_chunk *c;
	char *data;

	if (ci == PCPU_NONE)
		return PCPU_NONE;
	c = pcpu_chunk(ps, ci);
	ps->unused_chunks = c->next;
	data = pcpu_chunk_data(ps, ci);
	for (uint32_t i = 0; i < ps->chunk_stride; i++)
		data[i] = 0;
	*c = (struct pcpu_chunk){ .prev = PCPU_NONE, .next = PCPU_NONE, .in_use = 1 };
	c->nr_pages = ps->unit_pages;
	c->free_bytes = (int32_t)ps->unit_size;
	c->base_offset = 0;
	for (uint32_t i = 0; i < ps->unit_pages * s->nr_cpus; i++)
		pcpu_pfns(ps, ci)[i] = PFN_NONE;
	if (s->profile.percpu_allocator == PCPU_AREA_MAP) {
		if (pcpu_map_init(ps, c, 0, (int)ps->unit_size, PCPU_DFL_MAP_ALLOC)) {
			c->in_use = 0;
			c->next = ps->unused_chunks;
			ps->unused_chunks = ci;
			return PCPU_NONE;
		}
	} else {
		pcpu_bitmap_init(s, ps, ci);
	}
	ps->nr_chunks++;
	if (ps->nr_chunks > ps->nr_max_chunks)
		ps->nr_max_chunks = ps->nr_chunks;
	ps->work[phase].chunks_created++;
	ev_emit(s, EV_PERCPU_CREATE_CHUNK, FN_PCPU_CREATE_CHUNK, cpu, NULL, ci, 0, 0,
		(int32_t)c->nr_pages, 0, 0);
	pcpu_chunk_relocate(s, ps, ci, -1, cpu, phase);
	return ci;
}

void pcpu_destroy_chunk(struct sim *s, struct pcpu_state *ps, uint32_t ci, int cpu, int phase)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);

	if (c->nr_populated)
		pcpu_depopulate(s, ps, ci, 0, (int)c->nr_pages, cpu, phase);
	slot_unlink(ps, ci);
	if (s->profile.percpu_allocator == PCPU_AREA_MAP)
		pcpu_map_release(ps, c);
	c->in_use = 0;
	c->next = ps->unused_chunks;
	ps->unused_chunks = ci;
	ps->nr_chunks--;
	ps->work[phase].chunks_destroyed++;
	ev_emit(s, EV_PERCPU_DESTROY_CHUNK, FN_PCPU_DESTROY_CHUNK, cpu, NULL, ci, 0, 0, 0, 0, 0);
}

/*
 * pcpu_balance_populated: populate free pages until PCPU_EMPTY_POP_PAGES_HIGH empty populated
 * pages exist (all of them after an atomic failure), from the chunks of slots that can hold a
 * page, fullest first; create a chunk when none has unpopulated pages left.
 */
static int balance_populated(struct sim *s, struct pcpu_state *ps, int cpu)
{
	int nr_to_pop = ps->atomic_alloc_failed ?
				PCPU_EMPTY_POP_PAGES_HIGH :
				PCPU_EMPTY_POP_PAGES_HIGH - ps->nr_empty_pop_pages;
	int populated = 0;

	if (nr_to_pop < 0)
		nr_to_pop = 0;
	if (nr_to_pop > PCPU_EMPTY_POP_PAGES_HIGH)
		nr_to_pop = PCPU_EMPTY_POP_PAGES_HIGH;
	ps->atomic_alloc_failed = 0;
	for (int tries = 0; tries < 2 && nr_to_pop > 0; tries++) {
		for (int slot = pcpu_size_to_slot_raw(PCPU_PAGE_SIZE);
		     slot <= (int)ps->free_slot && nr_to_pop > 0; slot++) {
			for (uint32_t ci = ps->slot_head[slot]; ci != PCPU_NONE && nr_to_pop > 0;) {
				struct pcpu_chunk *c = pcpu_chunk(ps, ci);
				uint32_t next = c->next;

				/* populate runs of free unpopulated pages (pcpu_for_each_unpop_region) */
				for (uint32_t p = 0; p < c->nr_pages && nr_to_pop > 0; p++) {
					uint32_t q = p;

					if (pcpu_page_populated(ps, ci, p))
						continue;
					while (q < c->nr_pages && !pcpu_page_populated(ps, ci, q) &&
					       (int)(q - p) < nr_to_pop)
						q++;
					if (pcpu_populate(s, ps, ci, (int)p, (int)q, cpu,
							  PCPU_PHASE_BALANCE))
						return populated;
					populated += (int)(q - p);
					nr_to_pop -= (int)(q - p);
					p = q;
				}
				ci = next;
			}
		}
		/* still short: a new chunk, then one more pass */
		if (nr_to_pop > 0 && pcpu_create_chunk(s, ps, cpu, PCPU_PHASE_BALANCE) == PCPU_NONE)
			break;
	}
	return populated;
}

void pcpu_balance_work(struct sim *s, struct pcpu_state *ps, int cpu)
{
	int freed = 0, populated,
	    depopulated_before = (int)ps->work[PCPU_PHASE_BALANCE].pages_depopulated;
	uint32_t keep = ps->slot_head[ps->free_slot];

	ps->balance_pending = 0;
	ps->work[PCPU_PHASE_BALANCE].ops++;
	/* pcpu_balance_free: every completely free dynamic chunk but the first on the free slot */
	for (uint32_t ci = keep; ci != PCPU_NONE;) {
		struct pcpu_chunk *c = pcpu_chunk(ps, ci);
		uint32_t next = c->next;

		if (ci != keep && !c->immutable) {
			pcpu_destroy_chunk(s, ps, ci, cpu, PCPU_PHASE_BALANCE);
			freed++;
		}
		ci = next;
	}
	/* 4.9-4.13: extend the maps atomic requests queued */
	if (s->profile.percpu_allocator == PCPU_AREA_MAP) {
		for (uint32_t ci = 0; ci < ps->max_chunks; ci++) {
			struct pcpu_chunk *c = pcpu_chunk(ps, ci);
			int new_alloc;

			if (!c->in_use || !c->map_extend_queued)
				continue;
			c->map_extend_queued = 0;
			new_alloc = pcpu_need_to_extend(ps, c, 0);
			if (new_alloc)
				pcpu_extend_area_map(s, ps, ci, new_alloc, cpu, PCPU_PHASE_BALANCE);
		}
	}
	/* 5.14+: pcpu_reclaim_populated: depopulate the empty pages of isolated chunks */
	if (s->profile.percpu_depopulate) {
		for (uint32_t ci = ps->slot_head[ps->to_depopulate_slot]; ci != PCPU_NONE;) {
			struct pcpu_chunk *c = pcpu_chunk(ps, ci);
			uint32_t next = c->next;
			int oslot;

			for (int p = (int)c->nr_pages - 1; p >= 0; p--) {
				if (ps->nr_empty_pop_pages < PCPU_EMPTY_POP_PAGES_HIGH)
					break;
				if (page_empty_populated(ps, ci, (uint32_t)p))
					pcpu_depopulate(s, ps, ci, p, p + 1, cpu,
							PCPU_PHASE_BALANCE);
			}
			/* back among the active slots when wholly free, else sidelined */
			c->isolated = 0;
			ps->nr_empty_pop_pages += c->nr_empty_pop_pages;
			oslot = c->slot;
			if (c->free_bytes == (int32_t)ps->unit_size) {
				pcpu_chunk_move(ps, ci, (int)ps->free_slot);
			} else {
				pcpu_chunk_move(ps, ci, (int)ps->sidelined_slot);
			}
			(void)oslot;
			ci = next;
		}
	}
	populated = balance_populated(s, ps, cpu);
	ev_emit(s, EV_PERCPU_BALANCE, FN_PCPU_BALANCE_WORKFN, cpu, NULL, 0, 0, 0, freed, populated,
		(int)ps->work[PCPU_PHASE_BALANCE].pages_depopulated - depopulated_before);
}
