/*
 * test_machine.c: which machine descriptions the core accepts, and the size of their arenas.
 * A description must be refused when its arena would not fit the state's 32-bit offsets, however
 * wide size_t is: wasm's is 32 bits, where a wrapped size once booted a corrupt state.
 */
#include "base/sim.h"
#include "harness.h"

TEST(machine_refuses_an_arena_past_32_bit_offsets)
{
	struct sim_config cfg;
	char arena[64] __attribute__((aligned(8)));

	/* a 256-page zone at the top of the pfn range: 2^31 frame stamps at max order 1 (16 GiB) */
	sim_config_default(&cfg);
	cfg.max_order = 1;
	cfg.pageblock_order = 1;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 0xfffff000u, 0x100, 0x100, 0x100 };
	CHECK_EQ(sim_state_size(&cfg), 0);
	CHECK_EQ(sim_init(arena, sizeof arena, &cfg), SIM_ECONFIG);

	/* the same zone at max order 10 needs 2^22 stamps (32 MiB): it fits */
	cfg.max_order = 10;
	cfg.pageblock_order = 9;
	CHECK(sim_state_size(&cfg) > ((size_t)1 << 25));
}

TEST(machine_stamps_are_bounded_so_any_machine_within_the_limits_fits)
{
	struct sim_config cfg;

	/* one stamp past MAX_FRAME_STAMPS is refused, the last one that fits is not */
	sim_config_default(&cfg);
	cfg.max_order = 3;
	cfg.pageblock_order = 3;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ ((uint32_t)MAX_FRAME_STAMPS << 3) - 0x100,
							  0x100, 0x100, 0x100 };
	CHECK(sim_state_size(&cfg) > 0);
	cfg.zones[0][ZONE_NORMAL].start_pfn += 8;
	CHECK_EQ(sim_state_size(&cfg), 0);

	/*
	 * Every array at its limit at once: the arena still fits 32-bit offsets, so arena_fits is
	 * never what refuses a machine the limits allow (the importers check only the limits).
	 */
	sim_config_default(&cfg);
	cfg.nr_nodes = MAX_NUMNODES;
	cfg.cpus_per_node = MAX_CPUS_PER_NODE;
	cfg.max_order = 10;
	cfg.pageblock_order = 9; /* MAX_PAGEBLOCKS at MAX_FRAMES */
	cfg.max_handles = MAX_HANDLES_LIMIT;
	cfg.event_capacity = MAX_EVENT_CAPACITY;
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			cfg.zones[nid][zid] = (struct zone_config){ 0 };
	cfg.zones[0][ZONE_NORMAL] =
		(struct zone_config){ 0, 0xfffff800u, 0xfffff800u, 0xfffff800u - 1024 };
	cfg.zones[MAX_NUMNODES - 1][ZONE_MOVABLE] = /* the highest pfn a zone may end below */
		(struct zone_config){ 0xfffff800u, 1024, 1024, 1024 };
	CHECK(sim_state_size(&cfg) > 0);
}
