/*
 * memcg.c: the memory cgroups of a captured machine, for global reclaim (kswapd, direct and node
 * reclaim) as 6.18 does it. Reclaim's arena region holds, when sim_config.max_memcgs allows any:
 * a header (how many are declared, each node's partial-walk position), the memcgs in the order
 * mem_cgroup_iter visits them (the root first), and per node and memcg its LRU lists.
 * Charging, limits and protection (memory.min/low) are not modelled: captures carry none.
 */
#include "reclaim/memcg.h"

#include "base/state.h"
#include "base/subsystem.h"
#include "reclaim/reclaim.h"

/* Reclaim's region header. */
struct memcg_region {
	uint32_t nr;			/* memcgs declared */
	int32_t iter_pos[MAX_NUMNODES]; /* each node's iter->position: last memcg visited, -1: none */
};

/* The header's bytes, rounded so the arrays after it stay 8-byte aligned. */
static uint64_t header_bytes(void)
{
	return (sizeof(struct memcg_region) + 7) & ~(uint64_t)7;
}

uint64_t memcg_arena_bytes(const struct sim_config *cfg)
{
	uint64_t n = cfg->max_memcgs;

	if (!n)
		return 0;
	if (n > MAX_MEMCGS_LIMIT)
		return UINT64_MAX;
	return header_bytes() + ((n * sizeof(struct mem_cgroup) + 7) & ~(uint64_t)7) +
	       (uint64_t)cfg->nr_nodes * n * sizeof(struct memcg_lruvec);
}

/* The region (NULL without memcgs). */
static struct memcg_region *region(const struct sim *s)
{
	if (!s->config.max_memcgs)
		return NULL;
	return sim_subsystem_region(s, &reclaim_subsystem);
}

static struct mem_cgroup *memcgs(const struct memcg_region *r)
{
	return (struct mem_cgroup *)((char *)r + header_bytes());
}

int memcg_count(const struct sim *s)
{
	const struct memcg_region *r = region(s);
	return r ? (int)r->nr : 0;
}

int memcg_enabled(const struct sim *s)
{
	return s->config.max_memcgs && s->profile.memcg_reclaim && memcg_count(s) > 0;
}

const struct mem_cgroup *memcg_get(const struct sim *s, int idx)
{
	return &memcgs(region(s))[idx];
}

struct memcg_lruvec *memcg_lruvec(const struct sim *s, int nid, int idx)
{
	struct memcg_region *r = region(s);
	uint64_t max = s->config.max_memcgs;
	char *lists = (char *)memcgs(r) + ((max * sizeof(struct mem_cgroup) + 7) & ~(uint64_t)7);

	return (struct memcg_lruvec *)lists + (uint64_t)nid * max + (uint64_t)idx;
}

int memcg_iter(struct sim *s, int nid, int prev, int partial)
{
	struct memcg_region *r = region(s);
	int nr = (int)r->nr, pos = partial ? r->iter_pos[nid] : prev, next;

	next = pos + 1 < nr ? pos + 1 : -1;
	if (partial) {
		r->iter_pos[nid] = next;
		/* a walk begun at the end of the hierarchy restarts from the root (generation++) */
		if (next < 0 && prev < 0) {
			next = 0;
			r->iter_pos[nid] = 0;
		}
	}
	return next;
}

int memcg_declare(struct sim *s, const struct sim_op *op)
{
	struct memcg_region *r = region(s);
	struct mem_cgroup *m;

	if (!r || r->nr >= s->config.max_memcgs || op->arg < 0 || op->arg > 1)
		return SIM_EINVAL;
	/* the root is online, and comes before any LRU page: a block linked on a node's own lists
	 * would otherwise be looked for on the root's once memcgs exist */
	if (!r->nr) {
		if (!op->arg)
			return SIM_EINVAL;
		for (int nid = 0; nid < s->config.nr_nodes; nid++)
			for (int lru = 0; lru < NR_LRU_LISTS; lru++)
				if (sim_nodes(s)[nid].lruvec.nr_blocks[lru])
					return SIM_EINVAL;
	}
	m = &memcgs(r)[r->nr++];
	m->ino = op->handle;
	m->online = (uint8_t)op->arg;
	return SIM_OK;
}

void memcg_boot(struct sim *s)
{
	struct memcg_region *r = region(s);

	if (!r)
		return;
	r->nr = 0;
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		r->iter_pos[nid] = -1;
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		for (int i = 0; i < s->config.max_memcgs; i++) {
			struct memcg_lruvec *mlv = memcg_lruvec(s, nid, i);
			for (int lru = 0; lru < NR_LRU_LISTS; lru++)
				mlv->lists.head[lru] = mlv->lists.tail[lru] = PFN_NONE;
		}
}
