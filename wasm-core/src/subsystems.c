/*
 * subsystems.c: the one place that lists the kernel mechanisms the simulation runs, in the order
 * their dependencies go (base/subsystem.h says what each provides), and that connects the page
 * allocator to the reclaim above it (page_alloc/reclaim_hook.h). Adding a subsystem is a line
 * here and a folder beside page_alloc/.
 */
#include "base/subsystem.h"
#include "fault/mm.h"
#include "page_alloc/page_alloc.h"
#include "page_alloc/reclaim_hook.h"
#include "percpu/percpu.h"
#include "reclaim/reclaim.h"

const struct subsystem *const sim_subsystems[] = {
	&page_alloc_subsystem, &reclaim_subsystem, &percpu_subsystem, &fault_subsystem, NULL,
};

/*
 * The page allocator's ops (every allocation and free) by a direct call, which the compiler folds
 * into sim_apply (FAST_PATH), then the other subsystems through the table (the page allocator's
 * entry has no apply, so that no second copy of its op path is kept for a pointer). Through the table, the
 * page allocator's apply was a call by pointer on every op that no compiler inlines: about 13
 * native and 40 wasm instructions an op (bench1m, callgrind).
 */
int sim_subsystems_apply(struct sim *s, const struct sim_op *op)
{
	int err = page_alloc_apply(s, op);

	if (err != SIM_ENOTMINE)
		return err;
	for (const struct subsystem *const *sub = sim_subsystems; *sub; sub++) {
		err = (*sub)->apply ? (*sub)->apply(s, op) : SIM_ENOTMINE;
		if (err != SIM_ENOTMINE)
			return err;
	}
	return SIM_EINVAL;
}

const struct page_alloc_reclaim *const page_alloc_reclaim = &reclaim_for_page_alloc;
