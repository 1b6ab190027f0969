/*
 * test_random_stream.c: random streams (OP_RANDOM) and the handle slots they own. A stream's
 * header counts its live blocks, packed in the slots after it; no other stream may put its header
 * among them, or the first stream would later free that header as if it were a block.
 */
#include "base/sim.h"
#include "base/state.h"
#include "boot.h"
#include "harness.h"

/* One step of the stream at base: capacity slots, free_percent of steps free a block. */
static int stream_step(struct sim *s, uint32_t base, uint32_t capacity, uint32_t free_percent)
{
	struct sim_op op = { OP_RANDOM,	 0,    0,
			     GFP_KERNEL, base, (int32_t)(free_percent | (capacity << 7)) };
	return sim_apply(s, &op);
}

TEST(random_stream_header_cannot_sit_in_another_streams_slots)
{
	struct sim_config cfg;
	struct sim *s;
	struct sim_op free_slot = { OP_FREE, 0, 0, 0, 1, 0 };

	CHECK_EQ(sim_config_preset(&cfg, "tiny"), SIM_OK);
	s = test_boot(&cfg);
	CHECK(s != NULL);
	if (!s)
		return;
	/* stream A at 0 takes one block into slot 1; a plain free empties that slot */
	CHECK_EQ(stream_step(s, 0, 8, 0), SIM_OK);
	CHECK_EQ(sim_handles(s)[0].pfn, 1);
	CHECK_EQ(sim_apply(s, &free_slot), SIM_OK);
	/* slot 1 is still A's (its count says one live block): B may not start its header there */
	CHECK_EQ(stream_step(s, 1, 4, 0), SIM_EINVAL);
	CHECK(sim_handles(s)[1].order != HANDLE_STREAM);
	CHECK_EQ(sim_check(s), 0);
	/* A's free picks slot 1, which must not be a header (it was freed as an order-255 block) */
	CHECK_EQ(stream_step(s, 0, 8, 100), SIM_OK);
	CHECK_EQ(sim_handles(s)[0].pfn, PFN_NONE);
	CHECK_EQ(sim_check(s), 0);
	CHECK(!s->frozen);
	/* once A no longer counts slot 1, a stream may start there */
	CHECK_EQ(stream_step(s, 1, 4, 0), SIM_OK);
	CHECK_EQ(sim_handles(s)[1].order, HANDLE_STREAM);
	CHECK_EQ(sim_check(s), 0);
	free(s);
}
