/*
 * test_frame_class.c: the class map (frame_class.h) against a frame-by-frame oracle that walks
 * back from each pfn to the head covering it, after every op of random streams, on a one-zone
 * and a two-zone machine, for windows reaching past the machine and starting inside blocks.
 */
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "frame_class.h"
#include "harness.h"
#include "state.h"

/* The class of one pfn the slow way: the nearest head whose block covers it. */
static uint8_t oracle(const struct sim *s, uint32_t pfn)
{
	int zi = pfn_to_zone_index(s, pfn);
	const struct zone *z;

	if (zi < 0)
		return FC_HOLE;
	z = &s->nodes[zi / MAX_NR_ZONES].zones[zi % MAX_NR_ZONES];
	for (int o = 0; o <= s->config.max_order; o++) {
		uint32_t q = pfn - pfn % (1u << o);
		const struct page *pg;

		if (q < z->mem_pfn)
			break;
		pg = zone_page(s, z, q);
		if (pg->state == PG_TAIL || q + (1u << pg->order) <= pfn)
			continue;
		switch (pg->state) {
		case PG_BUDDY:
			return pg->list < MIGRATE_TYPES ? (uint8_t)(FC_BUDDY + pg->list) : FC_HOLE;
		case PG_PCP:
			return (pg->cpu & 1) ? FC_PCP_ODD : FC_PCP_EVEN;
		case PG_ALLOCATED:
			return FC_ALLOCATED;
		default:
			return FC_CORRUPT;
		}
	}
	return FC_HOLE;
}

/* Compare both entry points with the oracle over [start, start + count). */
static int window_ok(const struct sim *s, uint32_t start, uint32_t count)
{
	uint8_t *cls = malloc(count);
	uint32_t *words = malloc((size_t)count * sizeof *words);
	uint32_t lut[NR_FRAME_CLASSES];
	int ok = cls && words;

	for (int c = 0; c < NR_FRAME_CLASSES; c++)
		lut[c] = 0x1000u + (uint32_t)c * 7u;
	if (ok) {
		sim_frame_classes(s, start, count, cls);
		sim_frame_classes_mapped(s, start, count, lut, words);
		for (uint32_t i = 0; i < count && ok; i++) {
			uint8_t want = oracle(s, start + i);
			ok = cls[i] == want && words[i] == lut[want];
		}
	}
	free(cls);
	free(words);
	return ok;
}

/* Random streams on two CPUs, the class map checked after every op. */
static void run(const char *preset, uint32_t lo, uint32_t hi, int steps)
{
	struct sim_config cfg;
	struct sim *s;

	CHECK_EQ(sim_config_preset(&cfg, preset), SIM_OK);
	s = test_boot(&cfg);
	CHECK(s != NULL);
	if (!s)
		return;
	for (int i = 0; i < steps; i++) {
		struct sim_op op = { OP_RANDOM,	 (uint8_t)(2 + i % 3),	 (uint16_t)(i & 1),
				     GFP_KERNEL, (uint32_t)(i & 1) * 65, 40 | (64 << 7) };
		if (i == steps / 2) {
			struct sim_op bad = { OP_CORRUPT, 0, 1, 0, HANDLE_NONE, 0 };
			sim_apply(s, &bad);
		}
		sim_apply(s, &op);
		sim_events_clear(s);
		CHECK(window_ok(s, lo > 64 ? lo - 64 : 0, hi - lo + 128));
		CHECK(window_ok(s, lo + 3 + (uint32_t)(i * 37) % 97, 150));
	}
	free(s);
}

TEST(frame_class_matches_oracle_one_zone)
{
	run("tiny", 0, 256, 300);
}

TEST(frame_class_matches_oracle_two_zones)
{
	run("small", 4096, 20480, 120);
}
