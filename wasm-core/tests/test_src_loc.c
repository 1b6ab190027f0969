/*
 * test_src_loc.c: every event names the line of the model that emitted it (base/src_loc.h). The
 * hashes below are the ones scripts/gen/sources.mjs computes (web/core/src-loc.test.ts holds the
 * same two numbers), so the C and the table the Code view reads agree.
 */
#include "base/src_loc.h"
#include "buddy_test_util.h"

/* The file hash agrees with the generator's (base-131 polynomial, folded to 16 bits). */
TEST(src_loc_hash_matches_the_generator)
{
	CHECK_EQ(SRC_FILE_HASH("src/page_alloc/buddy.c"), 23175);
	CHECK_EQ(SRC_FILE_HASH("src/base/event.h"), 57938);
	CHECK(SRC_FILE_HASH("src/page_alloc/pcp.c") != SRC_FILE_HASH("src/page_alloc/buddy.c"));
}

/* A split and an allocation from the buddy lists name buddy.c and the line of their ev_emit. */
TEST(src_loc_events_name_their_emitting_line)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	const struct sim_event *split, *alloc;

	CHECK(s != NULL);
	if (!s)
		return;
	bt_alloc(s, 0, MIGRATE_MOVABLE, 0);
	split = bt_event(s, EV_BUDDY_SPLIT, 0);
	alloc = bt_event(s, EV_MM_PAGE_ALLOC_ZONE_LOCKED, 0);
	CHECK(split != NULL);
	CHECK(alloc != NULL);
	if (split && alloc) {
		CHECK_EQ(split->src_file, SRC_FILE_HASH("src/page_alloc/buddy.c"));
		CHECK_EQ(alloc->src_file, SRC_FILE_HASH("src/page_alloc/buddy.c"));
		/* expand() emits the split before __rmqueue_smallest reports the allocation */
		CHECK(split->src_line > 0);
		CHECK(alloc->src_line > split->src_line);
	}
	for (uint32_t i = 0; i < s->nr_events; i++)
		CHECK(sim_event_buf(s)[i].src_line > 0);
	free(s);
}
