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
