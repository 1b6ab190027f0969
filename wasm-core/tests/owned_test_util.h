/* owned_test_util.h: a raw free of a page another subsystem owns, as the percpu and fault tests try it. */
#ifndef BUDDYSCOPE_OWNED_TEST_UTIL_H
#define BUDDYSCOPE_OWNED_TEST_UTIL_H

#include "base/sim.h"
#include "base/state.h"
#include "harness.h"

/*
 * OP_FREE_PFN of pfn at `order` on CPU 0 must be refused as a bad page (SIM_EBADPAGE, one
 * EV_BAD_PAGE naming pfn with BAD_OWNED), the page still its owner's and the state still clean.
 */
static void check_raw_free_refused_as_owned(struct sim *s, uint32_t pfn, int order)
{
	struct sim_op op = { .kind = OP_FREE_PFN, .order = (uint8_t)order, .handle = pfn };
	uint64_t bad = s->ev.bad_page;

	sim_events_clear(s);
	CHECK_EQ(sim_apply(s, &op), SIM_EBADPAGE);
	CHECK_EQ(s->nr_events, 1u);
	CHECK_EQ(sim_events(s)[0].kind, EV_BAD_PAGE);
	CHECK_EQ(sim_events(s)[0].a, BAD_OWNED);
	CHECK_EQ(sim_events(s)[0].pfn, pfn);
	CHECK_EQ(s->ev.bad_page, bad + 1);
	CHECK_EQ(frame_at(s, pfn)->state, PG_ALLOCATED);
	CHECK(frame_at(s, pfn)->flags & PAGEF_OWNED);
	CHECK_EQ(s->frozen, 0);
	CHECK_EQ(sim_check(s), SIM_OK);
}

#endif
