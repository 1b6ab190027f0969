/*
 * fault.h: a user page fault on one page, by the profile's path (enum fault_lock_rule): under
 * the per-VMA lock (6.4+), speculatively (the posted SPF series), or under mmap_lock for read;
 * the first two fall back to the last when they cannot finish.
 */
#ifndef BUDDYSCOPE_FAULT_FAULT_H
#define BUDDYSCOPE_FAULT_FAULT_H

#include "fault/mm.h"

/* A thread of mm on cpu accesses page (write or read) with no PTE there: handle the fault. */
void do_user_addr_fault(struct sim *s, int mm, int cpu, uint32_t page, int write);

#endif
