/*
 * memcg.h: memory cgroups as global reclaim sees them (mm/memcontrol.c, mm/vmscan.c of 6.18):
 * each memcg has its own LRU lists on each node (mem_cgroup_per_node's lruvec), reclaim walks
 * them in the hierarchy's pre-order (mem_cgroup_iter) and scans each apart. A machine with no
 * memcg data has none: its one lruvec per node (struct node's) is the root's, as before.
 */
#ifndef BUDDYSCOPE_RECLAIM_MEMCG_H
#define BUDDYSCOPE_RECLAIM_MEMCG_H

#include "base/types.h"

/* Most memory cgroups a machine may declare (sim_config.max_memcgs). */
#define MAX_MEMCGS_LIMIT 4096

/*
 * An LRU block no handle holds (captured memory) names its memcg in its owner slot: owner =
 * MEMCG_OWNER_BASE + the memcg's index. HANDLE_NONE, and every handle, mean the root (index 0):
 * the workload's own memory is charged to the root.
 */
#define MEMCG_OWNER_BASE 0xffff0000u

/* One memory cgroup: its cgroup inode (what /proc/kpagecgroup names) and whether it is online. */
struct mem_cgroup {
	uint32_t ino;
	uint8_t online; /* CSS_ONLINE: not yet deleted (mem_cgroup_online) */
	uint8_t pad[3];
};

/* A memcg's lists on one node: the lruvec (its stats fields unused) and mz->lru_zone_size. */
struct memcg_lruvec {
	struct lruvec lists;
	int64_t zone_size[MAX_NR_ZONES][NR_LRU_LISTS];
};

/* Arena bytes of reclaim's region for cfg (0 without memcgs; UINT64_MAX when too many). */
uint64_t memcg_arena_bytes(const struct sim_config *cfg);

/* Memory cgroups declared so far (0: the machine has no memcg data). */
int memcg_count(const struct sim *s);

/* Whether reclaim walks memcgs: some were declared and the profile's kernel does so. */
int memcg_enabled(const struct sim *s);

/* Memcg idx (0 .. memcg_count - 1). */
const struct mem_cgroup *memcg_get(const struct sim *s, int idx);

/* The lists of memcg idx on node nid (memcg_enabled only). */
struct memcg_lruvec *memcg_lruvec(const struct sim *s, int nid, int idx);

/* The memcg index an LRU block's owner slot names (0, the root, for handles and HANDLE_NONE). */
static inline int memcg_of_owner(uint32_t owner)
{
	return owner >= MEMCG_OWNER_BASE && owner != HANDLE_NONE ? (int)(owner - MEMCG_OWNER_BASE) :
								   0;
}

/*
 * mem_cgroup_iter for global reclaim of node nid: the memcg after prev (-1: begin) in pre-order,
 * or -1 at the end. partial: direct reclaim's shared walk, which begins after where the node's
 * last partial walk stopped and, begun at the end, starts over from the root.
 */
int memcg_iter(struct sim *s, int nid, int prev, int partial);

/* OP_MEMCG: declare the next memcg (arg: 1 online, 0 offline; handle: its cgroup inode). */
int memcg_declare(struct sim *s, const struct sim_op *op);

/* Boot: no memcgs, every memcg lruvec empty, every walk at its beginning. */
void memcg_boot(struct sim *s);

#endif
