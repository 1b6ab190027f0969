/*
 * sim.h: the public interface of the simulation core. Everything outside wasm-core (the glue,
 * the native runner, the tests) goes through these calls.
 */
#ifndef BUDDYSCOPE_SIM_H
#define BUDDYSCOPE_SIM_H

#include "base/types.h"

#define SIM_MODEL_VERSION 5 /* bump when the same ops may give different events */

/* Fill cfg with the defaults: profile 6.18, one node, 2 CPUs, no zones, kernel tunables. */
void sim_config_default(struct sim_config *cfg);

/* Fill cfg with a named machine (a PRESET row of machine.def: "tiny", "laptop", ...); 0 or SIM_EINVAL. */
int sim_config_preset(struct sim_config *cfg, const char *name);

/* Bytes of arena a machine needs, or 0 when cfg is invalid. */
size_t sim_state_size(const struct sim_config *cfg);

/* Build the machine in arena (aligned to 8): all managed pages free; SIM_OK or SIM_ECONFIG/SIM_ENOSPACE. */
int sim_init(void *arena, size_t size, const struct sim_config *cfg);

/* Apply one op; events are appended to the buffer. SIM_OK, or an enum sim_err (state unchanged on bad input). */
int sim_apply(struct sim *s, const struct sim_op *op);

/* Verify every list, count and tag against the frames; SIM_OK or SIM_ECORRUPT with s->error set. */
int sim_check(struct sim *s);

/* The events appended since the last clear. */
const struct sim_event *sim_events(const struct sim *s);

/* Forget the buffered events (their seq numbers keep counting). */
void sim_events_clear(struct sim *s);

/* The ops applied so far (a captured state) become where the workload starts: op and event
 * numbering restart at 0 and their events are forgotten; the history digest keeps them. */
void sim_ops_restart(struct sim *s);

/* The profile called name ("6.18", "6.6", "5.14", "5.13", "2016-v5", "2016-prefix"), or -1. */
int sim_profile_by_name(const char *name);

/* The row of the profile table for id (id must be < NR_PROFILES). */
const struct sim_profile *sim_profile_get(int id);

#endif
