/* check.h: the fault subsystem's part of sim_check (check.c). */
#ifndef BUDDYSCOPE_FAULT_CHECK_H
#define BUDDYSCOPE_FAULT_CHECK_H

#include "base/types.h"

/* Page tables against VMAs, VMA lists, lock states and counts: SIM_OK or SIM_ECORRUPT. */
int fault_check(struct sim *s);

/* The page tables and mapped pages it holds from the page allocator (its owned_pages hook). */
uint64_t fault_owned_pages(const struct sim *s);

#endif
