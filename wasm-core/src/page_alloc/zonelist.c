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
 * Kernels up to 5.14 weighed the score by nr_online_nodes * MAX_NUMNODES and set node_load to a
 * load that falls by one per node picked (node_load_by_one off).
 *
 * Old kernels could also order zones first and nodes second ("zone order": N0 Normal, N1 Normal,
 * N0 DMA32, ...), which keeps the DMA zones for last at the price of going off-node sooner; 3.0
 * chose it by default on a typical two-socket x86-64 (default_zonelist_order below). With a
 * zonelist cache the list's slots also get their nodes (zlc_build), and 3.0 switched
 * zone_reclaim_mode on by itself when a node was farther than RECLAIM_DISTANCE.
 */
#include "page_alloc/zonelist.h"

#include "base/event.h"
#include "base/state.h"
#include "page_alloc/vocab.h"
#include "page_alloc/zlc.h"

#define PENALTY_FOR_NODE_WITH_CPUS 1
#define RECLAIM_DISTANCE 30

/* Whether a node has memory (N_MEMORY): any populated zone. */
static int node_has_memory(const struct sim *s, int nid)
{
	for (int zid = 0; zid < MAX_NR_ZONES; zid++)
		if (zone_populated(&sim_nodes(s)[nid].zones[zid]))
			return 1;
	return 0;
}

/* node_distance, with the SLIT default for an unset entry. */
static int node_distance(const struct sim *s, int from, int to)
{
	int d = sim_nodes(s)[from].distance[to];
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
		if (sim_nodes(s)[n].nr_cpus)
			val += PENALTY_FOR_NODE_WITH_CPUS;
		/* <= 5.14: MAX_NODE_LOAD (nr_online_nodes) * MAX_NUMNODES */
		val *= s->profile.node_load_by_one ? MAX_NUMNODES :
						     (long)s->config.nr_nodes * MAX_NUMNODES;
		val += node_load[n];
		if (best < 0 || val < best_val) {
			best = n;
			best_val = val;
		}
	}
	if (best >= 0)
		used[best] = 1;
	return best;
}

/* Present pages of a node's zones below ZONE_NORMAL (DMA, DMA32) and of all its zones. */
static void node_low_and_total(const struct sim *s, int nid, uint64_t *low, uint64_t *total)
{
	*low = *total = 0;
	for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
		const struct zone *z = &sim_nodes(s)[nid].zones[zid];
		if (!zone_populated(z))
			continue;
		if (zid < ZONE_NORMAL)
			*low += z->present;
		*total += z->present;
	}
}

/*
 * default_zonelist_order [3.0]: node order when some node has no Normal zone, when there is no
 * DMA/DMA32 memory or it is more than half of all memory, or when a node larger than average
 * is mostly (over 70%) DMA/DMA32; zone order otherwise, to keep DMA32 from filling up.
 */
static int default_zonelist_order(const struct sim *s)
{
	uint64_t low = 0, total = 0, average;
	int with_memory = 0;

	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		uint64_t l, t;

		if (!zone_populated(&sim_nodes(s)[nid].zones[ZONE_NORMAL]))
			return ZONELIST_ORDER_NODE;
		node_low_and_total(s, nid, &l, &t);
		low += l;
		total += t;
		with_memory += t > 0;
	}
	if (!low || low > total / 2)
		return ZONELIST_ORDER_NODE;
	average = total / (uint64_t)(with_memory + 1);
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		uint64_t l, t;

		node_low_and_total(s, nid, &l, &t);
		if (l && t > average && l > t * 70 / 100)
			return ZONELIST_ORDER_NODE;
	}
	return ZONELIST_ORDER_ZONE;
}

/* Append node's populated zones, highest index first (build_zonerefs_node). */
static int append_node_zones(struct sim *s, struct node *n, int len, int node)
{
	for (int zid = MAX_NR_ZONES - 1; zid >= 0; zid--) {
		if (!zone_populated(&sim_nodes(s)[node].zones[zid]))
			continue;
		n->zonelist[len][0] = (uint8_t)node;
		n->zonelist[len][1] = (uint8_t)zid;
		len++;
	}
	return len;
}

/* build_zonelists_in_zone_order: zone types high to low, each over the nodes in node order. */
static int append_zone_order(struct sim *s, struct node *n, const int *node_order, int nr)
{
	int len = 0;

	for (int zid = MAX_NR_ZONES - 1; zid >= 0; zid--) {
		for (int j = 0; j < nr; j++) {
			if (!zone_populated(&sim_nodes(s)[node_order[j]].zones[zid]))
				continue;
			n->zonelist[len][0] = (uint8_t)node_order[j];
			n->zonelist[len][1] = (uint8_t)zid;
			len++;
		}
	}
	return len;
}

/*
 * set_zonelist_order: what vm.numa_zonelist_order asked for ("node" or "zone"), else the
 * kernel's default: default_zonelist_order in 3.0; node order in 3.16-4.13 (64-bit); node order
 * only from 4.14, which ignores the sysctl (op_sysctl refuses "zone" there).
 */
static int current_zonelist_order(const struct sim *s)
{
	if (s->profile.zonelist_order == ZONELIST_ORDER_NODE_ONLY)
		return ZONELIST_ORDER_NODE;
	if (s->user_zonelist_order == ZONELIST_ORDER_NODE ||
	    s->user_zonelist_order == ZONELIST_ORDER_ZONE)
		return s->user_zonelist_order;
	return s->profile.zonelist_order == ZONELIST_ORDER_DEFAULT_3_0 ? default_zonelist_order(s) :
									 ZONELIST_ORDER_NODE;
}

void zonelist_build(struct sim *s)
{
	/* __build_all_zonelists clears node_load once, then builds every node's list in turn */
	int node_load[MAX_NUMNODES] = { 0 };
	int order = current_zonelist_order(s);

	for (int local = 0; local < s->config.nr_nodes; local++) {
		struct node *n = &sim_nodes(s)[local];
		uint8_t used[MAX_NUMNODES] = { 0 };
		int node_order[MAX_NUMNODES];
		int prev = local, len = 0, nr = 0, load = s->config.nr_nodes;

		/* at most one pick per node: the loop is bounded by nr_nodes */
		for (int pick = 0; pick < s->config.nr_nodes; pick++) {
			int node = find_next_best_node(s, local, used, node_load);

			if (node < 0)
				break;
			/* 3.0: a node this far is better reclaimed locally than fallen back to */
			if (s->profile.auto_enable_zone_reclaim &&
			    node_distance(s, local, node) > RECLAIM_DISTANCE)
				s->config.zone_reclaim_mode = 1;
			if (node_distance(s, local, node) != node_distance(s, local, prev)) {
				if (s->profile.node_load_by_one)
					node_load[node] += 1;
				else
					node_load[node] = load;
			}
			prev = node;
			load--;
			node_order[nr++] = node;
			if (order == ZONELIST_ORDER_NODE)
				len = append_node_zones(s, n, len, node);
		}
		if (order == ZONELIST_ORDER_ZONE)
			len = append_zone_order(s, n, node_order, nr);
		n->zonelist_len = (uint16_t)len;
		n->zonelist_order = (uint8_t)order;
		zlc_build(s, local);
	}
}

int zonelist_order_sysctl(struct sim *s, int value, int cpu)
{
	int old = s->user_zonelist_order;

	if (value < 0 || value > ZONELIST_ORDER_ZONE)
		return SIM_EINVAL;
	/* 4.14+ (__parse_numa_zonelist_order): "default" and "node" are accepted and change
	 * nothing; "zone" is refused with EINVAL */
	if (s->profile.zonelist_order == ZONELIST_ORDER_NODE_ONLY)
		return value == ZONELIST_ORDER_ZONE ? SIM_EINVAL : SIM_OK;
	s->user_zonelist_order = value;
	/* numa_zonelist_order_handler: only a change of the user's order rebuilds */
	if (old == value)
		return SIM_OK;
	zonelist_build(s);
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		const struct node *n = &sim_nodes(s)[nid];
		const struct zone *own = NULL;

		for (int zid = MAX_NR_ZONES - 1; zid >= 0 && !own; zid--)
			if (zone_populated(&n->zones[zid]))
				own = &n->zones[zid];
		ev_emit(s, EV_BUILD_ALL_ZONELISTS, FN_BUILD_ALL_ZONELISTS, cpu, own, 0, 0, 0,
			n->zonelist_order, n->zonelist_len,
			n->zonelist_len > 1 ? n->zonelist[1][0] : nid);
	}
	return SIM_OK;
}
