/*
 * test_trace_flags.c: the trace text's flags column and mm_page_free_batched, per profile, as
 * each kernel's locks make them (docs/kernel/page_alloc/formats.md#e1-tracepoints):
 *   6.18/6.6  mm_page_alloc and mm_page_free outside any lock "....."; a pcp refill's
 *             mm_page_alloc_zone_locked under pcp_spin_trylock (2) + spin_lock_irqsave "d..3.";
 *             free_unref_folios / free_unref_page_list trace mm_page_free_batched under the pcp
 *             lock "...2."; a non-pcp order's zone_locked in rmqueue_buddy "d..1.".
 *   5.14/5.13 the pcp lists behind local_lock_irqsave: refill "d..1", batched "d...", four columns.
 *   4.9       free_hot_cold_page_list traces before the page's own free, outside any lock "....",
 *             and prints cold=0.
 */
#include "alloc_test_util.h"
#include "page_alloc/tracefmt.h"

/* The flags column of the first line of event `name` in text, copied into out (NUL-ended). */
static int flags_of(const char *text, const char *name, char out[8])
{
	char needle[48];
	const char *at;

	snprintf(needle, sizeof needle, " %s: ", name);
	at = strstr(text, needle);
	if (!at)
		return 0;
	/* "... [000] d..3.     0.000042: name: " : the flags end before the timestamp's spaces */
	{
		const char *line = at;
		const char *bracket;
		size_t n;

		while (line > text && line[-1] != '\n')
			line--;
		bracket = strstr(line, "] ");
		if (!bracket || bracket > at)
			return 0;
		bracket += 2;
		n = (size_t)(strchr(bracket, ' ') - bracket);
		if (n >= 8)
			return 0;
		memcpy(out, bracket, n);
		out[n] = 0;
	}
	return 1;
}

/* Boot `profile` on the small preset, allocate 40 order-0 movable pages and one order-4 block on CPU 0, free the pages as batches of 31 and 9; returns the trace text (caller frees). */
static char *batch_workload(int profile, struct sim **out)
{
	struct sim *s = at_preset("small", profile);
	char *text;
	size_t need;

	*out = s;
	if (!s)
		return NULL;
	for (uint32_t h = 0; h < 40; h++)
		CHECK_EQ(at_alloc(s, 0, GFP_HIGHUSER_MOVABLE, 0, h), SIM_OK);
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 4, 40), SIM_OK);
	CHECK_EQ(at_op(s, OP_FREE_BATCH, 0, 0, 0, 0, 31), SIM_OK);
	CHECK_EQ(at_op(s, OP_FREE_BATCH, 0, 0, 0, 31, 9), SIM_OK);
	need = sim_trace_render(s, 0, s->nr_events, NULL, 0);
	text = malloc(need + 1);
	if (text)
		sim_trace_render(s, 0, s->nr_events, text, need + 1);
	return text;
}

/* Lines of event `name` in text. */
static int count_lines(const char *text, const char *name)
{
	char needle[48];
	int n = 0;

	snprintf(needle, sizeof needle, " %s: ", name);
	for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle))
		n++;
	return n;
}

TEST(trace_flags_6_18_like_the_live_kernel)
{
	struct sim *s;
	char *text = batch_workload(PROFILE_6_18, &s);
	char f[8];

	CHECK(text != NULL);
	if (!text) {
		free(s);
		return;
	}
	CHECK(flags_of(text, "mm_page_alloc", f) && !strcmp(f, "....."));
	CHECK(flags_of(text, "mm_page_free", f) && !strcmp(f, "....."));
	CHECK(flags_of(text, "mm_page_free_batched", f) && !strcmp(f, "...2."));
	CHECK(flags_of(text, "mm_page_alloc_zone_locked", f) && !strcmp(f, "d..3."));
	/* 40 order-0 pages in batches of 31 and 9: each traced once by free_pages_prepare and once batched */
	CHECK_EQ(count_lines(text, "mm_page_free_batched"), 40);
	CHECK_EQ(count_lines(text, "mm_page_free"), 40);
	CHECK(strstr(text, "mm_page_free_batched: page=") != NULL);
	/* the context is restored after every lock: a later allocation is "....." again */
	CHECK_EQ(sim_cpus(s)[0].trace_ctx, 0);
	free(text);
	free(s);
}

/* 6.10+ free_unref_folios takes any order: an order-4 folio is prepared, then goes to the buddy. */
TEST(trace_free_batch_orders_by_version)
{
	for (int profile = 0; profile < NR_PROFILES; profile++) {
		struct sim *s = at_preset("small", profile);
		int frees = 0, batched = 0;

		CHECK(s != NULL);
		if (!s)
			return;
		CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 0, 0), SIM_OK);
		CHECK_EQ(at_alloc(s, 0, GFP_KERNEL | __GFP_COMP, 4, 1), SIM_OK);
		CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 0, 2), SIM_OK);
		sim_events_clear(s);
		CHECK_EQ(at_op(s, OP_FREE_BATCH, 0, 0, 0, 0, 3), SIM_OK);
		for (uint32_t i = 0; i < s->nr_events; i++) {
			frees += sim_events(s)[i].kind == EV_MM_PAGE_FREE;
			batched += sim_events(s)[i].kind == EV_MM_PAGE_FREE_BATCHED;
		}
		CHECK_EQ(frees, 3);
		/* the order-4 folio never reaches a pcp list through the batch (pcp orders stop at 3) */
		CHECK_EQ(batched, 2);
		if (s->profile.free_batch_rule == 2) {
			/* free_unref_folios: all three prepared before the first batched trace */
			CHECK_EQ(sim_events(s)[0].kind, EV_MM_PAGE_FREE);
			CHECK_EQ(sim_events(s)[0].order, 0);
		} else {
			/* release_pages: the compound page is put first, on its own */
			CHECK_EQ(sim_events(s)[0].kind, EV_MM_PAGE_FREE);
			CHECK_EQ(sim_events(s)[0].order, 4);
		}
		/* a bad handle in the batch frees nothing */
		sim_events_clear(s);
		CHECK_EQ(at_op(s, OP_FREE_BATCH, 0, 0, 0, 0, 3), SIM_EBADHANDLE);
		CHECK_EQ(at_op(s, OP_FREE_BATCH, 0, 0, 0, 0, 32), SIM_EBADHANDLE);
		free(s);
	}
}

TEST(trace_flags_older_profiles)
{
	struct sim *s;
	char *text = batch_workload(PROFILE_5_14, &s);
	char f[8];

	CHECK(text != NULL);
	if (text) {
		CHECK(flags_of(text, "mm_page_alloc", f) && !strcmp(f, "...."));
		CHECK(flags_of(text, "mm_page_free_batched", f) && !strcmp(f, "d..."));
		CHECK(flags_of(text, "mm_page_alloc_zone_locked", f) && !strcmp(f, "d..1"));
		CHECK_EQ(count_lines(text, "mm_page_free_batched"), 40);
	}
	free(text);
	free(s);

	text = batch_workload(PROFILE_2016_V5, &s);
	CHECK(text != NULL);
	if (text) {
		CHECK(flags_of(text, "mm_page_free_batched", f) && !strcmp(f, "...."));
		CHECK(strstr(text, "order=0 cold=0\n") != NULL);
		CHECK(flags_of(text, "mm_page_alloc_zone_locked", f) && !strcmp(f, "d..1"));
	}
	free(text);
	free(s);

	text = batch_workload(PROFILE_6_6, &s);
	CHECK(text != NULL);
	if (text) {
		CHECK(flags_of(text, "mm_page_free_batched", f) && !strcmp(f, "...2."));
		CHECK(flags_of(text, "mm_page_alloc_zone_locked", f) && !strcmp(f, "d..3."));
	}
	free(text);
	free(s);
}

/* A buddy allocation of a non-pcp order takes zone->lock alone: "d..1." in 6.18. */
TEST(trace_flags_rmqueue_buddy)
{
	struct sim *s = at_preset("small", PROFILE_6_18);
	char *text;
	size_t need;
	char f[8];

	CHECK(s != NULL);
	if (!s)
		return;
	sim_events_clear(s);
	CHECK_EQ(at_alloc(s, 0, GFP_HIGHUSER_MOVABLE, 5, 0), SIM_OK);
	need = sim_trace_render(s, 0, s->nr_events, NULL, 0);
	text = malloc(need + 1);
	CHECK(text != NULL);
	if (text) {
		sim_trace_render(s, 0, s->nr_events, text, need + 1);
		CHECK(flags_of(text, "mm_page_alloc_zone_locked", f) && !strcmp(f, "d..1."));
	}
	free(text);
	free(s);
}
