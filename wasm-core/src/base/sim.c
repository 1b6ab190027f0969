/*
 * sim.c: applying ops. The base checks what every op shares (the CPU), passes time for OP_TICK
 * and hands every other op to the subsystem that owns its kind (base/subsystem.h), so it knows
 * no subsystem by name. It also keeps the history digest and runs every subsystem's checks.
 */
#include <string.h>

#include "base/event.h"
#include "base/sim.h"
#include "base/state.h"
#include "base/subsystem.h"

#define NS_PER_TICK 1000000000ull

int sim_report_bad(struct sim *s, int cpu, uint32_t pfn, int order, int reason, int err)
{
	s->ev.bad_page++;
	ev_emit(s, EV_BAD_PAGE, FN_BAD_PAGE, cpu < (int)s->nr_cpus ? cpu : -1, NULL, pfn, order, 0,
		reason, 0, 0);
	return err;
}

/*
 * OP_TICK: vmstat intervals pass on every online CPU; each subsystem does its periodic work. Out of
 * line, as OP_TICK_CPU: rare ops kept out of sim_apply (page_alloc/ops.c, page_alloc_apply_rare).
 */
static OUT_OF_LINE int op_tick(struct sim *s, int32_t ticks)
{
	if (ticks < 1 || ticks > MAX_TICKS_PER_OP)
		return SIM_EINVAL;
	for (int32_t t = 0; t < ticks && !s->frozen; t++) {
		s->now_ns += NS_PER_TICK;
		for (uint32_t cpu = 0; cpu < s->nr_cpus; cpu++) {
			if (!sim_cpus(s)[cpu].online)
				continue;
			if (sim_cpus(s)[cpu].clock_ns < s->now_ns)
				sim_cpus(s)[cpu].clock_ns = s->now_ns;
			ev_emit(s, EV_VMSTAT_TICK, FN_VMSTAT_UPDATE, (int)cpu, NULL, 0, 0, 0, t, 0,
				0);
			for (const struct subsystem *const *sub = sim_subsystems; *sub; sub++)
				if ((*sub)->tick_cpu)
					(*sub)->tick_cpu(s, (int)cpu);
		}
		for (const struct subsystem *const *sub = sim_subsystems; *sub; sub++)
			if ((*sub)->tick_end)
				(*sub)->tick_end(s);
	}
	return s->frozen ? SIM_ECORRUPT : SIM_OK;
}

/*
 * OP_TICK_CPU: vmstat_update on one CPU. The kernel's per-CPU worker runs about once a second on
 * each CPU at its own moment (a deferrable, round_jiffies_relative(HZ) timer), not on every CPU at
 * once; a timed trace puts each CPU's runs where they fall. Virtual time does not move: a trace's
 * own timestamps order the ops. The end-of-interval work (tick_end) belongs to OP_TICK.
 */
static OUT_OF_LINE int op_tick_cpu(struct sim *s, int cpu)
{
	ev_emit(s, EV_VMSTAT_TICK, FN_VMSTAT_UPDATE, cpu, NULL, 0, 0, 0, 0, 0, 0);
	for (const struct subsystem *const *sub = sim_subsystems; *sub; sub++)
		if ((*sub)->tick_cpu)
			(*sub)->tick_cpu(s, cpu);
	return s->frozen ? SIM_ECORRUPT : SIM_OK;
}

/* Validate what every op shares, then apply it here or in the subsystem that owns its kind. */
static int apply(struct sim *s, const struct sim_op *op)
{
	int cpu = op->cpu;

	if (op->kind >= sim_nr_op_kinds)
		return SIM_EINVAL;
	if (cpu >= (int)s->nr_cpus || (!sim_cpus(s)[cpu].online && op->kind != OP_CPU_ONLINE))
		return sim_report_bad(s, cpu, 0, 0, BAD_CPU, SIM_EBADCPU);

	switch (op->kind) {
	case OP_NOP:
		return SIM_OK;
	case OP_TICK:
		return op_tick(s, op->arg);
	case OP_TICK_CPU:
		return op_tick_cpu(s, cpu);
	case OP_SEED:
		s->rng = op->arg ? (uint64_t)(uint32_t)op->arg * 0x9E3779B97F4A7C15ULL :
				   0x9E3779B97F4A7C15ULL;
		return SIM_OK;
	default:
		return sim_subsystems_apply(s, op);
	}
}

/* splitmix64's finaliser: every input bit moves about half the output bits. */
static inline uint64_t mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

/*
 * The history digest after op: chained, so it names the whole sequence, not the op alone. For a
 * given op each step is a bijection (mix64 is one), so histories that differ at some op keep
 * differing while the same ops follow; two different ops from one digest collide only by chance
 * (2^-64). One mix per op: the second word is added after it and mixed by the next op's.
 * (It costs about 16 instructions per op natively and 45-65 in wasm: valgrind, bench1m.)
 */
static inline uint64_t history_next(uint64_t history, const struct sim_op *op)
{
	uint64_t w[2]; /* the op's 16 bytes as two words */

	_Static_assert(sizeof *op == sizeof w, "struct sim_op is 16 bytes, no padding");
	memcpy(w, op, sizeof w);
	return mix64(history ^ w[0]) + w[1];
}

/*
 * Out of line: with the page allocator's ops folded in (sim_subsystems_apply) it is the whole
 * allocation and free path, which each of the glue's loops would otherwise copy.
 */
int sim_apply(struct sim *s, const struct sim_op *op)
{
	int err;

	if (s->frozen)
		return SIM_ECORRUPT;
	s->history = history_next(s->history, op);
	err = apply(s, op);
	/* most ops leave no kernel thread awake: skip the hooks then (about 45 instructions an op) */
	for (const struct subsystem *const *sub = sim_subsystems;
	     s->nr_awake_workers && *sub && !s->frozen; sub++)
		if ((*sub)->op_done)
			(*sub)->op_done(s);
	s->op_seq++;
	if (s->frozen)
		return s->frozen == FROZEN_NOSPACE ? SIM_ENOSPACE : SIM_ECORRUPT;
	return err;
}

const struct sim_event *sim_events(const struct sim *s)
{
	return sim_event_buf(s);
}

void sim_events_clear(struct sim *s)
{
	s->nr_events = 0;
	s->events_dropped = 0;
}

void sim_ops_restart(struct sim *s)
{
	s->op_seq = 0;
	s->event_seq = 0;
	sim_events_clear(s);
}

int sim_check(struct sim *s)
{
	if (s->magic != SIM_MAGIC) {
		memcpy(s->error, "bad magic", sizeof "bad magic");
		return SIM_ECORRUPT;
	}
	for (const struct subsystem *const *sub = sim_subsystems; *sub; sub++) {
		int err = (*sub)->check ? (*sub)->check(s) : SIM_OK;
		if (err)
			return err;
	}
	return SIM_OK;
}
