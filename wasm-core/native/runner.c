/*
 * runner.c: the native twin of the wasm module, for determinism tests and benchmarks.
 *
 *   sim-native PRESET OPS_FILE [--profile NAME] [--handles N] [--percpu-handles N]
 *              [--percpu-peak-kib N] [--events FILE] [--time] [--layout]
 *
 * OPS_FILE holds packed struct sim_op records (16 bytes each, as the workload compiler writes
 * them). Events of each op are written as raw struct sim_event records to --events FILE ("-" for
 * stdout). --time prints one JSON line with ops, events and seconds to stdout instead. --layout
 * prints the booted arena's regions and their bytes as one JSON line and applies no op: what
 * each part of the state costs (the bench prints it under its state row).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/sim.h"
#include "base/subsystem.h"

/* One region of the arena: its name and where it starts. */
struct region {
	const char *name;
	uint32_t off;
};

/* Print the arena's regions in address order with their bytes, as one JSON object. */
static void print_layout(const struct sim *s)
{
	struct region r[32];
	int n = 0;

	r[n++] = (struct region){ "header", 0 };
	r[n++] = (struct region){ "block_frames", s->block_frames_off };
	r[n++] = (struct region){ "block_heads", s->block_heads_off };
	r[n++] = (struct region){ "pageblocks", s->pageblocks_off };
	r[n++] = (struct region){ "frame_stamps", s->frame_stamps_off };
	r[n++] = (struct region){ "frame_group_stamps", s->frame_group_stamps_off };
	r[n++] = (struct region){ "nodes", s->nodes_off };
	r[n++] = (struct region){ "cpus", s->cpus_off };
	r[n++] = (struct region){ "pcp", s->pcp_off };
	r[n++] = (struct region){ "handles", s->handles_off };
	r[n++] = (struct region){ "slab_blocks", s->slab_blocks_off };
	r[n++] = (struct region){ "slab_free", s->slab_free_off };
	for (int i = 0; i < MAX_SUBSYSTEMS && sim_subsystems[i]; i++)
		if (s->subsystem_off[i])
			r[n++] = (struct region){ sim_subsystems[i]->name, s->subsystem_off[i] };
	r[n++] = (struct region){ "pool", s->pool_off };
	r[n++] = (struct region){ "pool_owners", s->pool_owners_off };
	r[n++] = (struct region){ "events", s->events_off };
	/* insertion sort by offset: the list is short and nearly sorted already */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && r[j - 1].off > r[j].off; j--) {
			struct region t = r[j];
			r[j] = r[j - 1];
			r[j - 1] = t;
		}
	printf("{");
	for (int i = 0; i < n; i++)
		printf("%s\"%s\":%u", i ? "," : "", r[i].name,
		       (i + 1 < n ? r[i + 1].off : s->arena_size) - r[i].off);
	printf("}\n");
}

/* Seconds on a monotonic clock. */
static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Read a whole file; NULL on failure. */
static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, len = 0, got;

	if (!f)
		return NULL;
	do {
		if (len == cap) {
			char *grown;
			cap = cap ? cap * 2 : 1 << 16;
			grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = grown;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
	} while (got);
	fclose(f);
	*size = len;
	return buf;
}

int main(int argc, char **argv)
{
	struct sim_config cfg;
	const char *events_path = NULL;
	int timing = 0, layout = 0;
	size_t ops_size, state_size;
	struct sim_op *ops;
	struct sim *s;
	FILE *out = NULL;
	uint64_t total_events = 0;
	double start;

	if (argc < 3) {
		fprintf(stderr,
			"usage: %s PRESET OPS_FILE [--profile NAME] [--handles N] [--percpu-handles N] [--percpu-peak-kib N] [--events FILE] [--time] [--layout]\n",
			argv[0]);
		return 2;
	}
	if (sim_config_preset(&cfg, argv[1])) {
		fprintf(stderr, "sim-native: unknown preset %s\n", argv[1]);
		return 2;
	}
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--profile") && i + 1 < argc) {
			int id = sim_profile_by_name(argv[++i]);
			if (id < 0) {
				fprintf(stderr, "sim-native: unknown profile %s\n", argv[i]);
				return 2;
			}
			cfg.profile = (uint8_t)id;
		} else if (!strcmp(argv[i], "--handles") && i + 1 < argc) {
			cfg.max_handles = (uint32_t)strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--percpu-handles") && i + 1 < argc) {
			cfg.percpu_handles = (uint32_t)strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--percpu-peak-kib") && i + 1 < argc) {
			cfg.percpu_peak_kib = (uint32_t)strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--events") && i + 1 < argc) {
			events_path = argv[++i];
		} else if (!strcmp(argv[i], "--time")) {
			timing = 1;
		} else if (!strcmp(argv[i], "--layout")) {
			layout = 1;
		} else {
			fprintf(stderr, "sim-native: unknown argument %s\n", argv[i]);
			return 2;
		}
	}
	ops = read_file(argv[2], &ops_size);
	if (!ops || ops_size % sizeof(struct sim_op)) {
		fprintf(stderr, "sim-native: %s is not a packed op file\n", argv[2]);
		return 2;
	}
	state_size = sim_state_size(&cfg);
	s = state_size ? aligned_alloc(8, state_size) : NULL;
	if (!s || sim_init(s, state_size, &cfg)) {
		fprintf(stderr, "sim-native: cannot build the machine\n");
		return 2;
	}
	if (layout) {
		print_layout(s);
		free(s);
		free(ops);
		return 0;
	}
	if (events_path)
		out = strcmp(events_path, "-") ? fopen(events_path, "wb") : stdout;
	if (events_path && !out) {
		fprintf(stderr, "sim-native: cannot write %s\n", events_path);
		return 2;
	}

	start = now_seconds();
	for (size_t i = 0; i < ops_size / sizeof(struct sim_op); i++) {
		sim_apply(s, &ops[i]);
		total_events += s->nr_events + s->events_dropped;
		if (out)
			fwrite(sim_events(s), sizeof(struct sim_event), s->nr_events, out);
		sim_events_clear(s);
	}
	if (timing)
		printf("{\"ops\":%zu,\"events\":%llu,\"seconds\":%.6f,\"state_bytes\":%zu}\n",
		       ops_size / sizeof(struct sim_op), (unsigned long long)total_events,
		       now_seconds() - start, state_size);
	if (out && out != stdout)
		fclose(out);
	free(s);
	free(ops);
	return 0;
}
