/* zonelist.h: each node's fallback zonelist (build_zonelists), nodes by distance, zones high to low. */
#ifndef BUDDYSCOPE_ZONELIST_H
#define BUDDYSCOPE_ZONELIST_H

#include "base/types.h"

/* build_zonelists for every node: fills node->zonelist and zonelist_len. */
void zonelist_build(struct sim *s);

#endif
