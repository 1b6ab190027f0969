/*
 * fuzz_ops.c: a seeded random driver for the core. Each case is a machine (a preset, a random
 * valid one of up to MAX_NUMNODES nodes, or raw config fields the core must refuse), in one case
 * in three booted into a captured state (whole in-use blocks, LRU extents), and a stream of
 * steps: ops with bad ones
 * mixed in (unknown CPUs, wrong orders, double frees, raw frees of random pfns, corrupt pages,
 * random streams over overlapping handle slots, ops with every field random) and bit flips in the
 * frames, the pageblock tags and the handles. sim_check runs after every step. Passing means: no
 * crash (ASan/UBSan), no hang (every case ends within its alarm), and the checker clean, or the
 * state frozen with a reported error, or a flipped bit reported by the checker (at once, or in the
 * counts after later ops).
 *
 * A case is a pure function of its seed, so a failure prints the seed, the failing step and the
 * smallest step stream it can cut the case down to (each try runs in a forked child, so a
 * sanitizer abort can be cut down too).
 *
 *   fuzz [--seconds N] [--cases N] [--ops N] [--seed S]   run cases (default: 100 cases, 400 ops)
 *   fuzz --case SEED [--ops N]                             replay one case and cut it down
 */
#define _DEFAULT_SOURCE /* fork, waitpid, alarm, clock_gettime, MAP_ANONYMOUS */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/sim.h"
#include "base/state.h"
#include "base/subsystem.h"
#include "percpu/vocab.h"
#include "fault/mm.h"
#include "fault/vocab.h"
#include "page_alloc/capture.h"
#include "page_alloc/vocab.h"
#include "reclaim/vocab.h"

/* splitmix64: the driver's own generator, independent of the model's. */
static uint64_t next_random(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* A random number below n (n > 0). */
static uint32_t below(uint64_t *x, uint64_t n)
{
	return (uint32_t)(next_random(x) % n);
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

#define MAX_HANDLES 256	      /* every case's handle table */
#define STREAM_SLOTS 24	      /* random streams start in the first slots, so they overlap */
#define MAX_ARENA (64u << 20) /* machines above this are skipped: boot time, not coverage */
#define CASE_SECONDS 20	      /* a case still running after this is a hang */

/* Where a bit flip lands: arrays of the state whose every value the checker can verify. */
enum flip_region { FLIP_NONE, FLIP_FRAMES, FLIP_PAGEBLOCKS, FLIP_HANDLES };

/* One step of a case: an op, or a bit flipped in the frames, pageblock tags or handles. */
struct step {
	struct sim_op op;
	uint8_t flip; /* enum flip_region: flip bit (offset % region bytes) * 8 + bit, no op */
	uint8_t bit;
	uint64_t offset;
};

/* A zone list for node nid of a random machine: ordered, non-overlapping, mostly small. */
static uint32_t random_zones(struct sim_config *cfg, int nid, uint32_t pfn, uint64_t *x)
{
	for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
		struct zone_config *zc = &cfg->zones[nid][zid];
		uint32_t managed;
		if (zid == ZONE_DEVICE || below(x, 3) == 0)
			continue;
		pfn += below(x, 4) ? 0 : below(x, 4096);
		managed = 1 + below(x, below(x, 4) ? 2048 : 16384);
		zc->start_pfn = pfn;
		zc->managed = managed;
		zc->present = managed + (below(x, 4) ? 0 : below(x, 64));
		zc->spanned = zc->present + (below(x, 4) ? 0 : below(x, 64));
		pfn += zc->spanned;
	}
	return pfn;
}

/* A random machine description: valid in shape, random in size, tunables and topology. */
static void random_machine(struct sim_config *cfg, uint64_t *x)
{
	uint32_t pfn = below(x, 2) ? 0 : below(x, 1u << 20);

	sim_config_default(cfg);
	memset(cfg->zones, 0, sizeof cfg->zones);
	/* mostly 1-3 nodes; one machine in four has up to MAX_NUMNODES, CPUs within MAX_CPUS */
	cfg->nr_nodes = (uint8_t)(1 + below(x, below(x, 4) ? 3 : MAX_NUMNODES));
	cfg->cpus_per_node = (uint8_t)(1 + below(x, below(x, 8) ? 4 : MAX_CPUS_PER_NODE));
	if ((uint32_t)cfg->nr_nodes * cfg->cpus_per_node > MAX_CPUS)
		cfg->cpus_per_node = (uint8_t)(MAX_CPUS / cfg->nr_nodes);
	cfg->max_order = (uint8_t)(1 + below(x, MAX_PAGE_ORDER_LIMIT));
	cfg->pageblock_order = (uint8_t)below(x, cfg->max_order + 1u);
	cfg->thp = (uint8_t)below(x, 2);
	cfg->pcp_batch = below(x, 4) ? 0 : (int32_t)(1 + below(x, 64));
	cfg->percpu_pagelist_high_fraction = below(x, 4) ? 0 : (int32_t)(8 + below(x, 100));
	cfg->watermark_scale_factor = (int32_t)(1 + below(x, 3000));
	cfg->min_free_kbytes = below(x, 2) ? -1 : (int32_t)below(x, 1u << 16);
	for (int nid = 0; nid < cfg->nr_nodes; nid++)
		pfn = random_zones(cfg, nid, pfn, x);
	for (int a = 0; a < MAX_NUMNODES; a++)
		for (int b = 0; b < MAX_NUMNODES; b++)
			cfg->distance[a][b] = below(x, 4) ? 0 : (uint8_t)below(x, 256);
}

/* Raw machine fields, most of them outside what the core accepts: it must refuse, not crash. */
static void raw_machine(struct sim_config *cfg, uint64_t *x)
{
	random_machine(cfg, x);
	for (int i = 0; i < 1 + (int)below(x, 4); i++) {
		struct zone_config *zc =
			&cfg->zones[below(x, MAX_NUMNODES)][below(x, MAX_NR_ZONES)];
		switch (below(x, 10)) {
		case 0:
			cfg->nr_nodes = (uint8_t)next_random(x);
			break;
		case 1:
			cfg->cpus_per_node = (uint8_t)next_random(x);
			break;
		case 2:
			cfg->max_order = (uint8_t)next_random(x);
			break;
		case 3:
			cfg->pageblock_order = (uint8_t)next_random(x);
			break;
		case 4:
			cfg->profile = (uint8_t)next_random(x);
			break;
		case 5:
			zc->start_pfn = (uint32_t)next_random(x);
			break;
		case 6:
			zc->spanned = (uint32_t)next_random(x) >> below(x, 32);
			break;
		case 7:
			zc->managed = (uint32_t)next_random(x) >> below(x, 32);
			break;
		case 8:
			cfg->pcp_batch = (int32_t)next_random(x);
			break;
		default:
			cfg->percpu_pagelist_high_fraction = (int32_t)next_random(x);
			break;
		}
	}
}

static const char *const presets[] = { "tiny", "small", "classroom" };

/* The machine of a case. */
static void case_machine(struct sim_config *cfg, uint64_t *x)
{
	uint32_t kind = below(x, 10);

	if (kind < 5)
		sim_config_preset(cfg, presets[below(x, 3)]);
	else if (kind < 9)
		random_machine(cfg, x);
	else
		raw_machine(cfg, x);
	cfg->profile = kind == 9 && below(x, 2) ? cfg->profile : (uint8_t)below(x, NR_PROFILES);
	cfg->max_handles = MAX_HANDLES;
	cfg->percpu_peak_kib = below(x, 3) ? (uint32_t)below(x, 4096) : 0;
	cfg->percpu_reserved_size = below(x, 4) == 0 ? 8192 : 0;
	cfg->seed = next_random(x);
	/*
	 * a percpu handle table shorter than the handles the steps name, one case in four, so that
	 * requests beyond it are refused; taken from the seed, not a new draw, so that every earlier
	 * case's seed still makes the same machine and steps
	 */
	cfg->percpu_handles = (cfg->seed & 3) == 0 ? (uint32_t)((cfg->seed >> 2) % MAX_HANDLES) :
						     MAX_HANDLES;
}

/* A random step for a machine of nr_cpus CPUs whose frames end near pfn_end. */
static struct step random_step(uint64_t *x, uint32_t nr_cpus, uint32_t pfn_end)
{
	struct step st = { 0 };
	struct sim_op *op = &st.op;
	int dice = (int)below(x, 1000);

	op->cpu = (uint16_t)below(x, nr_cpus + (dice < 30));
	op->handle = below(x, MAX_HANDLES);
	op->order = (uint8_t)(below(x, 4) == 0 ? below(x, 12) : below(x, 4));
	op->gfp = gfps[below(x, sizeof gfps / sizeof gfps[0])];
	if (dice < 90) {
		/* percpu requests: sizes and alignments past the kernel's limits too */
		static const int sizes[] = { 1, 4, 6, 16, 100, 1024, 4096, 32768, 0, 40000 };
		op->kind = OP_PERCPU_ALLOC;
		op->order = (uint8_t)(below(x, 8) == 0);
		op->arg = (int32_t)((uint32_t)sizes[below(x, 10)] |
				    ((uint32_t)(below(x, 6) == 0 ? below(x, 9000) :
								   1u << below(x, 13))
				     << 16));
	} else if (dice < 160) {
		op->kind = OP_PERCPU_FREE;
	} else if (dice < 170) {
		op->kind = OP_PERCPU_BALANCE;
	} else if (dice < 420) {
		op->kind = OP_ALLOC;
	} else if (dice < 740) {
		op->kind = OP_FREE;
		if (below(x, 8) == 0) { /* a block of a folio batch; arg 1 frees it, 2 is refused */
			op->kind = OP_FREE_FOLIOS;
			op->arg = (int32_t)below(x, 3);
		}
	} else if (dice < 780) {
		op->kind = OP_FREE_PFN;
		op->handle = below(x, pfn_end + 64);
		if (below(x, 4) == 0) /* a free of memory a capture showed in use */
			*op = (struct sim_op){ OP_CAPTURE_ZONE,
					       CAPTURE_FREE,
					       op->cpu,
					       (uint32_t)below(x, MIGRATE_TYPES + 2),
					       below(x, 2) ? below(x, pfn_end + 64) : PFN_NONE,
					       (int32_t)below(x, 4) };
		if (op->kind == OP_CAPTURE_ZONE && below(x, 2)) {
			/* the same free, gathered into a folio batch beside handles */
			op->kind = OP_FREE_FOLIOS_CAPTURED;
			op->order = (uint8_t)op->arg;
			op->arg = (int32_t)below(x, 3);
		}
	} else if (dice < 810) {
		op->kind = OP_DRAIN_CPU;
	} else if (dice < 830) {
		op->kind = OP_DRAIN_ALL;
	} else if (dice < 850) {
		op->kind = OP_TICK;
		op->arg = (int32_t)below(x, 4);
	} else if (dice < 870) {
		op->kind = below(x, 2) ? OP_CPU_OFFLINE : OP_CPU_ONLINE;
	} else if (dice < 880) {
		op->kind = OP_CORRUPT;
	} else if (dice < 900) {
		op->kind = OP_SYSCTL;
		op->handle = below(x, NR_SYSCTLS + 1);
		op->arg = (int32_t)below(x, 5000) - 10;
	} else if (dice < 960) {
		/* streams and plain ops over the same few slots: headers land among others' blocks */
		op->kind = OP_RANDOM;
		op->handle = below(x, STREAM_SLOTS);
		op->arg = (int32_t)(below(x, 101) | ((1 + below(x, 12)) << 7));
		op->order = (uint8_t)below(x, 5);
		if (below(x, 3) == 0) {
			op->kind = below(x, 2) ? OP_FREE : OP_ALLOC;
			op->order = (uint8_t)below(x, 3);
		}
	} else if (dice < 965) {
		op->kind = OP_SEED;
		op->arg = (int32_t)next_random(x);
	} else if (dice < 975) {
		/* the address space: threads, mmap, munmap, mprotect, touches, mostly in range */
		op->kind = (uint8_t)(OP_THREAD + below(x, OP_WORK - OP_THREAD + 1));
		op->order = (uint8_t)below(x, FAULT_MAX_MMS + 1);
		op->handle = below(x, 4) ? below(x, 4096) : below(x, FAULT_VA_PAGES + 64);
		op->arg = (int32_t)(below(x, 8) ? 1 + below(x, 600) : below(x, FAULT_VA_PAGES + 2));
		op->gfp = below(x, 8) | (below(x, 6) ? 0 : VMA_FILE);
	} else if (dice < 990) {
		/* raw fields: every field random, small values more often */
		op->kind = (uint8_t)below(x, sim_nr_op_kinds + 2);
		op->order = (uint8_t)(below(x, 2) ? below(x, 16) : next_random(x));
		op->cpu = (uint16_t)(below(x, 2) ? below(x, nr_cpus + 2) : next_random(x));
		op->gfp = (uint32_t)next_random(x) >> below(x, 32);
		op->handle = below(x, 2) ? below(x, STREAM_SLOTS) : (uint32_t)next_random(x);
		op->arg = (int32_t)(below(x, 2) ? (int32_t)below(x, 1 << 14) :
						  (int32_t)next_random(x));
	} else {
		uint32_t region = below(x, 10);
		st.flip = region < 6 ? FLIP_FRAMES : region < 8 ? FLIP_PAGEBLOCKS : FLIP_HANDLES;
		st.bit = (uint8_t)below(x, 8);
		st.offset = next_random(x);
	}
	return st;
}

/* What running a step stream found. */
enum outcome {
	RUN_CLEAN,	 /* every step left the checker clean */
	RUN_FROZEN,	 /* a reported corruption froze the state (expected after OP_CORRUPT) */
	RUN_FLIP_CAUGHT, /* the checker reported a flipped bit, at once or after later ops */
	RUN_REFUSED,	 /* the machine was refused (or skipped: too big to boot quickly) */
	RUN_FAILED,	 /* a checker failure, or a freeze without a report */
};

/* What run_steps did, for the summary and for reports. */
struct run {
	enum outcome outcome;
	long applied;	/* ops applied */
	long flips;	/* bits flipped */
	long failed_at; /* the failing step */
	char message[320];
};

/*
 * Where the run is, in memory a forked child shares with its parent: after a child's crash or hang
 * the parent still knows the step, and for a checker failure the message.
 */
struct progress {
	volatile long step;
	char message[320];
};
/* The pfn of managed frame i, counting zone by zone in node order (how the frames were numbered). */
static uint32_t nth_frame(const struct sim *s, uint32_t i)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone *z = &sim_nodes(s)[nid].zones[zid];
			if (i < z->managed)
				return z->mem_pfn + i;
			i -= z->managed;
		}
	return sim_nodes(s)[0].zones[0].mem_pfn; /* not reached: i < nr_frames */
}

static struct progress *progress;
static uint64_t current_seed;
static char *self;		       /* argv[0] */
static char seed_arg[24], ops_arg[24]; /* the running case, for the replay after a crash */

/* Boot cfg and run steps on it, the checker after each; stop at the first failure. */
static void run_steps(const struct sim_config *cfg, const struct step *steps, long n, struct run *r)
{
	size_t size = sim_state_size(cfg);
	struct sim *s;
	int corrupted = 0, flipped = 0;

	memset(r, 0, sizeof *r);
	r->failed_at = -1;
	if (!size || size > MAX_ARENA) {
		struct sim_config copy = *cfg;
		char small[64] __attribute__((aligned(8)));
		/* refused (or too big to boot quickly): sim_init must refuse it too when size is 0 */
		if (!size && sim_init(small, sizeof small, &copy) != SIM_ECONFIG) {
			r->outcome = RUN_FAILED;
			snprintf(r->message, sizeof r->message,
				 "sim_state_size refused the machine but sim_init did not");
			return;
		}
		r->outcome = RUN_REFUSED;
		return;
	}
	s = aligned_alloc(8, (size + 7) & ~(size_t)7);
	if (!s) {
		r->outcome = RUN_REFUSED;
		return;
	}
	if (sim_init(s, size, cfg) || sim_check(s)) {
		r->outcome = RUN_FAILED;
		snprintf(r->message, sizeof r->message, "machine did not boot clean: %s", s->error);
		free(s);
		return;
	}
	r->outcome = RUN_CLEAN;
	for (long i = 0; i < n; i++) {
		const struct step *st = &steps[i];
		int err;
		progress->step = i;
		if (st->flip) {
			/* a frame as the accessors see it: a slab's record, a whole block's head, or
			 * the tail every whole block shares (base/frames.h) */
			uint64_t at = st->offset % ((uint64_t)s->nr_frames * sizeof(struct page));
			uint8_t *base = (uint8_t *)frame_at(
				s, nth_frame(s, (uint32_t)(at / sizeof(struct page))));
			uint64_t bytes = sizeof(struct page);
			if (st->flip == FLIP_PAGEBLOCKS) {
				base = sim_pageblocks(s);
				bytes = s->nr_pageblocks;
			} else if (st->flip == FLIP_HANDLES) {
				base = (uint8_t *)sim_handles(s);
				bytes = (uint64_t)s->config.max_handles * sizeof(struct handle);
			}
			base[st->offset % bytes] ^= (uint8_t)(1u << st->bit);
			r->flips++;
			flipped = 1;
			if (sim_check(s)) {
				r->outcome = RUN_FLIP_CAUGHT;
				break;
			}
			continue;
		}
		err = sim_apply(s, &st->op);
		corrupted |= st->op.kind == OP_CORRUPT;
		r->applied++;
		sim_events_clear(s);
		if (err == SIM_ECORRUPT || s->frozen) {
			/* a frozen state must say why and refuse every later op */
			if (!s->error[0] || sim_apply(s, &st->op) != SIM_ECORRUPT) {
				r->outcome = RUN_FAILED;
				r->failed_at = i;
				snprintf(r->message, sizeof r->message, "frozen without a report");
			} else {
				r->outcome = RUN_FROZEN;
			}
			break;
		}
		if (sim_check(s)) {
			if (corrupted && !s->profile.pcp_count_fix) {
				/* the modelled 2016 bug: count out of sync after a bad page; the checker caught it */
				r->outcome = RUN_FROZEN;
				break;
			}
			if (flipped) {
				/* a flip no check sees at once (an isolate bit) shows in the counts later */
				r->outcome = RUN_FLIP_CAUGHT;
				break;
			}
			r->outcome = RUN_FAILED;
			r->failed_at = i;
			snprintf(r->message, sizeof r->message, "checker (profile %s): %s",
				 s->profile.name, s->error);
			break;
		}
	}
	progress->step = -1;
	free(s);
}

/* An op of the capture's vocabulary (page_alloc/capture.h, reclaim/capture.c). */
static struct step capture_op(int kind, int order, int cpu, uint32_t gfp, uint32_t zone,
			      int32_t arg)
{
	struct step st = { 0 };

	st.op = (struct sim_op){ (uint8_t)kind, (uint8_t)order, (uint16_t)cpu, gfp, zone, arg };
	return st;
}

/*
 * A captured starting state, as --machine-from-zoneinfo builds one, for every zone of the machine
 * (at most max steps): free blocks per order and type, pageblocks per type, the layout, LRU
 * lists (order-0 pages, or folios of a random order), pcp blocks and a boost. Much of the zone
 * stays captured in use, so whole in-use blocks, LRU extents and their materialising are checked
 * after every step like the rest. Returns the steps written.
 */
static long capture_prologue(const struct sim_config *cfg, uint32_t cpus, uint64_t *x,
			     struct step *steps, long max)
{
	long n = 0;

	for (int nid = 0; nid < cfg->nr_nodes && nid < MAX_NUMNODES; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			uint32_t zone = (uint32_t)(nid * MAX_NR_ZONES + zid);
			uint32_t managed = cfg->zones[nid][zid].managed;
			if (!managed || n + 16 > max)
				continue;
			for (int i = 0; i < 3; i++)
				steps[n++] = capture_op(OP_CAPTURE_ZONE,
							(int)below(x, cfg->max_order + 1u), 0,
							below(x, MIGRATE_TYPES), zone,
							(int32_t)below(x, 1 + managed / 64));
			if (below(x, 2))
				for (uint32_t mt = 0; mt < MIGRATE_HIGHATOMIC + 1u; mt++)
					steps[n++] = capture_op(
						OP_CAPTURE_ZONE, CAPTURE_PAGEBLOCKS, 0, mt, zone,
						(int32_t)below(x, 1 + managed / 512));
			steps[n++] = capture_op(OP_CAPTURE_ZONE, CAPTURE_LAYOUT, 0, 0, zone, 0);
			for (int i = 0; i < 3; i++)
				steps[n++] =
					below(x, 3) ?
						capture_op(OP_CAPTURE_LRU, 0, 0,
							   below(x, NR_LRU_LISTS), zone,
							   (int32_t)below(x, 1 + managed / 2)) :
						capture_op(OP_CAPTURE_LRU_FOLIOS,
							   (int)below(x, cfg->max_order + 1u), 0,
							   below(x, NR_LRU_LISTS), zone,
							   (int32_t)below(x, 1 + managed / 16));
			steps[n++] = capture_op(OP_CAPTURE_PCP, (int)below(x, 4),
						(int)below(x, cpus), below(x, MIGRATE_PCPTYPES),
						zone, (int32_t)below(x, 64));
			if (below(x, 4) == 0)
				steps[n++] = capture_op(OP_CAPTURE_ZONE, CAPTURE_BOOST, 0, 0, zone,
							(int32_t)below(x, 4096));
		}
	return n;
}

/* The machine and steps of the case with this seed. */
static struct step *make_case(uint64_t seed, long ops, struct sim_config *cfg)
{
	uint64_t x = seed;
	struct step *steps = malloc(sizeof *steps * (size_t)(ops ? ops : 1));
	uint32_t cpus, pfn_end = 0;

	case_machine(cfg, &x);
	cpus = (uint32_t)cfg->nr_nodes * cfg->cpus_per_node;
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone_config *zc = &cfg->zones[nid][zid];
			if (zc->managed && zc->start_pfn + zc->spanned > pfn_end)
				pfn_end = zc->start_pfn + zc->spanned;
		}
	if (pfn_end > (1u << 24))
		pfn_end = 1u << 24;
	/* one case in three starts from a captured state (its steps count among the ops) */
	for (long i = steps && below(&x, 3) == 0 ?
			      capture_prologue(cfg, cpus ? cpus : 1, &x, steps, ops / 2) :
			      0;
	     i < ops && steps; i++)
		steps[i] = random_step(&x, cpus ? cpus : 1, pfn_end);
	return steps;
}

/*
 * Whether steps fail on cfg, run in a child so that a sanitizer abort or a hang counts too; the
 * failing step is then progress->step and its message progress->message. quiet: the child's
 * output goes to /dev/null.
 */
static int fails_in_child(const struct sim_config *cfg, const struct step *steps, long n, int quiet)
{
	int status = 0;
	pid_t pid;

	progress->step = -1;
	snprintf(progress->message, sizeof progress->message, "a sanitizer report or a hang");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct run r;
		if (quiet &&
		    (!freopen("/dev/null", "w", stderr) || !freopen("/dev/null", "w", stdout)))
			_exit(2);
		alarm(CASE_SECONDS);
		run_steps(cfg, steps, n, &r);
		if (r.outcome == RUN_FAILED) {
			progress->step = r.failed_at;
			snprintf(progress->message, sizeof progress->message, "%s", r.message);
		}
		_exit(r.outcome == RUN_FAILED ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 0;
	return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Print a step as a C initializer, ready for a test. */
static void print_step(const struct step *st)
{
	const struct sim_op *op = &st->op;

	if (st->flip)
		printf("\t/* flip bit %u of byte %llu (mod their size) of the %s */\n", st->bit,
		       (unsigned long long)st->offset,
		       st->flip == FLIP_FRAMES	   ? "frames" :
		       st->flip == FLIP_PAGEBLOCKS ? "pageblock tags" :
						     "handles");
	else
		printf("\t{ %u, %u, %u, 0x%x, %u, %d }, /* kind, order, cpu, gfp, handle, arg */\n",
		       op->kind, op->order, op->cpu, op->gfp, op->handle, op->arg);
}

/* Print a case's machine. */
static void print_machine(const struct sim_config *cfg)
{
	printf("machine: profile %u, %u nodes x %u cpus, max_order %u, pageblock_order %u, thp %u, "
	       "pcp_batch %d, high_fraction %d, wsf %d, min_free_kbytes %d, seed %llu, "
	       "percpu_peak_kib %u, percpu_reserved_size %u, percpu_handles %u\n",
	       cfg->profile, cfg->nr_nodes, cfg->cpus_per_node, cfg->max_order,
	       cfg->pageblock_order, cfg->thp, cfg->pcp_batch, cfg->percpu_pagelist_high_fraction,
	       cfg->watermark_scale_factor, cfg->min_free_kbytes, (unsigned long long)cfg->seed,
	       cfg->percpu_peak_kib, cfg->percpu_reserved_size, cfg->percpu_handles);
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone_config *zc = &cfg->zones[nid][zid];
			if (zc->spanned || zc->managed)
				printf("  zone %d/%d: start %u spanned %u present %u managed %u\n",
				       nid, zid, zc->start_pfn, zc->spanned, zc->present,
				       zc->managed);
		}
}

/*
 * Replay the case with this seed; if it fails, cut its steps down (delta debugging: drop halves,
 * then quarters, ... while it still fails, for at most a minute) and print what is left.
 */
static int replay_and_cut(uint64_t seed, long ops)
{
	struct sim_config cfg;
	struct step *steps = make_case(seed, ops, &cfg);
	long n = ops, tries = 0;
	time_t start = time(NULL);

	if (!steps)
		return 2;
	if (!fails_in_child(&cfg, steps, n, 1)) {
		printf("fuzz: case %llu passes\n", (unsigned long long)seed);
		free(steps);
		return 0;
	}
	if (progress->step >= 0)
		n = progress->step + 1; /* the steps after the failing one are not needed */
	for (long chunk = n / 2; chunk >= 1 && time(NULL) - start < 60; chunk /= 2) {
		for (long at = 0; at + chunk <= n && time(NULL) - start < 60;) {
			struct step *cut = malloc(sizeof *cut * (size_t)n);
			if (!cut)
				break;
			memcpy(cut, steps, sizeof *cut * (size_t)at);
			memcpy(cut + at, steps + at + chunk,
			       sizeof *cut * (size_t)(n - at - chunk));
			tries++;
			if (fails_in_child(&cfg, cut, n - chunk, 1)) {
				free(steps);
				steps = cut;
				n -= chunk;
			} else {
				free(cut);
				at += chunk;
			}
		}
	}
	printf("fuzz: case %llu cut down to %ld steps in %ld tries; their run:\n",
	       (unsigned long long)seed, n, tries);
	fails_in_child(&cfg, steps, n, 0);
	printf("fuzz: failure at step %ld: %s\n", progress->step, progress->message);
	print_machine(&cfg);
	printf("steps:\n");
	for (long i = 0; i < n; i++)
		print_step(&steps[i]);
	free(steps);
	return 1;
}

/*
 * SIGALRM (a hang) or SIGABRT (a sanitizer report, with abort_on_error=1): name the case and
 * step, then become the replay of the case, which cuts it down.
 */
static void on_fatal_signal(int sig)
{
	char line[160];
	int len = snprintf(line, sizeof line, "\nfuzz: %s in case %s at step %ld; replaying it\n",
			   sig == SIGALRM ? "HANG" : "CRASH", seed_arg, progress->step);
	sigset_t all;

	if (len > 0 && write(1, line, (size_t)len) < 0)
		_exit(4);
	sigfillset(&all);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
	signal(SIGALRM, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	execl(self, self, "--case", seed_arg, "--ops", ops_arg, (char *)NULL);
	_exit(sig == SIGALRM ? 3 : 1);
}

int main(int argc, char **argv)
{
	long cases = 100, ops = 400, seconds = 0;
	uint64_t x = 20261121, one_case = 0;
	int replay = 0;
	long applied = 0, flips = 0, counts[RUN_FAILED + 1] = { 0 }, ran = 0;
	struct timespec t0, t;

	self = argv[0];
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--seconds"))
			seconds = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--cases"))
			cases = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--ops"))
			ops = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--seed"))
			x = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--case"))
			one_case = strtoull(argv[i + 1], NULL, 10), replay = 1;
		else
			return fprintf(stderr, "fuzz: unknown option %s\n", argv[i]), 2;
	}
	progress = mmap(NULL, sizeof *progress, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			-1, 0);
	if (progress == MAP_FAILED || ops < 1)
		return 2;
	if (replay)
		return replay_and_cut(one_case, ops);
	signal(SIGALRM, on_fatal_signal);
	signal(SIGABRT, on_fatal_signal);
	snprintf(ops_arg, sizeof ops_arg, "%ld", ops);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (ran = 0; seconds ? 1 : ran < cases; ran++) {
		struct sim_config cfg;
		struct step *steps;
		struct run r;
		if (seconds) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec >= seconds)
				break;
		}
		current_seed = next_random(&x);
		snprintf(seed_arg, sizeof seed_arg, "%llu", (unsigned long long)current_seed);
		steps = make_case(current_seed, ops, &cfg);
		if (!steps)
			return 2;
		fflush(stdout);
		alarm(CASE_SECONDS);
		run_steps(&cfg, steps, ops, &r);
		alarm(0);
		free(steps);
		applied += r.applied;
		flips += r.flips;
		counts[r.outcome]++;
		if (r.outcome == RUN_FAILED) {
			printf("fuzz: case %s step %ld: %s\n", seed_arg, r.failed_at, r.message);
			replay_and_cut(current_seed, ops);
			break;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t);
	printf("fuzz: core: %ld cases (%ld machines refused or skipped), %ld ops applied, %ld bits "
	       "flipped (%ld caught by the checker), %ld frozen by a reported corruption, "
	       "%ld checker failures, 0 crashes, 0 hangs, %.1f s\n",
	       ran, counts[RUN_REFUSED], applied, flips, counts[RUN_FLIP_CAUGHT],
	       counts[RUN_FROZEN], counts[RUN_FAILED],
	       (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9);
	printf("fuzz: %d passed, %d failed\n", counts[RUN_FAILED] ? 0 : 1,
	       counts[RUN_FAILED] ? 1 : 0);
	return counts[RUN_FAILED] ? 1 : 0;
}
