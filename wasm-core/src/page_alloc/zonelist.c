/*
 * zonelist.c: the order in which an allocation tries zones (build_zonelists, node ordering).
 *
 * Each node gets one fallback list: nodes nearest first, and within each node its populated zones
 * from the highest index down (Normal, DMA32, DMA), so a request uses the most plentiful memory
 * it is allowed before the scarce low zones. Node order comes from find_next_best_node: the local
 * node, then the lowest score of
 *	(distance + (n < local ? 1 : 0) + (n has CPUs ? 1 : 0)) * MAX_NUMNODES + node_load[n].
 * node_load spreads equal-distance groups round-robin: when a node opens a new distance group,
 * its load goes up by one, so the next node's build prefers another node of that group.
 * Example, 4 nodes all 20 apart, all with CPUs: node 0 builds 0 1 2 3 and loads node 1; node 1
 * scores 0 at (20+1+1)*8 = 176 and 2, 3 at (20+0+1)*8 = 168, builds 1 2 3 0 and loads node 2;
 * node 2 builds 2 3 0 1, node 3 builds 3 0 1 2: every node falls back to a different node first.
 */
#include "page_alloc/zonelist.h"

#include "base/state.h"

#define PENALTY_FOR_NODE_WITH_CPUS 1

/* Whether a node has memory (N_MEMORY): any populated zone. */
static int node_has_memory(const struct sim *s, int nid)
{
	for (int zid = 0; zid < MAX_NR_ZONES; zid++)
		if (zone_populated(&s->nodes[nid].zones[zid]))
			return 1;
	return 0;
}

/* node_distance, with the SLIT default for an unset entry. */
static int node_distance(const struct sim *s, int from, int to)
{
	int d = s->nodes[from].distance[to];
	return d ? d : (from == to ? 10 : 20);
}

/* find_next_best_node: the next node for local's list, or -1 when every memory node is used. */
static int find_next_best_node(const struct sim *s, int local, uint8_t used[MAX_NUMNODES],
			       const int node_load[MAX_NUMNODES])
{
	int best = -1;
	long best_val = 0;

	/* the local node always comes first, memory or not (a memoryless one contributes no zones) */
	if (!used[local]) {
		used[local] = 1;
		return local;
	}
	for (int n = 0; n < s->config.nr_nodes; n++) {
		long val;

		if (used[n] || !node_has_memory(s, n))
			continue;
		val = node_distance(s, local, n);
		/* "prefer the next node": nodes numbered below us pay one */
		val += n < local;
		/* nodes without CPUs are preferred: no local users compete for their memory */
		if (s->nodes[n].nr_cpus)
			val += PENALTY_FOR_NODE_WITH_CPUS;
		val = val * MAX_NUMNODES + node_load[n];
		if (best < 0 || val < best_val) {
			best = n;
			best_val = val;
		}
	}
	if (best >= 0)
		used[best] = 1;
	return best;
}

void zonelist_build(struct sim *s)
{
	/* __build_all_zonelists clears node_load once, then builds every node's list in turn */
	int node_load[MAX_NUMNODES] = { 0 };

	for (int local = 0; local < s->config.nr_nodes; local++) {
		struct node *n = &s->nodes[local];
		uint8_t used[MAX_NUMNODES] = { 0 };
		int prev = local, len = 0;

		/* at most one pick per node: the loop is bounded by nr_nodes */
		for (int pick = 0; pick < s->config.nr_nodes; pick++) {
			int node = find_next_best_node(s, local, used, node_load);

			if (node < 0)
				break;
			if (node_distance(s, local, node) != node_distance(s, local, prev))
				node_load[node] += 1;
			prev = node;
			/* build_zonerefs_node: populated zones, highest index first */
			for (int zid = MAX_NR_ZONES - 1; zid >= 0; zid--) {
				if (!zone_populated(&s->nodes[node].zones[zid]))
					continue;
				n->zonelist[len][0] = (uint8_t)node;
				n->zonelist[len][1] = (uint8_t)zid;
				len++;
			}
		}
		n->zonelist_len = (uint8_t)len;
	}
}
