/*
 * test_percpu.c: the percpu allocator against mm/percpu.c of 4.13 (area map), 4.14 (first bitmap
 * allocator), 5.1 (scan hints) and 6.18: first-chunk geometry and the boot line, the exact map[]
 * and block hints after known requests, the kernel's refusals, the free path's stale chunk hint,
 * the kernel's text formats, and random streams with the checker after every op.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sim.h"
#include "boot.h"
#include "harness.h"
#include "owned_test_util.h"
#include "page_alloc/tracefmt.h"
#include "percpu/percpu.h"
#include "percpu/vocab.h"

/* A 2-CPU machine of 64 MiB (the tiny machine's pages are too few to populate much). */
static struct sim *boot_percpu(int profile, uint32_t static_size, uint32_t peak_kib)
{
	struct sim_config cfg;

	if (sim_config_preset(&cfg, "small") != SIM_OK)
		return NULL;
	cfg.profile = (uint8_t)profile;
	cfg.percpu_static_size = static_size;
	cfg.percpu_peak_kib = peak_kib;
	cfg.max_handles = 1 << 16;
	cfg.event_capacity = 1 << 12;
	return test_boot(&cfg);
}

/* Apply one percpu op and clear the events. */
static int pcpu_op(struct sim *s, int kind, uint32_t handle, int size, int align, int flags,
		   uint32_t gfp)
{
	struct sim_op op = { .kind = (uint8_t)kind,
			     .order = (uint8_t)flags,
			     .cpu = 0,
			     .gfp = gfp,
			     .handle = handle,
			     .arg = (int32_t)((uint32_t)size | ((uint32_t)align << 16)) };
	sim_events_clear(s);
	return sim_apply(s, &op);
}

static int palloc(struct sim *s, uint32_t h, int size, int align)
{
	return pcpu_op(s, OP_PERCPU_ALLOC, h, size, align, 0, GFP_KERNEL);
}

static int pfree(struct sim *s, uint32_t h)
{
	return pcpu_op(s, OP_PERCPU_FREE, h, 0, 0, 0, 0);
}

/* The last event of a kind in the buffer, or NULL. */
static const struct sim_event *last_event(const struct sim *s, int kind)
{
	const struct sim_event *e = sim_events(s);

	for (uint32_t i = s->nr_events; i-- > 0;)
		if (e[i].kind == kind)
			return &e[i];
	return NULL;
}

TEST(percpu_boot_line_matches_the_live_machines)
{
	/* the capture docs/kernel/percpu.md cites (K.1) and this machine on another boot: 2 CPUs, no modules */
	static const struct {
		uint32_t static_size;
		const char *line;
	} cases[] = {
		{ 185560, "percpu: Embedded 53 pages/cpu s185560 r0 d31528 u1048576" },
		{ 185496, "percpu: Embedded 53 pages/cpu s185496 r0 d31592 u1048576" },
	};
	char buf[128];

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct sim *s = boot_percpu(PROFILE_6_18, cases[i].static_size, 0);
		CHECK(s);
		if (!s)
			return;
		pcpu_boot_line(s, buf, sizeof buf);
		CHECK(strcmp(buf, cases[i].line) == 0);
		free(s);
	}
}

TEST(percpu_first_chunk_layout_6_18)
{
	struct sim *s = boot_percpu(PROFILE_6_18, 185560, 0);
	struct pcpu_state *ps;
	struct pcpu_chunk *c;

	CHECK(s);
	if (!s)
		return;
	ps = pcpu_state(s);
	c = pcpu_chunk(ps, ps->first_chunk);
	/* pcpu_alloc_first_chunk: base 45 pages in, 1240 bytes hidden, 8 pages, nothing at the end */
	CHECK_EQ(c->base_offset, 45 * 4096);
	CHECK_EQ(c->start_offset, 1240);
	CHECK_EQ(c->end_offset, 0);
	CHECK_EQ(c->nr_pages, 8);
	CHECK_EQ(c->free_bytes, 31528);
	CHECK_EQ(c->chunk_md.first_free, 310);
	CHECK_EQ(c->chunk_md.contig_hint, 31528 / 4);
	/* 6.18's slots for 1 MiB units: sizes up to slot 18, sidelined 19, free 20, to_depopulate 21 */
	CHECK_EQ(ps->free_slot, 20);
	CHECK_EQ(ps->nr_slots, 22);
	CHECK_EQ(ps->nr_populated, 53);
	CHECK_EQ(ps->nr_empty_pop_pages, 7); /* pages 1..7; page 0 holds the hidden head */
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

TEST(percpu_bitmap_hints_after_a_16_byte_alloc)
{
	struct sim *s = boot_percpu(PROFILE_6_18, 185560, 0);
	struct pcpu_state *ps;
	const struct pcpu_block_md *b0;
	const struct sim_event *e;

	CHECK(s);
	if (!s)
		return;
	ps = pcpu_state(s);
	CHECK_EQ(palloc(s, 0, 16, 8), SIM_OK);
	e = last_event(s, EV_PERCPU_ALLOC_PERCPU);
	CHECK(e);
	if (!e)
		return;
	CHECK_EQ(e->a, 1240); /* the first free byte, 8-aligned */
	CHECK_EQ(e->b, 16);
	CHECK_EQ(e->c, 8);
	b0 = pcpu_md_blocks(ps, ps->first_chunk);
	CHECK_EQ(b0->first_free, 314);
	CHECK_EQ(b0->contig_hint, 1024 - 314);
	CHECK_EQ(b0->contig_hint_start, 314);
	CHECK_EQ(b0->left_free, 0);
	CHECK_EQ(b0->right_free, 1024 - 314);
	CHECK_EQ(sim_check(s), SIM_OK);
	/* freeing restores the block: the free run reaches back to the hidden head */
	CHECK_EQ(pfree(s, 0), SIM_OK);
	CHECK_EQ(b0->first_free, 310);
	CHECK_EQ(b0->contig_hint, 1024 - 310);
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

TEST(percpu_area_map_split_and_merge_4_13)
{
	struct sim *s = boot_percpu(PROFILE_4_13, 185560, 0);
	struct pcpu_state *ps;
	struct pcpu_chunk *c;
	uint64_t moved;

	CHECK(s);
	if (!s)
		return;
	ps = pcpu_state(s);
	c = pcpu_chunk(ps, ps->first_chunk);
	/* 4.9's first chunk: { 0|1, static, static + dyn | 1 }; dyn is the page-rounded rest */
	CHECK_EQ(c->map_used, 2);
	CHECK_EQ(pcpu_map_get(ps, c, 0), 1);
	CHECK_EQ(pcpu_map_get(ps, c, 1), 185560);
	CHECK_EQ(pcpu_map_get(ps, c, 2), (185560 + 31528) | 1);
	/* three 4-byte areas: each splits the tail, moving the sentinel (one entry) */
	for (uint32_t h = 0; h < 3; h++)
		CHECK_EQ(palloc(s, h, 4, 4), SIM_OK);
	CHECK_EQ(c->map_used, 5);
	CHECK_EQ(pcpu_map_get(ps, c, 1), 185560 | 1);
	CHECK_EQ(pcpu_map_get(ps, c, 2), 185564 | 1);
	CHECK_EQ(pcpu_map_get(ps, c, 4), 185572);
	CHECK_EQ(ps->work[PCPU_PHASE_ALLOC].bytes_memmoved, 3 * 4);
	CHECK_EQ(c->first_free, 4);
	/* free the first: no free neighbour, no memmove; then the second merges with it */
	CHECK_EQ(pfree(s, 0), SIM_OK);
	CHECK_EQ(ps->work[PCPU_PHASE_FREE].bytes_memmoved, 0);
	CHECK_EQ(c->first_free, 1);
	CHECK_EQ(pfree(s, 1), SIM_OK);
	/* map { 0|1, 185560, 185568|1, 185572, end|1 }: merged at index 1, two entries after it */
	moved = ps->work[PCPU_PHASE_FREE].bytes_memmoved;
	CHECK_EQ(moved, 3 * 4);
	CHECK_EQ(c->map_used, 4);
	CHECK_EQ(pcpu_map_get(ps, c, 2), 185568 | 1);
	CHECK_EQ(c->contig_hint, 31528 - 12 > 8 ? c->contig_hint : 0);
	CHECK_EQ(sim_check(s), SIM_OK);
	/* the last one merges both sides */
	CHECK_EQ(pfree(s, 2), SIM_OK);
	CHECK_EQ(c->map_used, 2);
	CHECK_EQ(c->free_bytes, 31528);
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

TEST(percpu_area_map_head_below_an_int_is_lost_4_13)
{
	/* 4 bytes at align 8 after a 4-byte area: the 4-byte head is no smaller than an int but
	   follows an area in use, so it stays a hole (the 52-minute case of seed 002) */
	struct sim *s = boot_percpu(PROFILE_4_13, 185560, 0);
	struct pcpu_state *ps;
	struct pcpu_chunk *c;

	CHECK(s);
	if (!s)
		return;
	ps = pcpu_state(s);
	c = pcpu_chunk(ps, ps->first_chunk);
	CHECK_EQ(palloc(s, 0, 4, 8), SIM_OK); /* 185560 is 8-aligned */
	CHECK_EQ(palloc(s, 1, 4, 8), SIM_OK); /* 185564: head 4 -> hole at 185564, area at 185568 */
	CHECK_EQ(pcpu_map_get(ps, c, 2), 185564);
	CHECK_EQ(pcpu_map_get(ps, c, 3), 185568 | 1);
	CHECK_EQ(c->first_free, 2);
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

TEST(percpu_refuses_what_the_kernel_refuses)
{
	static const int profiles[] = { PROFILE_4_13, PROFILE_6_18 };

	for (size_t p = 0; p < 2; p++) {
		struct sim *s = boot_percpu(profiles[p], 185560, 0);
		const struct sim_event *e;

		CHECK(s);
		if (!s)
			return;
		CHECK_EQ(palloc(s, 0, 0, 4), SIM_EINVAL);
		CHECK_EQ(palloc(s, 0, 32769, 4), SIM_EINVAL);
		/* 4.14+ raise an align below 4 to 4 before the power-of-two test; 4.13 to 2 */
		CHECK_EQ(palloc(s, 0, 8, profiles[p] == PROFILE_4_13 ? 3 : 12), SIM_EINVAL);
		CHECK_EQ(palloc(s, 0, 8, 8192), SIM_EINVAL);
		e = last_event(s, EV_PERCPU_BAD_REQUEST);
		CHECK(e && e->c == PCPU_BAD_ALIGN);
		CHECK_EQ(pfree(s, 5), SIM_EINVAL);
		CHECK_EQ(palloc(s, 0, 32768, 4096), SIM_OK); /* the largest legal request */
		CHECK_EQ(palloc(s, 0, 8, 8), SIM_EINVAL);    /* the handle is busy */
		CHECK_EQ(sim_check(s), SIM_OK);
		free(s);
	}
}

/* The small machine with a percpu handle table of `handles` entries and room for more page handles. */
static struct sim_config percpu_table_config(int profile, uint32_t handles)
{
	struct sim_config cfg;

	sim_config_preset(&cfg, "small");
	cfg.profile = (uint8_t)profile;
	cfg.max_handles = 1 << 16;
	cfg.percpu_handles = handles;
	cfg.event_capacity = 1 << 12;
	return cfg;
}

TEST(percpu_handle_table_is_sized_by_percpu_handles)
{
	static const int profiles[] = { PROFILE_4_13, PROFILE_6_18 };

	for (size_t p = 0; p < 2; p++) {
		struct sim_config none = percpu_table_config(profiles[p], 1);
		struct sim_config some = percpu_table_config(profiles[p], 1001);
		/* each entry: a struct pcpu_handle, and on 4.13 four area-map entries of the pool */
		size_t per = sizeof(struct pcpu_handle) + (profiles[p] == PROFILE_4_13 ? 4 * 4 : 0);
		size_t a = sim_state_size(&none), b = sim_state_size(&some);

		CHECK(a > 0);
		CHECK(b >= a + 1000 * per && b <= a + 1000 * per + 16);
		/* the page handles' table does not size it: more of them add 8 bytes each */
		none.max_handles = some.max_handles = 1 << 20;
		CHECK_EQ(sim_state_size(&none),
			 a + ((1u << 20) - (1u << 16)) * sizeof(struct handle));
	}
}

TEST(percpu_handles_beyond_the_table_are_refused_with_their_reason)
{
	static const int profiles[] = { PROFILE_4_13, PROFILE_6_18 };

	for (size_t p = 0; p < 2; p++) {
		struct sim_config cfg = percpu_table_config(profiles[p], 4);
		struct sim *s = test_boot(&cfg);
		const struct sim_event *e;

		CHECK(s);
		if (!s)
			return;
		CHECK_EQ(palloc(s, 3, 16, 4), SIM_OK); /* the last entry */
		CHECK_EQ(palloc(s, 4, 16, 4), SIM_EINVAL);
		e = last_event(s, EV_PERCPU_BAD_REQUEST);
		CHECK(e && e->c == PCPU_BAD_HANDLE_RANGE && e->a == 16);
		CHECK_EQ(palloc(s, 0xffffffffu, 16, 4), SIM_EINVAL);
		e = last_event(s, EV_PERCPU_BAD_REQUEST);
		CHECK(e && e->c == PCPU_BAD_HANDLE_RANGE);
		CHECK_EQ(pfree(s, 4), SIM_EINVAL);
		e = last_event(s, EV_PERCPU_BAD_REQUEST);
		CHECK(e && e->c == PCPU_BAD_HANDLE_RANGE);
		CHECK_EQ(pfree(s, 2), SIM_EINVAL); /* in the table, but empty */
		e = last_event(s, EV_PERCPU_BAD_REQUEST);
		CHECK(e && e->c == PCPU_BAD_HANDLE);
		CHECK_EQ(pfree(s, 3), SIM_OK);
		CHECK_EQ(s->frozen, 0u);
		CHECK_EQ(sim_check(s), SIM_OK);
		free(s);

		/* no table at all: a workload without percpu requests; any request is refused */
		cfg = percpu_table_config(profiles[p], 0);
		s = test_boot(&cfg);
		CHECK(s);
		if (!s)
			return;
		CHECK_EQ(palloc(s, 0, 16, 4), SIM_EINVAL);
		e = last_event(s, EV_PERCPU_BAD_REQUEST);
		CHECK(e && e->c == PCPU_BAD_HANDLE_RANGE);
		/* its chunk table holds the first chunk alone: the balance work needs no other */
		CHECK_EQ(pcpu_state(s)->max_chunks, 1u);
		CHECK(pcpu_state(s)->nr_empty_pop_pages >= PCPU_EMPTY_POP_PAGES_HIGH);
		CHECK_EQ(pcpu_op(s, OP_PERCPU_BALANCE, 0, 0, 0, 0, 0), SIM_OK);
		CHECK(last_event(s, EV_PERCPU_CREATE_CHUNK) == NULL);
		CHECK_EQ(sim_check(s), SIM_OK);
		free(s);
		cfg.percpu_reserved_size = 8192;
		s = test_boot(&cfg);
		CHECK(s && pcpu_state(s)->max_chunks == 2u);
		free(s);
	}
}

TEST(percpu_handles_above_the_limit_are_not_a_machine)
{
	struct sim_config cfg = percpu_table_config(PROFILE_6_18, MAX_HANDLES_LIMIT);

	CHECK(sim_state_size(&cfg) > 0);
	cfg.percpu_handles = MAX_HANDLES_LIMIT + 1;
	CHECK_EQ(sim_state_size(&cfg), 0u);
}

TEST(percpu_free_keeps_a_stale_chunk_hint_where_the_kernel_does)
{
	/* fill the first chunk with 16-byte areas, free one in block 1: 6.18 passes a block-relative
	   end, so the chunk hint stays; a free that empties a whole block refreshes it */
	struct sim *s = boot_percpu(PROFILE_6_18, 185560, 64);
	struct pcpu_state *ps;
	struct pcpu_chunk *c;
	uint32_t n = 0;

	CHECK(s);
	if (!s)
		return;
	ps = pcpu_state(s);
	c = pcpu_chunk(ps, ps->first_chunk);
	while (c->free_bytes >= 16 && n < 4096) {
		CHECK_EQ(palloc(s, n, 16, 4), SIM_OK);
		n++;
	}
	CHECK_EQ(c->chunk_md.contig_hint, 2); /* 8 bytes left at the end */
	/* area 300 starts at byte 1240 + 4800 = 6040: block 1 */
	CHECK_EQ(pfree(s, 300), SIM_OK);
	CHECK(last_event(s, EV_PERCPU_HINT_KEPT) != NULL);
	CHECK_EQ(c->chunk_md.contig_hint, 2);
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);

	/* 4.14 offers the run's start with the block's hint as length: raised, not exact */
	s = boot_percpu(PROFILE_4_14, 185560, 64);
	CHECK(s);
	if (!s)
		return;
	ps = pcpu_state(s);
	c = pcpu_chunk(ps, ps->first_chunk);
	for (n = 0; c->free_bytes >= 16 && n < 4096; n++)
		CHECK_EQ(palloc(s, n, 16, 4), SIM_OK);
	CHECK_EQ(pfree(s, 300), SIM_OK);
	CHECK_EQ(c->chunk_md.contig_hint, 4);
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

TEST(percpu_dynamic_chunks_populate_from_the_page_allocator)
{
	static const int profiles[] = { PROFILE_4_13, PROFILE_4_14, PROFILE_5_1, PROFILE_6_18 };

	for (size_t p = 0; p < 4; p++) {
		struct sim *s = boot_percpu(profiles[p], 185560, 256);
		struct pcpu_state *ps;
		char buf[64];

		CHECK(s);
		if (!s)
			return;
		ps = pcpu_state(s);
		/* 40 KiB of 1 KiB areas: the first chunk holds 30, the rest go to a new chunk */
		for (uint32_t h = 0; h < 40; h++)
			CHECK_EQ(palloc(s, h, 1024, 8), SIM_OK);
		CHECK_EQ(ps->nr_chunks, 2);
		CHECK(ps->work[PCPU_PHASE_ALLOC].chunks_created == 1);
		CHECK(ps->work[PCPU_PHASE_ALLOC].pages_populated >= 2);
		pcpu_meminfo_line(s, buf, sizeof buf);
		CHECK(strncmp(buf, "Percpu:         ", 16) == 0);
		CHECK_EQ(sim_check(s), SIM_OK);
		for (uint32_t h = 0; h < 40; h++)
			CHECK_EQ(pfree(s, h), SIM_OK);
		CHECK_EQ(sim_check(s), SIM_OK);
		free(s);
	}
}

/*
 * A raw free (OP_FREE_PFN) of a page a dynamic chunk holds is refused as a bad page, at its order
 * and at any other, and changes nothing; the chunk's own free and depopulation still give it back.
 * (fuzz case 3431503765865516484 freed such a page and left the chunk naming a free frame.)
 */
TEST(percpu_backing_pages_refuse_a_raw_free)
{
	struct sim *s = boot_percpu(PROFILE_6_18, 185560, 256);
	struct pcpu_state *ps;
	uint32_t pfn = PFN_NONE, held;

	CHECK(s);
	if (!s)
		return;
	ps = pcpu_state(s);
	for (uint32_t h = 0; h < 40; h++)
		CHECK_EQ(palloc(s, h, 1024, 8), SIM_OK);
	for (uint32_t ci = 0; ci < ps->max_chunks && pfn == PFN_NONE; ci++) {
		struct pcpu_chunk *c = pcpu_chunk(ps, ci);
		for (uint32_t p = 0; c->in_use && !c->immutable && p < c->nr_pages; p++)
			if (pcpu_page_populated(ps, ci, p)) {
				pfn = pcpu_pfns(ps, ci)[(size_t)p * s->nr_cpus + 1];
				break;
			}
	}
	CHECK(pfn != PFN_NONE);
	if (pfn == PFN_NONE) {
		free(s);
		return;
	}
	held = (uint32_t)percpu_owned_pages(s);
	CHECK(held >= 2 * s->nr_cpus);
	check_raw_free_refused_as_owned(s, pfn, 0);
	check_raw_free_refused_as_owned(s, pfn, 3);
	CHECK_EQ(percpu_owned_pages(s), held);
	/* the owner's own path still works: every area freed, then the balance work */
	for (uint32_t h = 0; h < 40; h++)
		CHECK_EQ(pfree(s, h), SIM_OK);
	CHECK_EQ(pcpu_op(s, OP_PERCPU_BALANCE, 0, 0, 0, 0, 0), SIM_OK);
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

TEST(percpu_random_streams_keep_every_invariant)
{
	static const int profiles[] = { PROFILE_4_13, PROFILE_4_14, PROFILE_5_1, PROFILE_6_18 };

	for (size_t p = 0; p < 4; p++) {
		struct sim *s = boot_percpu(profiles[p], 185560, 1024);
		uint64_t x = 0x9E3779B97F4A7C15ull + p;
		enum { HANDLES = 600 };
		uint8_t live[HANDLES] = { 0 };
		uint32_t sizes_dbg = 0;
		int bad = 0;

		CHECK(s);
		if (!s)
			return;
		for (int step = 0; step < 6000 && !bad; step++) {
			uint32_t h;
			int err;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			h = (uint32_t)(x % HANDLES);
			sizes_dbg = 0;
			if (live[h]) {
				err = pfree(s, h);
				live[h] = 0;
			} else {
				static const int sizes[] = { 4,	  8,   12,   16,   24,	64,
							     100, 128, 1024, 4096, 9000 };
				int size = sizes[(x >> 20) % 11], align = 1 << ((x >> 30) % 7);
				int atomic = ((x >> 40) & 7) == 0;

				sizes_dbg = (uint32_t)size | ((uint32_t)align << 16);
				err = pcpu_op(s, OP_PERCPU_ALLOC, h, size, align, 0,
					      atomic ? GFP_NOWAIT : GFP_KERNEL);
				live[h] = err == SIM_OK;
				if (err == SIM_ENOMEM)
					err = SIM_OK;
			}
			if (step % 500 == 499) {
				struct sim_op tick = { .kind = OP_TICK, .arg = 1 };
				CHECK_EQ(sim_apply(s, &tick), SIM_OK);
			}
			sim_events_clear(s);
			CHECK_EQ(err, SIM_OK);
			if (sim_check(s) != SIM_OK) {
				fprintf(stderr,
					"profile %s step %d handle %u %s size %d align %d\n",
					s->profile.name, step, h, live[h] ? "alloc" : "free",
					(int)(sizes_dbg & 0xffff), (int)(sizes_dbg >> 16));
				harness_fail(__FILE__, __LINE__, s->error);
				bad = 1;
			}
		}
		free(s);
	}
}

TEST(percpu_stats_and_trace_text_in_the_kernels_format)
{
	struct sim *s = boot_percpu(PROFILE_6_18, 185560, 0);
	char buf[4096];
	const char *want_head = "Percpu Memory Statistics\nAllocation Info:\n"
				"----------------------------------------\n"
				"  unit_size           :      1048576\n"
				"  static_size         :       185560\n"
				"  reserved_size       :            0\n"
				"  dyn_size            :        31528\n"
				"  atom_size           :      2097152\n"
				"  alloc_size          :      2097152\n\nGlobal Stats:\n";

	CHECK(s);
	if (!s)
		return;
	CHECK_EQ(palloc(s, 0, 16, 4), SIM_OK);
	pcpu_stats_render(s, buf, sizeof buf);
	CHECK(strncmp(buf, want_head, strlen(want_head)) == 0);
	CHECK(strstr(buf, "Chunk: <- First Chunk\n  nr_alloc            :            1\n"));
	CHECK(strstr(buf, "  first_bit           :          314\n"));
	CHECK(strstr(buf, "  cur_med_alloc       :           16\n"));
	sim_trace_render(s, 0, s->nr_events, buf, sizeof buf);
	CHECK(strstr(buf, "percpu_alloc_percpu: call_site=") != NULL);
	CHECK(strstr(buf, " reserved=0 is_atomic=0 size=16 align=4 base_addr=") != NULL);
	CHECK(strstr(buf, " bytes_alloc=32 gfp_flags=GFP_KERNEL\n") != NULL);
	free(s);

	s = boot_percpu(PROFILE_4_14, 185560, 0);
	CHECK(s);
	if (!s)
		return;
	CHECK_EQ(palloc(s, 0, 16, 4), SIM_OK);
	sim_trace_render(s, 0, s->nr_events, buf, sizeof buf);
	CHECK(strstr(buf,
		     "percpu_alloc_percpu: reserved=0 is_atomic=0 size=16 align=4 base_addr=") !=
	      NULL);
	CHECK(strstr(buf, "call_site") == NULL);
	free(s);
}
