/* profile.h: the kernel versions the model can behave as (rows of data, no #ifdefs). */
#ifndef BUDDYSCOPE_PROFILE_H
#define BUDDYSCOPE_PROFILE_H

#include "base/types.h"

/* Number of pcp lists a profile's layout uses. */
int profile_nr_pcp_lists(const struct sim_profile *p);

#endif
