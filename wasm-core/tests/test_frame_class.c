/*
 * test_frame_class.c: the class map (frame_class.h) against a frame-by-frame oracle that walks
 * back from each pfn to the head covering it, after every op of random streams, on a one-zone
 * and a two-zone machine, for windows reaching past the machine and starting inside blocks.
 */
#include <stdlib.h>
#include <string.h>

#include "base/state.h"
#include "boot.h"
#include "harness.h"
#include "page_alloc/frame_class.h"

/* The class of one pfn the slow way: the nearest head whose block covers it. */
static uint8_t oracle(const struct sim *s, uint32_t pfn)
{
	int zi = pfn_to_zone_index(s, pfn);
	const struct zone *z;

	if (zi < 0)
		return FC_HOLE;
	z = &sim_nodes(s)[zi / MAX_NR_ZONES].zones[zi % MAX_NR_ZONES];
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

/* Compare the class map with the oracle over [start, start + count), through distinct values. */
static int window_ok(const struct sim *s, uint32_t start, uint32_t count)
{
	uint32_t *words = malloc((size_t)count * sizeof *words);
	uint32_t lut[NR_FRAME_CLASSES];
	int ok = words != NULL;

	for (int c = 0; c < NR_FRAME_CLASSES; c++)
		lut[c] = 0x1000u + (uint32_t)c * 7u;
	if (ok) {
		sim_frame_classes_mapped(s, start, count, lut, words);
		for (uint32_t i = 0; i < count && ok; i++)
			ok = words[i] == lut[oracle(s, start + i)];
	}
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

/*
 * The repaint keeps a map painted once up to date as the machine moves the ways the player moves
 * it: ops (one to `burst` of them, random streams of orders up to max_order), restores of earlier
 * snapshots (seeks back and forward), and branches (other ops after a restore). After each move
 * only blocks whose stamps changed are repainted, and the map must equal a fresh one. Spans must
 * be sorted, disjoint and inside the window, and (so that a map repainting everything cannot
 * pass) cover a small part of it over the run.
 */
static void repaint_run(const char *preset, uint32_t start, uint32_t count, int looks, int burst,
			int max_order, int max_spans)
{
	enum { SNAPS = 3 };
	struct sim_config cfg;
	struct sim *s;
	uint32_t lut[NR_FRAME_CLASSES];
	uint32_t *kept = malloc((size_t)count * sizeof *kept);
	uint32_t *fresh = malloc((size_t)count * sizeof *fresh);
	uint64_t *seen = NULL;
	void *snaps[SNAPS] = { NULL };
	uint32_t spans[2 * 8];
	uint64_t repainted = 0, painted = 0;
	int restores = 0;

	CHECK(kept && fresh && max_spans <= 8);
	CHECK_EQ(sim_config_preset(&cfg, preset), SIM_OK);
	s = test_boot(&cfg);
	CHECK(s != NULL);
	if (!s || !kept || !fresh)
		goto out;
	seen = calloc(s->nr_frame_stamps, sizeof *seen);
	for (int k = 0; k < SNAPS; k++)
		snaps[k] = malloc(s->events_off);
	for (int c = 0; c < NR_FRAME_CLASSES; c++)
		lut[c] = 0x2000u + (uint32_t)c * 11u;
	CHECK_EQ(sim_frame_classes_repaint(s, seen, 1, start, count, lut, kept, spans, max_spans),
		 1);
	for (int i = 0; i < looks; i++) {
		void *snap = snaps[i % SNAPS];
		int n;

		if (i % 5 == 1 && snap) {
			memcpy(snap, s, s->events_off); /* a checkpoint */
		} else if (i % 7 == 6 && snap) {
			memcpy(s, snaps[(i / 7) % SNAPS], s->events_off); /* a seek: restore */
			restores++;
		}
		for (int k = 0; k < 1 + i % burst; k++) {
			/* after a restore, every other time, a different CPU: a branch */
			uint16_t cpu = (uint16_t)((k + (i % 14 == 6)) & 1);
			struct sim_op op = { OP_RANDOM,	 (uint8_t)max_order, cpu,
					     GFP_KERNEL, (uint32_t)cpu * 65, 40 | (64 << 7) };
			sim_apply(s, &op);
		}
		sim_events_clear(s);
		n = sim_frame_classes_repaint(s, seen, 0, start, count, lut, kept, spans,
					      max_spans);
		CHECK(n >= 0 && n <= max_spans);
		for (int j = 0; j < n; j++) {
			CHECK(spans[2 * j] < spans[2 * j + 1] && spans[2 * j + 1] <= count);
			CHECK(j == 0 || spans[2 * j - 1] < spans[2 * j]);
			repainted += spans[2 * j + 1] - spans[2 * j];
		}
		painted += count;
		sim_frame_classes_mapped(s, start, count, lut, fresh);
		CHECK(memcmp(kept, fresh, (size_t)count * sizeof *kept) == 0);
	}
	/* Nothing happens: nothing is repainted. */
	CHECK_EQ(sim_frame_classes_repaint(s, seen, 0, start, count, lut, kept, spans, max_spans),
		 0);
	CHECK(restores > looks / 10);
	CHECK(repainted * 8 < painted);
out:
	for (int k = 0; k < SNAPS; k++)
		free(snaps[k]);
	free(seen);
	free(s);
	free(kept);
	free(fresh);
}

TEST(frame_class_repaint_keeps_a_map_up_to_date)
{
	/* One order-0 op per look on 1M frames: most are per-CPU list hits, a frame or two each. */
	repaint_run("bench1m", 1048576 - 100, 1048576 + 200, 400, 1, 0, 8);
	/* Bursts of up to three ops of orders up to 2 on two zones, a window off the block grid. */
	repaint_run("small", 4096 - 100, 16384 + 200, 300, 3, 2, 8);
	/* One span only: every change widens it. */
	repaint_run("small", 0, 32768, 120, 3, 2, 1);
}

/* The history digest names the op sequence: the same ops give the same digest, others another. */
TEST(history_digest_follows_the_ops)
{
	struct sim_config cfg;
	struct sim *a, *b;
	struct sim_op op = { OP_RANDOM, 2, 0, GFP_KERNEL, 0, 40 | (64 << 7) };

	CHECK_EQ(sim_config_preset(&cfg, "tiny"), SIM_OK);
	a = test_boot(&cfg);
	b = test_boot(&cfg);
	CHECK(a && b);
	if (!a || !b)
		goto out;
	CHECK(a->history == b->history);
	for (int i = 0; i < 20; i++) {
		sim_apply(a, &op);
		sim_apply(b, &op);
	}
	CHECK(a->history == b->history);
	CHECK(memcmp(sim_frame_stamps(a), sim_frame_stamps(b), a->nr_frame_stamps * 8) == 0);
	op.cpu = 1;
	sim_apply(a, &op);
	op.cpu = 0;
	sim_apply(b, &op);
	CHECK(a->history != b->history);
out:
	free(a);
	free(b);
}

/*
 * A branch: from one checkpoint, op A, then back and op B instead. The same number of ops touch
 * the same blocks in both, so only stamps that name the history (not just count ops) tell the
 * map that B's blocks differ from A's.
 */
TEST(frame_class_repaint_after_a_branch)
{
	struct sim_config cfg;
	struct sim *s;
	void *snap;
	uint64_t *seen;
	uint32_t *kept, *fresh, spans[2 * 8], lut[NR_FRAME_CLASSES], count;

	CHECK_EQ(sim_config_preset(&cfg, "small"), SIM_OK);
	s = test_boot(&cfg);
	CHECK(s != NULL);
	if (!s)
		return;
	count = 32768;
	snap = malloc(s->events_off);
	seen = calloc(s->nr_frame_stamps, sizeof *seen);
	kept = malloc(count * sizeof *kept);
	fresh = malloc(count * sizeof *fresh);
	for (int c = 0; c < NR_FRAME_CLASSES; c++)
		lut[c] = 0x3000u + (uint32_t)c * 5u;
	for (int round = 0; round < 20; round++) {
		struct sim_op a = { OP_ALLOC, 0, 0, GFP_KERNEL, (uint32_t)round, 0 };
		struct sim_op b = { OP_ALLOC, 0, 1, GFP_KERNEL, (uint32_t)round, 0 };

		memcpy(snap, s, s->events_off);
		sim_apply(s, &a);
		sim_frame_classes_repaint(s, seen, round == 0, 0, count, lut, kept, spans, 8);
		memcpy(s, snap, s->events_off);
		sim_apply(s, &b);
		sim_events_clear(s);
		sim_frame_classes_repaint(s, seen, 0, 0, count, lut, kept, spans, 8);
		sim_frame_classes_mapped(s, 0, count, lut, fresh);
		CHECK(memcmp(kept, fresh, count * sizeof *kept) == 0);
	}
	free(snap);
	free(seen);
	free(kept);
	free(fresh);
	free(s);
}

/*
 * The group stamps: after every op, a block whose stamp changed has its group stamped with the same
 * digest, and a group whose stamp did not change holds no block that did; so a reader that skips
 * the groups it has seen misses no change. On laptop (16 GiB: 16,384 blocks, 256 groups), with
 * ops of up to max_order that touch blocks across the machine.
 */
TEST(frame_group_stamps_cover_every_changed_block)
{
	struct sim_config cfg;
	struct sim *s;
	uint64_t *before = NULL, *groups_before = NULL;
	uint32_t nb, ng, changed = 0;

	CHECK_EQ(sim_config_preset(&cfg, "laptop"), SIM_OK);
	s = test_boot(&cfg);
	CHECK(s != NULL);
	if (!s)
		return;
	nb = s->nr_frame_stamps;
	ng = frame_stamp_groups(nb);
	CHECK(ng > 1 && ng == (nb + FRAME_STAMP_GROUP - 1) / FRAME_STAMP_GROUP);
	before = malloc(nb * sizeof *before);
	groups_before = malloc(ng * sizeof *groups_before);
	CHECK(before && groups_before);
	if (!before || !groups_before)
		goto out;
	for (int i = 0; i < 200; i++) {
		struct sim_op op = { OP_RANDOM,	 (uint8_t)(i % 11),	 (uint16_t)(i % 8),
				     GFP_KERNEL, (uint32_t)(i % 8) * 65, 40 | (64 << 7) };

		memcpy(before, sim_frame_stamps(s), nb * sizeof *before);
		memcpy(groups_before, sim_frame_group_stamps(s), ng * sizeof *groups_before);
		sim_apply(s, &op);
		sim_events_clear(s);
		for (uint32_t b = 0; b < nb; b++) {
			uint64_t g = sim_frame_group_stamps(s)[b / FRAME_STAMP_GROUP];

			if (sim_frame_stamps(s)[b] == before[b])
				continue;
			changed++;
			CHECK(g == sim_frame_stamps(s)[b]); /* the op's digest, on both */
		}
		for (uint32_t g = 0; g < ng; g++) {
			uint32_t last =
				(g + 1) * FRAME_STAMP_GROUP < nb ? (g + 1) * FRAME_STAMP_GROUP : nb;

			if (sim_frame_group_stamps(s)[g] != groups_before[g])
				continue;
			for (uint32_t b = g * FRAME_STAMP_GROUP; b < last; b++)
				CHECK(sim_frame_stamps(s)[b] == before[b]);
		}
	}
	CHECK(changed > 50); /* the ops did change blocks */
out:
	free(before);
	free(groups_before);
	free(s);
}
