/*
 * mmap_lock.h: a process's mmap_lock with the kernel's tracepoints (include/linux/mmap_lock.h,
 * mm/mmap_lock.c): every lock and trylock emits mmap_lock_start_locking and
 * mmap_lock_acquire_returned, every unlock mmap_lock_released, a downgrade only
 * acquire_returned(write=false). The rwsem itself is base/lock.h's, in virtual time. Write
 * unlocks end the per-VMA write locks of the section (vma_end_write_all).
 */
#ifndef BUDDYSCOPE_FAULT_MMAP_LOCK_H
#define BUDDYSCOPE_FAULT_MMAP_LOCK_H

#include "fault/mm.h"

/* mmap_read_lock for a fault or an op on cpu; returns the ns waited. */
uint64_t mmap_read_lock(struct sim *s, int mm, int cpu);

/* mmap_read_trylock: 1 if taken without waiting, else 0 (traced as success=false). */
int mmap_read_trylock(struct sim *s, int mm, int cpu);

/* mmap_read_unlock at cpu's clock. */
void mmap_read_unlock(struct sim *s, int mm, int cpu);

/* mmap_write_lock: waits for every reader and writer before it; returns the ns waited. */
uint64_t mmap_write_lock(struct sim *s, int mm, int cpu);

/* mmap_write_downgrade: the writer becomes a reader; VMA write locks end here. */
void mmap_write_downgrade(struct sim *s, int mm, int cpu);

/* mmap_write_unlock: VMA write locks end, mm_lock_seq advances. */
void mmap_write_unlock(struct sim *s, int mm, int cpu);

#endif
