/* zonelist.h: each node's fallback zonelist (build_zonelists), nodes by distance, zones high to low. */
#ifndef BUDDYSCOPE_ZONELIST_H
#define BUDDYSCOPE_ZONELIST_H

#include "base/types.h"

/* How a node's zonelist was built (node.zonelist_order). */
enum zonelist_order {
	ZONELIST_ORDER_NODE = 1, /* by node, then zones high to low within each node */
	ZONELIST_ORDER_ZONE,	 /* by zone type high to low, then nodes in node order */
};

/* build_zonelists for every node: fills node->zonelist, zonelist_len, zonelist_order and the ZLC slots. */
void zonelist_build(struct sim *s);

/* vm.numa_zonelist_order written with value (0 default, 1 node, 2 zone) on cpu: rebuilds every zonelist when the order asked for changed (an event per node); SIM_EINVAL where the kernel refuses it. */
int zonelist_order_sysctl(struct sim *s, int value, int cpu);

#endif
