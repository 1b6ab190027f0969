/*
 * test_machine.c: which machine descriptions the core accepts, and the size of their arenas.
 * A description must be refused when its arena would not fit the state's 32-bit offsets, however
 * wide size_t is: wasm's is 32 bits, where a wrapped size once booted a corrupt state.
 */
#include <stdlib.h>

#include "base/sim.h"
#include "base/state.h"
#include "boot.h"
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
	cfg.cpus_per_node = MAX_CPUS / MAX_NUMNODES; /* 64 nodes x 16 CPUs: MAX_CPUS */
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

/* Apply one op, then the checker; fails the test on a checker error. */
static int apply_checked(struct sim *s, int kind, int cpu, int order, uint32_t gfp, uint32_t handle)
{
	struct sim_op op = { .kind = (uint8_t)kind,
			     .order = (uint8_t)order,
			     .cpu = (uint16_t)cpu,
			     .gfp = gfp,
			     .handle = handle };
	int err = sim_apply(s, &op);

	if (sim_check(s) != SIM_OK) {
		fprintf(stderr, "    sim_check after op %u: %s\n", s->op_seq, s->error);
		harness_fail(__FILE__, __LINE__, "sim_check after every op");
	}
	return err;
}

TEST(machine_64_nodes_1024_cpus_boot_allocate_and_free_across_nodes)
{
	struct sim_config cfg;
	struct sim *s;
	size_t size;

	/* 64 nodes of 16 CPUs and 4 GiB each (node 0 with the low zones): MAX_NUMNODES, MAX_CPUS */
	sim_config_default(&cfg);
	cfg.nr_nodes = MAX_NUMNODES;
	cfg.cpus_per_node = MAX_CPUS / MAX_NUMNODES;
	cfg.zones[0][ZONE_DMA] = (struct zone_config){ 1, 4095, 3998, 3840 };
	cfg.zones[0][ZONE_DMA32] = (struct zone_config){ 4096, 1044480, 782336, 772915 };
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		uint32_t start = (1u << 20) * (uint32_t)(nid + 1);

		cfg.zones[nid][ZONE_NORMAL] =
			(struct zone_config){ start, 1u << 20, 1u << 20, (1u << 20) - 4096 };
		for (int other = 0; other < MAX_NUMNODES; other++)
			cfg.distance[nid][other] = nid == other		? 10 :
						   nid / 8 == other / 8 ? 16 :
									  32;
	}
	size = sim_state_size(&cfg);
	CHECK(size > 0);
	s = test_boot(&cfg);
	CHECK(s != NULL);
	if (!s)
		return;
	/*
	 * The fixed state (before the pool of slabs, what a snapshot always copies) is the machine's:
	 * 64 nodes, 1024 CPUs x 67 pcp records (66 populated zones + the shared empty one) = 14 MB,
	 * not the 65 MiB of a record per (CPU, node, zone). The pool is the frame budget.
	 */
	fprintf(stderr, "    64 nodes x 16 CPUs: arena %zu bytes, fixed state %u bytes\n", size,
		s->pool_off);
	CHECK_EQ(s->pcp_off + (size_t)MAX_CPUS * 67 * sizeof(struct per_cpu_pages) <=
			 s->handles_off,
		 1);
	CHECK(s->pool_off < ((uint32_t)24 << 20));
	CHECK_EQ(s->nr_cpus, MAX_CPUS);
	CHECK_EQ(s->nr_pcp_zones, 67);
	CHECK_EQ(sim_check(s), SIM_OK);
	/* every node's zonelist holds every populated zone: 64 Normal + DMA32 + DMA */
	CHECK_EQ(sim_nodes(s)[63].zonelist_len, 66);
	CHECK_EQ(sim_nodes(s)[0].zonelist_len, 66);

	/* CPUs of distant nodes allocate (from their own node) and free each other's blocks */
	for (uint32_t h = 0; h < 64; h++) {
		int cpu = (int)(h * 16 + 15); /* the last CPU of node h */

		CHECK_EQ(apply_checked(s, OP_ALLOC, cpu, (int)(h % 4), GFP_KERNEL, h), SIM_OK);
		CHECK_EQ(sim_handles(s)[h].node, h);
	}
	/* __GFP_THISNODE on node 63's last CPU allocates there; node 0's DMA32 serves GFP_DMA32 */
	CHECK_EQ(apply_checked(s, OP_ALLOC, 1023, 0, GFP_KERNEL | __GFP_THISNODE, 64), SIM_OK);
	CHECK_EQ(sim_handles(s)[64].node, 63);
	CHECK_EQ(apply_checked(s, OP_ALLOC, 1023, 0, GFP_KERNEL | GFP_DMA32, 65), SIM_OK);
	CHECK_EQ(sim_handles(s)[65].node, 0);
	CHECK_EQ(sim_handles(s)[65].zone, ZONE_DMA32);
	for (uint32_t h = 0; h < 66; h++)
		CHECK_EQ(apply_checked(s, OP_FREE, (int)((h * 37) % MAX_CPUS), 0, 0, h), SIM_OK);
	/* the frees went to the freeing CPUs' lists of the blocks' zones: drain them all */
	CHECK_EQ(apply_checked(s, OP_DRAIN_ALL, 512, 0, 0, 0), SIM_OK);
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		const struct zone *z = sim_zone(s, nid, ZONE_NORMAL);

		CHECK_EQ(z->nr_free_pages, z->managed);
	}
	free(s);
}

TEST(machine_refuses_more_cpus_than_max_cpus)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	cfg.nr_nodes = 32;
	cfg.cpus_per_node = MAX_CPUS / 32;
	for (int nid = 0; nid < 32; nid++)
		cfg.zones[nid][ZONE_NORMAL] =
			(struct zone_config){ (1u << 20) * (uint32_t)(nid + 1), 1024, 1024, 1024 };
	CHECK(sim_state_size(&cfg) > 0);
	cfg.cpus_per_node++;
	CHECK_EQ(sim_state_size(&cfg), 0);
	cfg.cpus_per_node = 1;
	cfg.nr_nodes = MAX_NUMNODES + 1;
	CHECK_EQ(sim_state_size(&cfg), 0);
}

TEST(machine_server_presets_look_like_real_servers)
{
	struct sim_config cfg;
	struct sim *s;

	/* xeon512g: 512 GiB over two sockets, node 0 with DMA, DMA32 and Normal, SLIT 10/21 */
	CHECK_EQ(sim_config_preset(&cfg, "xeon512g"), SIM_OK);
	s = test_boot(&cfg);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(s->nr_cpus, 128);
	CHECK_EQ((uint64_t)sim_zone(s, 0, ZONE_DMA)->present + sim_zone(s, 0, ZONE_DMA32)->present +
			 sim_zone(s, 0, ZONE_NORMAL)->present +
			 sim_zone(s, 1, ZONE_NORMAL)->present,
		 (uint64_t)512 * 262144 - 98); /* 512 GiB less 98 pages the firmware keeps low */
	CHECK_EQ(sim_zone(s, 1, ZONE_NORMAL)->start_pfn,
		 sim_zone(s, 0, ZONE_NORMAL)->start_pfn + sim_zone(s, 0, ZONE_NORMAL)->spanned);
	CHECK_EQ(sim_nodes(s)[0].distance[1], 21);
	/* the zonelist of node 1: its own Normal, then node 0's Normal, DMA32, DMA */
	CHECK_EQ(sim_nodes(s)[1].zonelist_len, 4);
	CHECK_EQ(sim_nodes(s)[1].zonelist[0][0], 1);
	CHECK_EQ(sim_nodes(s)[1].zonelist[1][1], ZONE_NORMAL);
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);

	/* epyc2t: 2 TiB over four NPS2 nodes; node 0 falls back to its socket's twin first */
	CHECK_EQ(sim_config_preset(&cfg, "epyc2t"), SIM_OK);
	s = test_boot(&cfg);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(s->nr_cpus, 256);
	CHECK_EQ(sim_zone(s, 3, ZONE_NORMAL)->start_pfn + sim_zone(s, 3, ZONE_NORMAL)->spanned,
		 (uint64_t)2048 * 262144 +
			 262144); /* 2 TiB of RAM, the 1 GiB hole, ends at 2049 GiB */
	CHECK_EQ(sim_nodes(s)[0].zonelist[3][0], 1);
	CHECK_EQ(sim_nodes(s)[2].zonelist[0][0], 2);
	CHECK_EQ(sim_nodes(s)[2].zonelist[1][0], 3);
	CHECK_EQ(sim_nodes(s)[3].distance[0], 32);
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}
