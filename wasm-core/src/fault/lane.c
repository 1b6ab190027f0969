/*
 * lane.c: each CPU's lane of segments in virtual time (lane.h). The rings sit after struct
 * fault_state in the subsystem's region, FAULT_LANE_SEGS records per CPU of the machine; a ring
 * overwrites its oldest record, so a long run keeps the last 64 stretches of every CPU. Every
 * walk here is bounded by FAULT_LANE_SEGS.
 */
#include <stdio.h>

#include "base/state.h"
#include "fault/lane.h"

uint64_t lane_ring_bytes(uint32_t nr_cpus)
{
	return (uint64_t)nr_cpus * FAULT_LANE_SEGS * sizeof(struct fault_lane_seg);
}

struct fault_lane_seg *lane_ring(const struct sim *s, int cpu)
{
	struct fault_state *f = fault_state(s);

	return (struct fault_lane_seg *)((char *)f + f->lanes_off) + (size_t)cpu * FAULT_LANE_SEGS;
}

/* Append [from, to) of state with events [seq_from, seq_to) to cpu's ring; empty spans are dropped. */
static void push(struct sim *s, int cpu, uint64_t from, uint64_t to, uint32_t seq_from,
		 uint32_t seq_to, int state)
{
	struct fault_cpu *fc = &fault_cpus(fault_state(s))[cpu];
	struct fault_lane_seg *g;

	if (to <= from || state == LANE_NONE)
		return;
	g = &lane_ring(s, cpu)[fc->lane_count % FAULT_LANE_SEGS];
	g->from_ns = from;
	g->to_ns = to;
	g->op = s->op_seq;
	g->seq_from = seq_from;
	g->seq_to = seq_to;
	g->state = (uint8_t)state;
	g->mm = fc->thread_mm ? (uint8_t)(fc->thread_mm - 1) : 0;
	g->pad = 0;
	fc->lane_count++;
}

void lane_open(struct sim *s, int cpu, int state)
{
	struct fault_cpu *fc = &fault_cpus(fault_state(s))[cpu];
	uint64_t now = sim_cpus(s)[cpu].clock_ns;

	push(s, cpu, fc->lane_from_ns, now, fc->lane_from_seq, s->event_seq, fc->lane_state);
	fc->lane_state = (uint8_t)state;
	fc->lane_from_ns = now;
	fc->lane_from_seq = s->event_seq;
}

void lane_close(struct sim *s, int cpu)
{
	lane_open(s, cpu, LANE_NONE);
}

void lane_interval(struct sim *s, int cpu, uint64_t from_ns, uint32_t from_seq, int state)
{
	struct fault_cpu *fc = &fault_cpus(fault_state(s))[cpu];
	uint64_t now = sim_cpus(s)[cpu].clock_ns;

	if (now <= from_ns)
		return;
	/* an interval never reaches back past the open segment's start */
	if (fc->lane_state != LANE_NONE && from_ns < fc->lane_from_ns)
		from_ns = fc->lane_from_ns;
	push(s, cpu, fc->lane_from_ns, from_ns, fc->lane_from_seq, from_seq, fc->lane_state);
	push(s, cpu, from_ns, now, from_seq, s->event_seq, state);
	fc->lane_from_ns = now;
	fc->lane_from_seq = s->event_seq;
}

/* Whether state is an attempt that may still fall back. */
static int attempt(int state)
{
	return state == LANE_FAULT_SPF || state == LANE_FAULT_VMA;
}

void lane_fell_back(struct sim *s, int cpu, uint64_t since_ns)
{
	struct fault_cpu *fc = &fault_cpus(fault_state(s))[cpu];
	struct fault_lane_seg *ring = lane_ring(s, cpu);
	uint64_t kept = fc->lane_count < FAULT_LANE_SEGS ? fc->lane_count : FAULT_LANE_SEGS;

	if (attempt(fc->lane_state))
		fc->lane_state = LANE_RETRY;
	for (uint64_t k = 1; k <= kept; k++) {
		struct fault_lane_seg *g = &ring[(fc->lane_count - k) % FAULT_LANE_SEGS];
		if (g->from_ns < since_ns)
			break;
		if (attempt(g->state))
			g->state = LANE_RETRY;
	}
}

int lane_check(struct sim *s, int cpu)
{
	const struct fault_cpu *fc = &fault_cpus(fault_state(s))[cpu];
	const struct fault_lane_seg *ring = lane_ring(s, cpu);
	uint64_t kept = fc->lane_count < FAULT_LANE_SEGS ? fc->lane_count : FAULT_LANE_SEGS;
	uint32_t prev_seq = 0;

	if (fc->lane_state != LANE_NONE) {
		snprintf(s->error, sizeof s->error, "fault: lane of CPU %d open between ops", cpu);
		return SIM_ECORRUPT;
	}
	for (uint64_t k = kept; k >= 1; k--) {
		const struct fault_lane_seg *g = &ring[(fc->lane_count - k) % FAULT_LANE_SEGS];
		/* not checked against the clock: the C tests wind clocks back to stage a race */
		if (g->state == LANE_NONE || g->state >= NR_LANE_STATES || g->from_ns >= g->to_ns ||
		    g->seq_from < prev_seq || g->seq_to < g->seq_from) {
			snprintf(s->error, sizeof s->error,
				 "fault: lane segment of CPU %d out of order or state (%u)", cpu,
				 g->state);
			return SIM_ECORRUPT;
		}
		prev_seq = g->seq_to;
	}
	return SIM_OK;
}
