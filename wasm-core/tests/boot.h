/* boot.h: the one way tests build a machine: a config booted into a fresh, aligned arena. */
#ifndef BUDDYSCOPE_TEST_BOOT_H
#define BUDDYSCOPE_TEST_BOOT_H

#include <stdlib.h>

#include "base/sim.h"
#include "page_alloc/vocab.h"

/* Boot cfg into a fresh arena; NULL if the config is refused. The caller frees it. */
static struct sim *test_boot(const struct sim_config *cfg)
{
	size_t size = sim_state_size(cfg);
	void *arena;

	if (!size)
		return NULL;
	arena = aligned_alloc(8, (size + 7) & ~(size_t)7);
	if (!arena)
		return NULL;
	if (sim_init(arena, size, cfg) != SIM_OK) {
		free(arena);
		return NULL;
	}
	return arena;
}

#endif
