/*
 * lru-state: which memory cgroup, LRU list and folio size every LRU page of a live machine has,
 * summarised (root: reads /proc/kpageflags, /proc/kpagecgroup and /proc/zoneinfo).
 *
 *   lru-state [MEMCG_ROOT]     (MEMCG_ROOT: the memory controller's cgroupfs mount,
 *                               default /sys/fs/cgroup/memory, or a cgroup2 mount)
 *
 * Prints the lru-state format of traces/README.md: a header; `cgroups N`, the memory
 * controller's num_cgroups from /proc/cgroups (online and offline ones); one `memcg` line per
 * online memory cgroup, a pre-order walk of the cgroupfs tree (siblings by inode number), with
 * its memory.stat list sizes in pages, its own and its subtree's (cgroup v1's inactive_anon ...
 * and total_inactive_anon ...; cgroup v2 has no own figures: `-`); then one `folios` line per
 * node, zone, memcg, list and folio order with how many folios there are.
 * A folio is counted once, at its head page; pages on the unevictable list are left out.
 * /proc/kpagecgroup names, for a page of a deleted (offline) memcg, its nearest online ancestor
 * (page_cgroup_ino), so offline memcgs show only as the difference between an ancestor's
 * subtree figures and what its own and its online children's account for.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* /proc/kpageflags bits (include/uapi/linux/kernel-page-flags.h) */
#define KPF_LRU 5
#define KPF_ACTIVE 6
#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define KPF_UNEVICTABLE 18
#define KPF_NOPAGE 20
#define KPF_SWAPBACKED 14

#define MAX_ZONES 64
#define MAX_MEMCGS 4096
#define MAX_ORDER_SEEN 20
#define CHUNK 65536

static const char *const lru_names[] = { "inactive_anon", "active_anon", "inactive_file",
					 "active_file" };

struct zone_span {
	int node;
	char name[16];
	uint64_t start, end;
};

struct memcg {
	uint64_t ino;
	int online;
	int have_stat;
	uint64_t local[4], total[4]; /* memory.stat list sizes, pages */
	char path[512];
};

static struct zone_span zones[MAX_ZONES];
static int nr_zones;
static struct memcg memcgs[MAX_MEMCGS];
static int nr_memcgs;
/* folio counts: [zone][memcg][lru][order] would be large; keep a flat sparse list instead */
struct count {
	int zone, memcg, lru, order;
	uint64_t n;
};
static struct count *counts;
static size_t nr_counts, cap_counts;

static void die(const char *what)
{
	fprintf(stderr, "lru-state: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void read_zones(void)
{
	FILE *f = fopen("/proc/zoneinfo", "r");
	char line[512];
	int cur = -1;
	uint64_t spanned = 0;

	if (!f)
		die("/proc/zoneinfo");
	while (fgets(line, sizeof line, f)) {
		int node;
		char name[16];
		unsigned long long v;

		if (sscanf(line, "Node %d, zone %15s", &node, name) == 2) {
			if (nr_zones == MAX_ZONES)
				break;
			cur = nr_zones++;
			zones[cur].node = node;
			snprintf(zones[cur].name, sizeof zones[cur].name, "%s", name);
			spanned = 0;
		} else if (cur >= 0 && sscanf(line, " spanned %llu", &v) == 1) {
			spanned = v;
		} else if (cur >= 0 && sscanf(line, " start_pfn: %llu", &v) == 1) {
			zones[cur].start = v;
			zones[cur].end = v + spanned;
		}
	}
	fclose(f);
}

static int zone_of(uint64_t pfn)
{
	static int last;

	if (last < nr_zones && pfn >= zones[last].start && pfn < zones[last].end)
		return last;
	for (int i = 0; i < nr_zones; i++)
		if (pfn >= zones[i].start && pfn < zones[i].end)
			return last = i;
	return -1;
}

/* memory.stat's list sizes (bytes in cgroup v1) as pages: own and, with total_, the subtree's. */
static void read_stat(struct memcg *m, const char *dir)
{
	char path[4200], key[64];
	unsigned long long v;
	FILE *f;
	int seen = 0;

	snprintf(path, sizeof path, "%s/memory.stat", dir);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fscanf(f, "%63s %llu", key, &v) == 2)
		for (int i = 0; i < 4; i++) {
			char total[80];

			snprintf(total, sizeof total, "total_%s", lru_names[i]);
			if (!strcmp(key, lru_names[i])) {
				m->local[i] = v / 4096;
				seen |= 1 << i;
			} else if (!strcmp(key, total)) {
				m->total[i] = v / 4096;
				seen |= 16 << i;
			}
		}
	fclose(f);
	m->have_stat = seen == 0xff;
}

static int cmp_ino(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The online memcgs: a pre-order walk of the cgroupfs tree, siblings by inode number
 * (mem_cgroup_iter's order: css_next_descendant_pre, children in creation order). */
static void walk(const char *dir, const char *rel, int depth)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	uint64_t (*kids)[2] = NULL; /* ino, index into names */
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (stat(dir, &st) || nr_memcgs == MAX_MEMCGS || depth > 64)
		return;
	memcgs[nr_memcgs].ino = st.st_ino;
	memcgs[nr_memcgs].online = 1;
	snprintf(memcgs[nr_memcgs].path, sizeof memcgs[0].path, "%s", *rel ? rel : "/");
	read_stat(&memcgs[nr_memcgs], dir);
	nr_memcgs++;
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		char sub[4096];
		struct stat cs;

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
		if (stat(sub, &cs) || !S_ISDIR(cs.st_mode))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			kids = realloc(kids, cap * sizeof *kids);
			names = realloc(names, cap * sizeof *names);
			if (!kids || !names)
				die("memory");
		}
		kids[n][0] = cs.st_ino;
		kids[n][1] = n;
		names[n] = strdup(e->d_name);
		n++;
	}
	closedir(d);
	qsort(kids, n, sizeof *kids, cmp_ino);
	for (size_t i = 0; i < n; i++) {
		char sub[4096], subrel[4096];

		snprintf(sub, sizeof sub, "%s/%s", dir, names[kids[i][1]]);
		snprintf(subrel, sizeof subrel, "%s/%s", rel, names[kids[i][1]]);
		walk(sub, subrel, depth + 1);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(kids);
}

static int memcg_index(uint64_t ino)
{
	static int last;

	if (last < nr_memcgs && memcgs[last].ino == ino)
		return last;
	for (int i = 0; i < nr_memcgs; i++)
		if (memcgs[i].ino == ino)
			return last = i;
	if (nr_memcgs == MAX_MEMCGS)
		return -1;
	/* not in the tree (0: charged to no memcg): its own line, path "-", no figures */
	memcgs[nr_memcgs].ino = ino;
	memcgs[nr_memcgs].online = 0;
	snprintf(memcgs[nr_memcgs].path, sizeof memcgs[0].path, "-");
	return last = nr_memcgs++;
}

static void count(int zone, int memcg, int lru, int order)
{
	for (size_t i = nr_counts; i-- > 0;) {
		struct count *c = &counts[i];
		if (c->zone == zone && c->memcg == memcg && c->lru == lru && c->order == order) {
			c->n++;
			return;
		}
	}
	if (nr_counts == cap_counts) {
		cap_counts = cap_counts ? cap_counts * 2 : 256;
		counts = realloc(counts, cap_counts * sizeof *counts);
		if (!counts)
			die("memory");
	}
	counts[nr_counts++] = (struct count){ zone, memcg, lru, order, 1 };
}

static int cmp_count(const void *a, const void *b)
{
	const struct count *x = a, *y = b;
	if (x->zone != y->zone)
		return x->zone - y->zone;
	if (x->memcg != y->memcg)
		return x->memcg - y->memcg;
	if (x->lru != y->lru)
		return x->lru - y->lru;
	return x->order - y->order;
}

/* The memory controller's num_cgroups in /proc/cgroups (-1 when not found). */
static int num_cgroups(void)
{
	FILE *f = fopen("/proc/cgroups", "r");
	char line[256], name[64];
	int hier, num = -1, n;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%63s %d %d", name, &hier, &n) == 3 && !strcmp(name, "memory"))
			num = n;
	fclose(f);
	return num;
}

int main(int argc, char **argv)
{
	const char *root = argc > 1 ? argv[1] : "/sys/fs/cgroup/memory";
	int ff = open("/proc/kpageflags", O_RDONLY), fc = open("/proc/kpagecgroup", O_RDONLY);
	static uint64_t flags[CHUNK + 1024], cg[CHUNK + 1024];
	uint64_t end = 0, skipped_unplaced = 0;

	if (ff < 0)
		die("/proc/kpageflags");
	if (fc < 0)
		die("/proc/kpagecgroup");
	read_zones();
	for (int i = 0; i < nr_zones; i++)
		if (zones[i].end > end)
			end = zones[i].end;
	walk(root, "", 0);
	for (uint64_t base = 0; base < end; base += CHUNK) {
		/* read a little past the chunk so a folio that starts in it is measured whole */
		size_t want = (size_t)(end - base < CHUNK + 1024 ? end - base : CHUNK + 1024);
		ssize_t got = pread(ff, flags, want * 8, (off_t)(base * 8));
		ssize_t gotc = pread(fc, cg, want * 8, (off_t)(base * 8));
		size_t n, lim;

		if (got < 0 || gotc < 0)
			die("read");
		n = (size_t)(got < gotc ? got : gotc) / 8;
		lim = n < CHUNK ? n : CHUNK;
		for (size_t i = 0; i < lim; i++) {
			uint64_t f = flags[i];
			int order = 0, zone, memcg, lru;

			if (!(f & (1ull << KPF_LRU)) || (f & (1ull << KPF_COMPOUND_TAIL)) ||
			    (f & (1ull << KPF_UNEVICTABLE)) || (f & (1ull << KPF_NOPAGE)))
				continue;
			if (f & (1ull << KPF_COMPOUND_HEAD)) {
				size_t j = i + 1;
				while (j < n && (flags[j] & (1ull << KPF_COMPOUND_TAIL)) &&
				       !(flags[j] & (1ull << KPF_COMPOUND_HEAD)))
					j++;
				while ((1ull << (order + 1)) <= j - i && order < MAX_ORDER_SEEN)
					order++;
			}
			zone = zone_of(base + i);
			memcg = memcg_index(cg[i]);
			if (zone < 0 || memcg < 0) {
				skipped_unplaced++;
				continue;
			}
			lru = ((f & (1ull << KPF_SWAPBACKED)) ? 0 : 2) +
			      ((f & (1ull << KPF_ACTIVE)) ? 1 : 0);
			count(zone, memcg, lru, order);
		}
	}
	qsort(counts, nr_counts, sizeof *counts, cmp_count);
	printf("# buddyscope lru-state 1\n");
	printf("# cgroups N; memcg INODE OWN_IA OWN_AA OWN_IF OWN_AF TREE_IA TREE_AA TREE_IF TREE_AF "
	       "PATH; folios NODE ZONE INODE LIST ORDER COUNT\n");
	printf("cgroups %d\n", num_cgroups());
	for (int i = 0; i < nr_memcgs; i++) {
		const struct memcg *m = &memcgs[i];

		printf("memcg %llu", (unsigned long long)m->ino);
		for (int k = 0; k < 8; k++) {
			if (m->have_stat)
				printf(" %llu", (unsigned long long)(k < 4 ? m->local[k] : m->total[k - 4]));
			else
				printf(" -");
		}
		printf(" %s\n", m->path);
	}
	for (size_t i = 0; i < nr_counts; i++) {
		const struct count *c = &counts[i];
		printf("folios %d %s %llu %s %d %llu\n", zones[c->zone].node, zones[c->zone].name,
		       (unsigned long long)memcgs[c->memcg].ino, lru_names[c->lru], c->order,
		       (unsigned long long)c->n);
	}
	if (skipped_unplaced)
		fprintf(stderr, "lru-state: %llu LRU folios outside every zone or memcg table\n",
			(unsigned long long)skipped_unplaced);
	return 0;
}
