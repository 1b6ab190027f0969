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

const struct page_alloc_reclaim *const page_alloc_reclaim = &reclaim_for_page_alloc;
