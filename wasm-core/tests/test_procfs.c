/*
 * test_procfs.c: the /proc renderings against the kernel's formats. The acceptance test boots the
 * machine of the live 6.18 capture and compares, line for line, every zoneinfo line that does
 * not depend on what ran (watermarks, spans, protection, pcp batch/high_min/high_max, stat
 * thresholds, start_pfn) with the real /proc/zoneinfo, read from $BUDDYSCOPE_SHARED at run time
 * (docs/kernel/page_alloc/live-check.md#h5-the-capture-machines).
 */
#include <stdio.h>

#include "alloc_test_util.h"
#include "base/textbuf.h"
#include "page_alloc/procfs.h"
#include "page_alloc/tracefmt.h"

#define PROC_BUF (1u << 20)

/* Render a /proc file into a malloc'd buffer. */
static char *render(const struct sim *s, int which)
{
	char *buf = malloc(PROC_BUF);
	size_t need;

	if (!buf)
		return NULL;
	need = sim_proc_render(s, which, buf, PROC_BUF);
	CHECK(need < PROC_BUF);
	return buf;
}

/* Path of the real zoneinfo: $BUDDYSCOPE_SHARED or ../../shared from wasm-core/. */
static FILE *open_capture(void)
{
	const char *dir = getenv("BUDDYSCOPE_SHARED");
	char path[512];

	snprintf(path, sizeof path, "%s/traces/zoneinfo-at-capture.txt",
		 dir ? dir : "../../shared");
	return fopen(path, "r");
}

/* Whether a zoneinfo line is one the machine description alone decides (not free counts or use). */
static int stable_line(const char *line)
{
	static const char *const keys[] = { "Node ",
					    "boost ",
					    "min ",
					    "low ",
					    "high ",
					    "promo ",
					    "spanned ",
					    "present ",
					    "managed ",
					    "cma ",
					    "protection:",
					    "batch:",
					    "high_min:",
					    "high_max:",
					    "vm stats threshold:",
					    "node_unreclaimable:",
					    "start_pfn:",
					    "cpu:" };
	while (*line == ' ')
		line++;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!strncmp(line, keys[i], strlen(keys[i])))
			return 1;
	return 0;
}

/* The stable lines of a zoneinfo text, newline-joined, into out (cap bytes). */
static void stable_lines(const char *text, char *out, size_t cap)
{
	size_t len = 0;

	out[0] = '\0';
	while (*text) {
		const char *end = strchr(text, '\n');
		size_t n = end ? (size_t)(end - text) : strlen(text);
		char line[256];

		if (n < sizeof line) {
			memcpy(line, text, n);
			line[n] = '\0';
			if (stable_line(line) && len + n + 2 < cap) {
				memcpy(out + len, line, n);
				len += n;
				out[len++] = '\n';
				out[len] = '\0';
			}
		}
		text += n + (end ? 1 : 0);
	}
}

/* Report the first differing line of two texts. */
static void first_difference(const char *want, const char *got)
{
	int line = 1;
	while (*want && *want == *got) {
		line += *want == '\n';
		want++;
		got++;
	}
	if (*want || *got) {
		const char *w = want, *g = got;
		while (w > want - 60 && w[-1] != '\n')
			w--;
		while (g > got - 60 && g[-1] != '\n')
			g--;
		fprintf(stderr,
			"    zoneinfo line %d differs:\n      want: %.60s\n      got:  %.60s\n",
			line, w, g);
	}
}

TEST(procfs_zoneinfo_matches_live_capture)
{
	struct sim_config cfg;
	struct sim *s;
	FILE *f = open_capture();
	char *real, *mine, *want, *got;
	size_t n;

	/* CI keeps shared/ beside the repository: a missing capture is a failure, not a skip */
	CHECK(f != NULL);
	if (!f)
		return;
	real = calloc(1, PROC_BUF);
	n = real ? fread(real, 1, PROC_BUF - 1, f) : 0;
	fclose(f);
	CHECK(n > 1000);
	at_capture_config(&cfg);
	s = at_boot(&cfg);
	CHECK(s != NULL);
	if (!s || !real) {
		free(real);
		free(s);
		return;
	}
	CHECK_EQ(at_check(s), SIM_OK);
	/* the THP recommendation: 512 * 3 * 2 + 512 * 3 * 9 = 16896 pages */
	CHECK_EQ(s->min_free_kbytes, 67584);
	mine = render(s, PROC_ZONEINFO);
	want = calloc(1, PROC_BUF);
	got = calloc(1, PROC_BUF);
	if (mine && want && got) {
		stable_lines(real, want, PROC_BUF);
		stable_lines(mine, got, PROC_BUF);
		/* 5 zone headers, 2 pagesets of 3 populated zones, ... : well over 60 lines compared */
		CHECK(strlen(want) > 1500);
		CHECK(!strcmp(want, got));
		first_difference(want, got);
	}
	free(want);
	free(got);
	free(mine);
	free(real);
	free(s);
}

TEST(procfs_zoneinfo_layout_of_a_populated_and_an_empty_zone)
{
	struct sim *s = at_preset("small", PROFILE_6_18);
	char *text;
	const char *normal, *movable;

	CHECK(s != NULL);
	if (!s)
		return;
	text = render(s, PROC_ZONEINFO);
	if (text) {
		normal = strstr(text, "Node 0, zone   Normal\n  pages free     ");
		CHECK(normal != NULL);
		/* the counters in the kernel's spelling and padding, then NUMA, then pagesets */
		CHECK(strstr(text, "\n      nr_free_pages 12288\n      nr_free_pages_blocks 12288\n"
				   "      nr_zone_inactive_anon 0\n") != NULL);
		CHECK(strstr(text,
			     "\n      nr_mlock     0\n      nr_zspages   0\n      nr_free_cma  0\n"
			     "      numa_hit     0\n      numa_miss    0\n      numa_foreign 0\n"
			     "      numa_interleave 0\n      numa_local   0\n      numa_other   0\n"
			     "  pagesets\n    cpu: 0\n              count:    0\n") != NULL);
		CHECK(strstr(text, "\n  node_unreclaimable:  0\n  start_pfn:           8192\n") !=
		      NULL);
		/* an empty zone stops after protection */
		movable = strstr(text,
				 "Node 0, zone  Movable\n  pages free     0\n        boost    0\n"
				 "        min      32\n        low      32\n        high     32\n"
				 "        promo    32\n        spanned  0\n        present  0\n"
				 "        managed  0\n        cma      0\n"
				 "        protection: (0, 0, 0, 0, 0)\nNode 0, zone   Device\n");
		CHECK(movable != NULL);
	}
	free(text);
	free(s);
}

TEST(procfs_zoneinfo_6_6_pagesets_have_no_high_min_max_and_no_promo)
{
	struct sim *s = at_preset("small", PROFILE_6_6);
	char *text;

	CHECK(s != NULL);
	if (!s)
		return;
	text = render(s, PROC_ZONEINFO);
	if (text) {
		CHECK(strstr(text, "\n        promo ") == NULL);
		CHECK(strstr(text, "high_min") == NULL);
		CHECK(strstr(text, "nr_free_pages_blocks") == NULL);
		CHECK(strstr(text, "\n    cpu: 1\n              count: 0\n              high:  ") !=
		      NULL);
	}
	free(text);
	free(s);
}

TEST(procfs_buddyinfo_format)
{
	struct sim_config cfg;
	struct sim *s;
	char *text;

	/* the DMA zone of the live machine decomposes exactly as the live buddyinfo shows */
	at_capture_config(&cfg);
	cfg.zones[0][ZONE_DMA32] = (struct zone_config){ 0, 0, 0, 0 };
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 4096, 4096, 4096, 4096 };
	s = at_boot(&cfg);
	CHECK(s != NULL);
	if (!s)
		return;
	text = render(s, PROC_BUDDYINFO);
	if (text)
		CHECK(!strcmp(
			text,
			"Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3 \n"
			"Node 0, zone   Normal      0      0      0      0      0      0      0      0      0      0      4 \n"));
	free(text);
	free(s);
}

TEST(procfs_pagetypeinfo_format_and_cap)
{
	struct sim *s = at_preset("tiny", PROFILE_6_18);
	struct zone *z;
	char *text;

	CHECK(s != NULL);
	if (!s)
		return;
	text = render(s, PROC_PAGETYPEINFO);
	if (text) {
		/* tiny: orders 0..6, pageblock order 4, 256 pages = 4 order-6 blocks, 16 pageblocks */
		CHECK(!strcmp(
			text,
			"Page block order: 4\n"
			"Pages per block:  16\n"
			"\n"
			"Free pages count per migrate type at order       0      1      2      3      4      5      6 \n"
			"Node    0, zone   Normal, type    Unmovable      0      0      0      0      0      0      0 \n"
			"Node    0, zone   Normal, type      Movable      0      0      0      0      0      0      4 \n"
			"Node    0, zone   Normal, type  Reclaimable      0      0      0      0      0      0      0 \n"
			"Node    0, zone   Normal, type   HighAtomic      0      0      0      0      0      0      0 \n"
			"Node    0, zone   Normal, type      Isolate      0      0      0      0      0      0      0 \n"
			"\n"
			"Number of blocks type     Unmovable      Movable  Reclaimable   HighAtomic      Isolate \n"
			"Node 0, zone   Normal            0           16            0            0            0 \n"));
	}
	free(text);
	/* the kernel stops counting a list at 100000 and prints ">100000" */
	z = sim_zone(s, 0, ZONE_NORMAL);
	z->free_area[0].count[MIGRATE_UNMOVABLE] = 123456;
	text = render(s, PROC_PAGETYPEINFO);
	if (text)
		CHECK(strstr(text, "type    Unmovable >100000      0") != NULL);
	z->free_area[0].count[MIGRATE_UNMOVABLE] = 0;
	free(text);
	free(s);
}

TEST(procfs_vmstat_counts_allocations_and_frees)
{
	struct sim *s = at_preset("small", PROFILE_6_18);
	char *text;

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 0, 0), SIM_OK);
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 4, 1), SIM_OK);
	CHECK_EQ(at_alloc(s, 0, GFP_DMA32, 1, 2), SIM_OK);
	CHECK_EQ(at_free(s, 0, 1), SIM_OK);
	text = render(s, PROC_VMSTAT);
	if (text) {
		CHECK(!strncmp(text, "nr_free_pages ", 14));
		CHECK(strstr(text, "\nnr_free_pages_blocks ") != NULL);
		CHECK(strstr(text,
			     "\nnuma_hit 3\nnuma_miss 0\nnuma_foreign 0\nnuma_interleave 0\nnuma_local 3\n"
			     "numa_other 0\n") != NULL);
		CHECK(strstr(text,
			     "\npgalloc_dma 0\npgalloc_dma32 2\npgalloc_normal 17\npgalloc_movable 0\n"
			     "pgalloc_device 0\nallocstall_dma 0\n") != NULL);
		/* the order-4 block went straight back to the buddy: 16 pages freed */
		CHECK(strstr(text, "\npgfree 16\n") != NULL);
	}
	free(text);
	free(s);
}

TEST(procfs_and_trace_render_after_random_workload_every_profile)
{
	for (int profile = 0; profile < NR_PROFILES; profile++) {
		struct sim *s = at_preset("small", profile);
		char *buf = malloc(PROC_BUF);

		CHECK(s && buf);
		if (!s || !buf) {
			free(s);
			free(buf);
			continue;
		}
		/* a random stream of allocations and frees up to order 4, 40% frees, 256 live blocks */
		for (int i = 0; i < 2000; i++) {
			uint32_t gfp = (i % 3 == 0) ? GFP_HIGHUSER_MOVABLE :
				       (i % 3 == 1) ? GFP_KERNEL :
						      GFP_ATOMIC;
			struct sim_op op = { OP_RANDOM, 4, (uint16_t)(i % 2),
					     gfp,	0, (256 << 7) | 40 };
			int err = sim_apply(s, &op);
			CHECK(err == SIM_OK || err == SIM_ENOMEM);
		}
		CHECK_EQ(at_check(s), SIM_OK);
		/* measuring with no buffer gives the length an exact buffer then receives */
		for (int which = 0; which < NR_PROC_FILES; which++) {
			size_t need = sim_proc_render(s, which, NULL, 0);
			CHECK(need > 0 && need < PROC_BUF);
			CHECK_EQ(sim_proc_render(s, which, buf, need + 1), need);
			CHECK_EQ(strlen(buf), need);
		}
		{
			size_t need = sim_trace_render(s, 0, s->nr_events, NULL, 0);
			char *trace = malloc(need + 1);
			CHECK(trace != NULL);
			if (trace) {
				CHECK_EQ(sim_trace_render(s, 0, s->nr_events, trace, need + 1),
					 need);
				/* one line per event */
				size_t lines = 0;
				for (size_t i = 0; i < need; i++)
					lines += trace[i] == '\n';
				CHECK_EQ(lines, s->nr_events);
			}
			free(trace);
		}
		free(buf);
		free(s);
	}
}
