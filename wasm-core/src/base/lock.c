/*
 * lock.c: locks in virtual time. Every CPU has its own clock (struct cpu.clock_ns); a lock
 * remembers the instants that matter to whoever comes next (when it was last released, by which
 * side) and which CPU's cache holds its line. Ops are applied one at a time and every hold opens
 * and closes inside one op, so this is an accounting model of contention, not a scheduler: a
 * taker is served after every conflicting hold that reached the lock before it (in the order the
 * ops ran), and if its clock is earlier than the end of those holds it waits (the spinning or
 * sleeping a real CPU would do). "Fewer, longer holds" against "many short ones", and the cost of
 * CPUs taking turns, become visible and comparable across profiles.
 *
 * Costs (lock.h): taking any lock pays an acquire/release pair; taking it on a CPU other than
 * the one that wrote its word last pays a hand-over (the line moves). Releases cost nothing more.
 *
 * Spinlock, worked example: CPU 1 took zone->lock at t = 0 (first use: no hand-over), moved 7
 * blocks and released at 30 + 7 * 120 = 870. CPU 0 at clock 100 takes it: it waits 770 ns, pays
 * the 250 ns hand-over and the 30 ns pair, moves 2 blocks (240 ns) and releases at
 * 870 + 250 + 30 + 240 = 1390: a hold of 520 ns.
 *
 * Rwsem, worked example (the rules of kernel/locking/rwsem.c that a model sees): reader A on
 * CPU 0 holds [0, 500]; writer W on CPU 1 arrives at 100 and waits for A, holding [500, 800];
 * reader B on CPU 2 arrives at 200, after W was queued, so it does not join A: it waits for W and
 * gets the semaphore at 800. Had B come before W (in op order), it would have shared with A and W
 * would have waited for B as well. Readers write the count too, so they pay hand-overs.
 *
 * Seqcount, worked example: a writer makes the count odd over [300, 600]. A reader whose section
 * (begin to retry, on its clock) is [100, 200] does not overlap it and keeps its result; one over
 * [250, 350] or [400, 450] overlaps and retries. Readers never write the count, so they pay no
 * hand-over and no pair; a writer pays the hand-over when another CPU wrote the count last.
 */
#include "base/fast_path.h"
#include "base/lock.h"
#include "base/state.h"

/* Wait until free_at if cpu's clock is earlier; returns the wait. */
static FAST_PATH uint64_t wait_until(struct cpu *c, uint64_t free_at)
{
	uint64_t wait = 0;

	if (c->clock_ns < free_at) {
		wait = free_at - c->clock_ns;
		c->clock_ns = free_at;
	}
	return wait;
}

/* Count an acquisition that waited `wait` in the lock's and the CPU's figures. */
static FAST_PATH void count_acquisition(struct lock_stats *st, struct cpu *c, uint64_t wait)
{
	st->acquisitions++;
	st->contended += wait > 0;
	st->wait_ns += wait;
	c->lock_acquisitions++;
	c->lock_wait_ns += wait;
}

/* cpu writes the lock word at line_cpu: pay and count a hand-over if another CPU wrote it last. */
static FAST_PATH void take_line(struct lock_stats *st, struct cpu *c, uint16_t *line_cpu, int cpu)
{
	/* the first use has nobody to take the line from */
	if (*line_cpu != 0 && *line_cpu != cpu + 1) {
		st->handovers++;
		c->clock_ns += COST_LOCK_HANDOVER_NS;
	}
	*line_cpu = (uint16_t)(cpu + 1);
}

/* ---- spinlock_t --------------------------------------------------------------------------- */

/* spin_lock: the hold starts when the wait ends, so it includes the hand-over and the pair. */
FAST_PATH void spin_lock(struct sim *s, struct spinlock *l, int cpu)
{
	struct cpu *c = &sim_cpus(s)[cpu];
	uint64_t wait = wait_until(c, l->free_at_ns);

	count_acquisition(&l->stats, c, wait);
	l->last_wait_ns = (uint32_t)(wait > UINT32_MAX ? UINT32_MAX : wait);
	l->acquired_at_ns = c->clock_ns;
	take_line(&l->stats, c, &l->line_cpu, cpu);
	c->clock_ns += COST_LOCK_ACQUIRE_NS;
}

/* spin_trylock: a holder whose release lies after cpu's clock means busy; then nothing is counted. */
int spin_trylock(struct sim *s, struct spinlock *l, int cpu)
{
	if (l->free_at_ns > sim_cpus(s)[cpu].clock_ns)
		return 0;
	spin_lock(s, l, cpu);
	return 1;
}

/* spin_unlock: the next taker at an earlier clock waits until now. */
FAST_PATH uint64_t spin_unlock(struct sim *s, struct spinlock *l, int cpu)
{
	uint64_t now = sim_cpus(s)[cpu].clock_ns, hold = now - l->acquired_at_ns;

	l->stats.hold_ns += hold;
	l->free_at_ns = now;
	return hold;
}

/* ---- struct rw_semaphore ------------------------------------------------------------------ */

/* down_read: only writers block readers; a writer queued before this reader counts as one. */
void down_read(struct sim *s, struct rwsem *sem, int cpu)
{
	struct cpu *c = &sim_cpus(s)[cpu];

	count_acquisition(&sem->read, c, wait_until(c, sem->writer_free_at_ns));
	/* the hold runs from here: Σ release - Σ acquire over the readers inside, folded at the last */
	sem->read_open_ns -= c->clock_ns;
	sem->readers++;
	take_line(&sem->read, c, &sem->line_cpu, cpu);
	c->clock_ns += COST_LOCK_ACQUIRE_NS;
}

/*
 * down_read_trylock: the kernel's trylock fails when the count shows a writer (holding, or
 * waiting with the handoff bit); here that is a writer that came before in op order and releases
 * after cpu's clock. A failed try is not an acquisition and costs nothing.
 */
int down_read_trylock(struct sim *s, struct rwsem *sem, int cpu)
{
	if (sem->writer_free_at_ns > sim_cpus(s)[cpu].clock_ns)
		return 0;
	down_read(s, sem, cpu);
	return 1;
}

/* up_read: the readers' holds are added when the last one leaves, so hold_ns never runs ahead. */
void up_read(struct sim *s, struct rwsem *sem, int cpu)
{
	uint64_t now = sim_cpus(s)[cpu].clock_ns;

	if (sem->readers == 0)
		return; /* an unbalanced up_read: nothing to release */
	sem->read_open_ns += now;
	if (now > sem->readers_free_at_ns)
		sem->readers_free_at_ns = now;
	if (--sem->readers == 0) {
		sem->read.hold_ns += sem->read_open_ns;
		sem->read_open_ns = 0;
	}
}

/* down_write: exclusive, so it waits for the later of the last writer's and the readers' release. */
void down_write(struct sim *s, struct rwsem *sem, int cpu)
{
	struct cpu *c = &sim_cpus(s)[cpu];
	uint64_t free_at = sem->writer_free_at_ns > sem->readers_free_at_ns ?
				   sem->writer_free_at_ns :
				   sem->readers_free_at_ns;

	count_acquisition(&sem->write, c, wait_until(c, free_at));
	sem->write_acquired_at_ns = c->clock_ns;
	sem->writer = 1;
	take_line(&sem->write, c, &sem->line_cpu, cpu);
	c->clock_ns += COST_LOCK_ACQUIRE_NS;
}

/* up_write: readers and writers that come later are served after this instant. */
void up_write(struct sim *s, struct rwsem *sem, int cpu)
{
	uint64_t now = sim_cpus(s)[cpu].clock_ns;

	if (!sem->writer)
		return; /* an unbalanced up_write: nothing to release */
	sem->write.hold_ns += now - sem->write_acquired_at_ns;
	sem->writer_free_at_ns = now;
	sem->writer = 0;
}

/* downgrade_write: the write hold ends now and a read hold begins at the same instant (no pair). */
void downgrade_write(struct sim *s, struct rwsem *sem, int cpu)
{
	if (!sem->writer)
		return; /* nothing to downgrade */
	up_write(s, sem, cpu);
	sem->read_open_ns -= sim_cpus(s)[cpu].clock_ns;
	sem->readers++;
	sem->read.acquisitions++;
}

/* ---- seqcount_t --------------------------------------------------------------------------- */

/* read_seqcount_begin: the count and the reader's clock; the model's reader does not spin on odd. */
struct seqcount_read read_seqcount_begin(struct sim *s, struct seqcount *sc, int cpu)
{
	struct seqcount_read seen = { sc->sequence, 0, sim_cpus(s)[cpu].clock_ns };

	sc->reads++;
	return seen;
}

/* read_seqcount_retry: the reader's section [seen.at_ns, now] against the count and the last write. */
int read_seqcount_retry(struct sim *s, struct seqcount *sc, int cpu, struct seqcount_read seen)
{
	uint64_t now = sim_cpus(s)[cpu].clock_ns;
	/* a write that ran earlier in op order but overlapped this section on the clocks */
	int overlapped = sc->write_begin_ns < now && sc->write_end_ns > seen.at_ns;
	int retry = (seen.sequence & 1) || sc->sequence != seen.sequence || overlapped;

	sc->retries += (uint64_t)retry;
	return retry;
}

/* write_seqcount_begin: odd from now; the writer pays the line if another CPU wrote it last. */
void write_seqcount_begin(struct sim *s, struct seqcount *sc, int cpu)
{
	struct cpu *c = &sim_cpus(s)[cpu];

	/* no wait: writers are serialised by their own lock (an mmap_lock, a zone->lock) */
	count_acquisition(&sc->write, c, 0);
	take_line(&sc->write, c, &sc->line_cpu, cpu);
	sc->sequence++;
	sc->write_begin_ns = c->clock_ns;
	sc->write_end_ns = c->clock_ns;
}

/* write_seqcount_end: even again; a reader whose section overlapped [begin, now] retries. */
void write_seqcount_end(struct sim *s, struct seqcount *sc, int cpu)
{
	uint64_t now = sim_cpus(s)[cpu].clock_ns;

	if (!(sc->sequence & 1))
		return; /* an unbalanced end: no write is open */
	sc->sequence++;
	sc->write_end_ns = now;
	sc->write.hold_ns += now - sc->write_begin_ns;
}

/* cpu_charge: work outside any lock only moves this CPU's clock. */
void cpu_charge(struct sim *s, int cpu, uint64_t ns)
{
	sim_cpus(s)[cpu].clock_ns += ns;
}
