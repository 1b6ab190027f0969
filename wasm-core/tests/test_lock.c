/*
 * test_lock.c: the virtual-time locks of base/lock.h on their own, on a bare struct sim (the lock
 * code reads nothing but the CPUs' clocks): spinlock waits and hand-overs, the rwsem's sharing and
 * fairness rules, seqcount retries, and every figure they count. Times follow the worked examples
 * of base/lock.c; costs are written as COST_* so a retuned cost does not hide a broken rule.
 */
#include <stdlib.h>

#include "base/lock.h"
#include "base/state.h"
#include "harness.h"

enum { PAIR = COST_LOCK_ACQUIRE_NS, HANDOVER = COST_LOCK_HANDOVER_NS };

/* A zeroed struct sim: CPUs at clock 0, no lock ever taken (aborts if it cannot be had). */
static struct sim *bare_sim(void)
{
	struct sim *s = calloc(1, sizeof(struct sim));

	if (!s)
		abort();
	return s;
}

/* Set cpu's clock (a CPU arriving at the lock at that instant). */
static void at(struct sim *s, int cpu, uint64_t ns)
{
	sim_cpus(s)[cpu].clock_ns = ns;
}

/* ---- spinlock ------------------------------------------------------------------------------ */

TEST(lock_spinlock_wait_and_handover)
{
	struct sim *s = bare_sim();
	struct spinlock l = { 0 };

	/* CPU 1 at 0: first use, so no hand-over; 840 ns of work under the lock */
	spin_lock(s, &l, 1);
	CHECK_EQ(sim_cpus(s)[1].clock_ns, PAIR);
	cpu_charge(s, 1, 840);
	CHECK_EQ(spin_unlock(s, &l, 1), PAIR + 840);
	CHECK_EQ(l.free_at_ns, 870);
	/* CPU 0 at 100 waits 770, then pulls the line from CPU 1 */
	at(s, 0, 100);
	spin_lock(s, &l, 0);
	CHECK_EQ(l.last_wait_ns, 770);
	CHECK_EQ(sim_cpus(s)[0].clock_ns, 870 + HANDOVER + PAIR);
	cpu_charge(s, 0, 240);
	CHECK_EQ(spin_unlock(s, &l, 0), HANDOVER + PAIR + 240);
	CHECK_EQ(sim_cpus(s)[0].clock_ns, 1390);
	/* CPU 0 again, after the release: no wait, and the line is already here */
	at(s, 0, 2000);
	spin_lock(s, &l, 0);
	CHECK_EQ(l.last_wait_ns, 0);
	CHECK_EQ(spin_unlock(s, &l, 0), PAIR);

	CHECK_EQ(l.stats.acquisitions, 3);
	CHECK_EQ(l.stats.contended, 1);
	CHECK_EQ(l.stats.wait_ns, 770);
	CHECK_EQ(l.stats.hold_ns, 870 + 520 + PAIR);
	CHECK_EQ(l.stats.handovers, 1);
	CHECK_EQ(sim_cpus(s)[0].lock_acquisitions, 2);
	CHECK_EQ(sim_cpus(s)[0].lock_wait_ns, 770);
	CHECK_EQ(sim_cpus(s)[1].lock_acquisitions, 1);
	CHECK_EQ(sim_cpus(s)[1].lock_wait_ns, 0);
	free(s);
}

TEST(lock_spinlock_later_clock_does_not_wait)
{
	struct sim *s = bare_sim();
	struct spinlock l = { 0 };

	spin_lock(s, &l, 0);
	spin_unlock(s, &l, 0); /* free at 30 */
	at(s, 1, 30);	       /* arrives exactly at the release: no wait */
	spin_lock(s, &l, 1);
	spin_unlock(s, &l, 1);
	CHECK_EQ(l.stats.contended, 0);
	CHECK_EQ(l.stats.wait_ns, 0);
	CHECK_EQ(l.stats.handovers, 1);
	CHECK_EQ(sim_cpus(s)[1].clock_ns, 30 + HANDOVER + PAIR);
	free(s);
}

/* A whole read hold of sem by cpu, reaching it at `from` and leaving when its clock says `until`. */
static void read_hold(struct sim *s, struct rwsem *sem, int cpu, uint64_t from, uint64_t until)
{
	at(s, cpu, from);
	down_read(s, sem, cpu);
	at(s, cpu, until);
	up_read(s, sem, cpu);
}

/* ---- rwsem --------------------------------------------------------------------------------- */

TEST(lock_rwsem_readers_share)
{
	struct sim *s = bare_sim();
	struct rwsem sem = { 0 };

	/* reader A on CPU 0 from 0, reader B on CPU 1 from 100 while A is still inside */
	down_read(s, &sem, 0);
	at(s, 1, 100);
	down_read(s, &sem, 1);
	CHECK_EQ(sem.readers, 2);
	CHECK_EQ(sim_cpus(s)[1].clock_ns,
		 100 + HANDOVER + PAIR); /* no wait; the count's line moves */
	at(s, 0, 500);
	at(s, 1, 500);
	up_read(s, &sem, 0);
	CHECK_EQ(sem.read.hold_ns, 0); /* folded in when the last reader leaves */
	up_read(s, &sem, 1);
	CHECK_EQ(sem.readers, 0);
	CHECK_EQ(sem.read.acquisitions, 2);
	CHECK_EQ(sem.read.hold_ns, 500 + 400);
	CHECK_EQ(sem.read.handovers, 1);
	CHECK_EQ(sem.write.acquisitions, 0);
	CHECK_EQ(sem.readers_free_at_ns, 500);
	/* reader C on CPU 2 at 200, after A and B left (in op order): readers never wait for readers */
	at(s, 2, 200);
	down_read(s, &sem, 2);
	CHECK_EQ(sim_cpus(s)[2].clock_ns, 200 + HANDOVER + PAIR);
	up_read(s, &sem, 2);
	CHECK_EQ(sem.read.wait_ns, 0);
	CHECK_EQ(sem.read.contended, 0);
	free(s);
}

TEST(lock_rwsem_writer_waits_for_readers_before_it)
{
	struct sim *s = bare_sim();
	struct rwsem sem = { 0 };

	/* readers A [0, 500] on CPU 0 and C [50, 700] on CPU 2 reach the semaphore first */
	read_hold(s, &sem, 0, 0, 500);
	read_hold(s, &sem, 2, 50, 700);
	/* writer W on CPU 1 arrives at 100: it waits for the later reader */
	at(s, 1, 100);
	down_write(s, &sem, 1);
	CHECK_EQ(sem.write.wait_ns, 600);
	CHECK_EQ(sim_cpus(s)[1].clock_ns, 700 + HANDOVER + PAIR);
	CHECK_EQ(sem.writer, 1);
	at(s, 1, 1000);
	up_write(s, &sem, 1);
	CHECK_EQ(sem.writer, 0);
	CHECK_EQ(sem.write.acquisitions, 1);
	CHECK_EQ(sem.write.contended, 1);
	CHECK_EQ(sem.write.hold_ns, 300);
	CHECK_EQ(sem.write.handovers, 1);
	CHECK_EQ(sem.read.contended, 0);
	CHECK_EQ(sim_cpus(s)[1].lock_wait_ns, 600);
	free(s);
}

TEST(lock_rwsem_queued_writer_blocks_a_later_reader)
{
	struct sim *s = bare_sim();
	struct rwsem sem = { 0 };

	/* the worked example of lock.c: A [0, 500]; W arrives at 100, holds [500, 800] */
	read_hold(s, &sem, 0, 0, 500);
	at(s, 1, 100);
	down_write(s, &sem, 1);
	at(s, 1, 800);
	up_write(s, &sem, 1);
	/* B arrives at 200, while A still held it and W was queued: it does not join A */
	at(s, 2, 200);
	down_read(s, &sem, 2);
	CHECK_EQ(sem.read.wait_ns, 600); /* its wait ends at W's release */
	CHECK_EQ(sim_cpus(s)[2].clock_ns, 800 + HANDOVER + PAIR);
	at(s, 2, 1200);
	up_read(s, &sem, 2);
	/* D arrives at 900, after W released: no wait */
	at(s, 0, 900);
	down_read(s, &sem, 0);
	CHECK_EQ(sem.read.wait_ns, 600);
	up_read(s, &sem, 0);
	CHECK_EQ(sem.read.acquisitions, 3);
	CHECK_EQ(sem.read.contended, 1);
	CHECK_EQ(sem.write.contended, 1);
	free(s);
}

TEST(lock_rwsem_writer_to_writer_handover)
{
	struct sim *s = bare_sim();
	struct rwsem sem = { 0 };

	down_write(s, &sem, 0); /* [0, 300] on CPU 0 */
	at(s, 0, 300);
	up_write(s, &sem, 0);
	at(s, 1, 100);
	down_write(s, &sem, 1); /* waits 200, then pulls the line from CPU 0 */
	CHECK_EQ(sim_cpus(s)[1].clock_ns, 300 + HANDOVER + PAIR);
	up_write(s, &sem, 1);
	down_write(s, &sem, 1); /* the same CPU right after: neither wait nor hand-over */
	up_write(s, &sem, 1);
	CHECK_EQ(sem.write.acquisitions, 3);
	CHECK_EQ(sem.write.contended, 1);
	CHECK_EQ(sem.write.wait_ns, 200);
	CHECK_EQ(sem.write.handovers, 1);
	CHECK_EQ(sem.write.hold_ns, 300 + (HANDOVER + PAIR) + PAIR);
	CHECK_EQ(sem.writer_free_at_ns, 300 + HANDOVER + 2 * PAIR);
	free(s);
}

TEST(lock_rwsem_unbalanced_release_changes_nothing)
{
	struct sim *s = bare_sim();
	struct rwsem sem = { 0 };

	at(s, 0, 500);
	up_read(s, &sem, 0);
	up_write(s, &sem, 0);
	CHECK_EQ(sem.readers, 0);
	CHECK_EQ(sem.read.hold_ns, 0);
	CHECK_EQ(sem.write.hold_ns, 0);
	CHECK_EQ(sem.readers_free_at_ns, 0);
	CHECK_EQ(sem.writer_free_at_ns, 0);
	free(s);
}

/* ---- seqcount ------------------------------------------------------------------------------ */

/* One read section on cpu over [from, to]; 1 if it had to retry. */
static int read_section(struct sim *s, struct seqcount *sc, int cpu, uint64_t from, uint64_t to)
{
	struct seqcount_read seen;

	at(s, cpu, from);
	seen = read_seqcount_begin(s, sc, cpu);
	at(s, cpu, to);
	return read_seqcount_retry(s, sc, cpu, seen);
}

TEST(lock_seqcount_overlapping_reader_retries)
{
	struct sim *s = bare_sim();
	struct seqcount sc = { 0 };

	/* the worked example of lock.c: a write section over [300, 600] on CPU 0 */
	at(s, 0, 300);
	write_seqcount_begin(s, &sc, 0);
	CHECK_EQ(sc.sequence, 1);
	at(s, 0, 600);
	write_seqcount_end(s, &sc, 0);
	CHECK_EQ(sc.sequence, 2);
	CHECK_EQ(read_section(s, &sc, 1, 100, 200), 0); /* before it */
	CHECK_EQ(read_section(s, &sc, 1, 250, 350), 1); /* across its start */
	CHECK_EQ(read_section(s, &sc, 1, 400, 450), 1); /* inside it */
	CHECK_EQ(read_section(s, &sc, 1, 550, 650), 1); /* across its end */
	CHECK_EQ(read_section(s, &sc, 1, 600, 700), 0); /* after it */
	CHECK_EQ(sc.reads, 5);
	CHECK_EQ(sc.retries, 3);
	CHECK_EQ(sc.write.acquisitions, 1);
	CHECK_EQ(sc.write.hold_ns, 300);
	CHECK_EQ(sc.write.handovers, 0); /* first use */
	CHECK_EQ(sc.write.contended, 0);
	free(s);
}

TEST(lock_seqcount_odd_or_changed_count_retries)
{
	struct sim *s = bare_sim();
	struct seqcount sc = { 0 };
	struct seqcount_read seen;

	/* a write that starts and ends (in op order) between the reader's begin and retry */
	at(s, 1, 1000);
	seen = read_seqcount_begin(s, &sc, 1);
	at(s, 0, 5000); /* far later on its own clock: only the count tells the reader */
	write_seqcount_begin(s, &sc, 0);
	write_seqcount_end(s, &sc, 0);
	CHECK_EQ(read_seqcount_retry(s, &sc, 1, seen), 1);
	/* a reader inside an open write (in op order) sees an odd count and retries, though its
	 * clocks [1000, 1100] are far from the write's */
	at(s, 2, 6000);
	write_seqcount_begin(s, &sc, 2); /* the line comes from CPU 0, the last writer */
	CHECK_EQ(sc.write.handovers, 1);
	CHECK_EQ(read_section(s, &sc, 1, 1000, 1100), 1);
	write_seqcount_end(s, &sc, 2);
	/* and a reader with a stable count and no write around it keeps its result */
	CHECK_EQ(read_section(s, &sc, 1, 9000, 9100), 0);
	CHECK_EQ(sc.sequence, 4);
	CHECK_EQ(sc.reads, 3);
	CHECK_EQ(sc.retries, 2);
	CHECK_EQ(sc.write.acquisitions, 2);
	free(s);
}

TEST(lock_seqcount_unbalanced_end_changes_nothing)
{
	struct sim *s = bare_sim();
	struct seqcount sc = { 0 };

	at(s, 0, 100);
	write_seqcount_end(s, &sc, 0);
	CHECK_EQ(sc.sequence, 0);
	CHECK_EQ(sc.write.hold_ns, 0);
	free(s);
}
