/*
 * subsystems.c: the one place that lists the kernel mechanisms the simulation runs, in the order
 * their dependencies go (base/subsystem.h says what each provides). Adding a subsystem is a line
 * here and a folder beside page_alloc/.
 */
#include "base/subsystem.h"
#include "fault/mm.h"
#include "page_alloc/page_alloc.h"

const struct subsystem *const sim_subsystems[] = {
	&page_alloc_subsystem,
	&fault_subsystem,
	NULL,
};
