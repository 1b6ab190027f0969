/*
 * lock.h: locks in virtual time, with the kernel's names: spinlock_t (spin_lock, spin_unlock),
 * struct rw_semaphore (down_read, up_read, down_write, up_write) and seqcount_t
 * (read_seqcount_begin, read_seqcount_retry, write_seqcount_begin, write_seqcount_end). Each lock
 * is a fixed-size record inside the state (struct spinlock, rwsem, seqcount in base/types.h), so
 * a subsystem adds one by adding a field: zone->lock is a spinlock; a fault model's mmap_lock is
 * an rwsem and a VMA's sequence a seqcount.
 *
 * The costs are documented choices, not measurements: they make contention visible and
 * comparable between profiles, and their ratios are what matter (a hand-over is several
 * uncontended pairs, a block moved is a few).
 */
#ifndef BUDDYSCOPE_LOCK_H
#define BUDDYSCOPE_LOCK_H

#include "base/types.h"

/* An uncontended acquire/release pair (two atomics on a line this CPU owns); charged on taking. */
#define COST_LOCK_ACQUIRE_NS 30
/* The lock's cache line moving from another CPU's cache: a cross-core miss, ~8 pairs. */
#define COST_LOCK_HANDOVER_NS 250

/* spin_lock: cpu waits until the last holder's release, then pays the pair (and a hand-over). */
void spin_lock(struct sim *s, struct spinlock *l, int cpu);

/* spin_trylock: take it only if it is free at cpu's clock (no wait, no spin); 1 if taken. */
int spin_trylock(struct sim *s, struct spinlock *l, int cpu);

/* spin_unlock at cpu's clock: counts the hold, frees the lock at that instant; returns the hold ns. */
uint64_t spin_unlock(struct sim *s, struct spinlock *l, int cpu);

/* down_read: cpu waits for every writer that came before it (held or queued), not for readers. */
void down_read(struct sim *s, struct rwsem *sem, int cpu);

/* up_read at cpu's clock: a writer coming later waits at least until this instant. */
void up_read(struct sim *s, struct rwsem *sem, int cpu);

/* down_read_trylock: take it as a reader only if no writer holds or awaits it at cpu's clock; 1 if taken. */
int down_read_trylock(struct sim *s, struct rwsem *sem, int cpu);

/* down_write: cpu waits for the last writer and every reader let in before it. */
void down_write(struct sim *s, struct rwsem *sem, int cpu);

/* downgrade_write at cpu's clock: the writer becomes a reader at once, so waiting readers may enter. */
void downgrade_write(struct sim *s, struct rwsem *sem, int cpu);

/* up_write at cpu's clock: everyone coming later waits at least until this instant. */
void up_write(struct sim *s, struct rwsem *sem, int cpu);

/* read_seqcount_begin: what cpu saw at its clock; never waits (an odd count makes the retry fail). */
struct seqcount_read read_seqcount_begin(struct sim *s, struct seqcount *sc, int cpu);

/* read_seqcount_retry: 1 (counted as a retry) if the count was odd, changed, or a write overlapped. */
int read_seqcount_retry(struct sim *s, struct seqcount *sc, int cpu, struct seqcount_read seen);

/* write_seqcount_begin: the count goes odd at cpu's clock (the caller holds the writers' lock). */
void write_seqcount_begin(struct sim *s, struct seqcount *sc, int cpu);

/* write_seqcount_end: the count goes even; the section counts as held from begin to now. */
void write_seqcount_end(struct sim *s, struct seqcount *sc, int cpu);

/* Advance cpu's clock by ns of work outside any lock. */
void cpu_charge(struct sim *s, int cpu, uint64_t ns);

#endif
