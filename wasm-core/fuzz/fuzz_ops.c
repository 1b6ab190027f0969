/*
 * fuzz_ops.c: a seeded random driver. Random machines and profiles, random op streams with bad
 * ops mixed in (unknown CPUs, wrong orders, double frees, raw frees of random pfns, corrupt
 * pages), sim_check after every op. Passing means: no crash (ASan/UBSan), no hang (every op
 * returns), and the checker clean, or the state frozen with a reported error.
 *
 *   fuzz [ITERATIONS [OPS_PER_ITERATION [SEED]]]
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/sim.h"
#include "base/state.h"
#include "base/subsystem.h"
#include "page_alloc/vocab.h"

/* splitmix64: the driver's own generator, independent of the model's. */
static uint64_t next_random(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static const uint32_t gfps[] = {
	GFP_KERNEL,
	GFP_USER,
	GFP_HIGHUSER_MOVABLE,
	GFP_ATOMIC,
	GFP_NOWAIT,
	GFP_DMA,
	GFP_DMA32,
	GFP_KERNEL | __GFP_RECLAIMABLE,
	GFP_ATOMIC | __GFP_NOWARN,
	GFP_KERNEL | __GFP_COMP | __GFP_ZERO,
	__GFP_DMA | __GFP_DMA32, /* an invalid zone combination */
};

/* A random op for machine s; some of them bad on purpose. */
static struct sim_op random_op(const struct sim *s, uint64_t *x, uint32_t handles)
{
	struct sim_op op = { 0 };
	uint64_t r = next_random(x);
	int dice = (int)(r % 100);

	op.cpu = (uint16_t)(next_random(x) % (s->nr_cpus + (dice < 3)));
	op.handle = (uint32_t)(next_random(x) % handles);
	op.order = (uint8_t)(next_random(x) % 4 == 0 ? next_random(x) % 12 : next_random(x) % 4);
	op.gfp = gfps[next_random(x) % (sizeof gfps / sizeof gfps[0])];
	if (dice < 45) {
		op.kind = OP_ALLOC;
	} else if (dice < 80) {
		op.kind = OP_FREE;
	} else if (dice < 84) {
		op.kind = OP_FREE_PFN;
		op.handle = (uint32_t)(next_random(x) % (s->nodes[0].zones[ZONE_NORMAL].mem_pfn +
							 s->nr_frames + 64));
	} else if (dice < 87) {
		op.kind = OP_DRAIN_CPU;
	} else if (dice < 89) {
		op.kind = OP_DRAIN_ALL;
	} else if (dice < 92) {
		op.kind = OP_TICK;
		op.arg = (int32_t)(next_random(x) % 4);
	} else if (dice < 94) {
		op.kind = (next_random(x) & 1) ? OP_CPU_OFFLINE : OP_CPU_ONLINE;
	} else if (dice < 95) {
		op.kind = OP_CORRUPT;
	} else if (dice < 97) {
		op.kind = OP_SYSCTL;
		op.handle = (uint32_t)(next_random(x) % (NR_SYSCTLS + 1));
		op.arg = (int32_t)(next_random(x) % 5000) - 10;
	} else if (dice < 99) {
		op.kind = OP_RANDOM;
		op.handle = handles - 9;
		op.arg = (int32_t)(50 | (8 << 7));
		op.order = (uint8_t)(next_random(x) % 5);
	} else {
		op.kind = (uint8_t)(next_random(x) % (sim_nr_op_kinds + 2));
	}
	return op;
}

static const char *const presets[] = { "tiny", "small", "classroom" };

int main(int argc, char **argv)
{
	long iterations = argc > 1 ? atol(argv[1]) : 60;
	long ops_per_iteration = argc > 2 ? atol(argv[2]) : 400;
	uint64_t x = argc > 3 ? strtoull(argv[3], NULL, 10) : 20261121;
	long failures = 0, frozen = 0, applied = 0;

	for (long it = 0; it < iterations; it++) {
		struct sim_config cfg;
		struct sim *s;
		size_t size;

		sim_config_preset(&cfg, presets[next_random(&x) % 3]);
		cfg.profile = (uint8_t)(next_random(&x) % NR_PROFILES);
		cfg.max_handles = 256;
		cfg.seed = next_random(&x);
		size = sim_state_size(&cfg);
		s = aligned_alloc(8, (size + 7) & ~(size_t)7);
		if (!s || sim_init(s, size, &cfg) || sim_check(s)) {
			printf("fuzz: iteration %ld: machine did not boot clean: %s\n", it,
			       s ? s->error : "no memory");
			return 1;
		}
		int corrupted = 0;
		for (long i = 0; i < ops_per_iteration; i++) {
			struct sim_op op = random_op(s, &x, cfg.max_handles);
			int err = sim_apply(s, &op);
			corrupted |= op.kind == OP_CORRUPT;
			applied++;
			sim_events_clear(s);
			if (err == SIM_ECORRUPT || s->frozen) {
				/* a frozen state must say why and refuse every later op */
				if (!s->error[0] || sim_apply(s, &op) != SIM_ECORRUPT) {
					printf("fuzz: iteration %ld op %ld: frozen without a report\n",
					       it, i);
					failures++;
				}
				frozen++;
				break;
			}
			if (sim_check(s)) {
				if (corrupted && !s->profile.pcp_count_fix) {
					/* the modelled 2016 bug: count out of sync after a bad page; the checker caught it */
					frozen++;
					break;
				}
				printf("fuzz: iteration %ld op %ld (kind %d cpu %d order %d handle %u arg %d, profile %s): %s\n",
				       it, i, op.kind, op.cpu, op.order, op.handle, op.arg,
				       s->profile.name, s->error);
				failures++;
				break;
			}
		}
		free(s);
	}
	printf("fuzz: %ld iterations, %ld ops, %ld ended frozen by a reported corruption\n",
	       iterations, applied, frozen);
	printf("fuzz: %d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
	return failures ? 1 : 0;
}
