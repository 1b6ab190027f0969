/*
 * alloc_test_util.h: machines, ops and event queries for the allocation-walk, watermark, gfp and
 * procfs tests. Workloads go through sim_apply and sim_check runs after every op.
 */
#ifndef BUDDYSCOPE_ALLOC_TEST_UTIL_H
#define BUDDYSCOPE_ALLOC_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "base/sim.h"
#include "base/state.h"
#include "boot.h"
#include "harness.h"

/* Boot cfg into a fresh arena (boot.h); NULL if the config is refused. The caller frees it. */
static struct sim *at_boot(const struct sim_config *cfg)
{
	return test_boot(cfg);
}

/* A preset under a profile. */
static struct sim *at_preset(const char *name, int profile)
{
	struct sim_config cfg;

	if (sim_config_preset(&cfg, name) != SIM_OK)
		return NULL;
	cfg.profile = (uint8_t)profile;
	return at_boot(&cfg);
}

/*
 * The machine of the first zoneinfo capture (live 6.18, 2 CPUs, THP):
 * docs/kernel/page_alloc/live-check.md#h5-the-capture-machines.
 */
static void at_capture_config(struct sim_config *cfg)
{
	sim_config_default(cfg);
	cfg->zones[0][ZONE_DMA] = (struct zone_config){ 1, 4095, 3998, 3840 };
	cfg->zones[0][ZONE_DMA32] = (struct zone_config){ 4096, 1044480, 782336, 772915 };
	cfg->zones[0][ZONE_NORMAL] = (struct zone_config){ 1048576, 5505024, 5505024, 720896 };
}

/* sim_check, printing the checker's words on failure; returns the error. */
static int at_check(struct sim *s)
{
	int err = sim_check(s);
	if (err)
		fprintf(stderr, "    sim_check: %s\n", s->error);
	return err;
}

/* Apply an op, then the checker; returns sim_apply's result. */
static int at_op(struct sim *s, int kind, int cpu, int order, uint32_t gfp, uint32_t handle,
		 int32_t arg)
{
	struct sim_op op = { (uint8_t)kind, (uint8_t)order, (uint16_t)cpu, gfp, handle, arg };
	int err = sim_apply(s, &op);
	CHECK_EQ(at_check(s), SIM_OK);
	return err;
}

/* OP_ALLOC into handle h. */
static int at_alloc(struct sim *s, int cpu, uint32_t gfp, int order, uint32_t h)
{
	return at_op(s, OP_ALLOC, cpu, order, gfp, h, 0);
}

/* OP_FREE of handle h. */
static int at_free(struct sim *s, int cpu, uint32_t h)
{
	return at_op(s, OP_FREE, cpu, 0, 0, h, 0);
}

/* Number of buffered events of a kind. */
static int at_count(const struct sim *s, int kind)
{
	int n = 0;
	for (uint32_t i = 0; i < s->nr_events; i++)
		n += sim_events(s)[i].kind == kind;
	return n;
}

/* The last buffered event of a kind, or NULL. */
static const struct sim_event *at_last(const struct sim *s, int kind)
{
	for (uint32_t i = s->nr_events; i > 0; i--)
		if (sim_events(s)[i - 1].kind == kind)
			return &sim_events(s)[i - 1];
	return NULL;
}

/* The first buffered event of a kind whose a equals a, or NULL. */
static const struct sim_event *at_find_a(const struct sim *s, int kind, int32_t a)
{
	for (uint32_t i = 0; i < s->nr_events; i++)
		if (sim_events(s)[i].kind == kind && sim_events(s)[i].a == a)
			return &sim_events(s)[i];
	return NULL;
}

#endif
