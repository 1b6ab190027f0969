/*
 * lane.h: each CPU's lane, what its thread did over virtual time (user work, a fault by its
 * path, a wait for mmap_lock or a VMA's readers, an attempt that fell back, a wasted page, an
 * address-space change), kept as the last FAULT_LANE_SEGS segments per CPU in a ring after the
 * fault state (fault_arena_bytes sizes it by the machine's CPUs). The CPU-lanes view draws them;
 * nothing in the model reads them back.
 *
 * A lane has at most one open segment, inside an op: the fault paths open it, lock waits carve
 * their interval out of it (lane_interval) and the op closes it. Worked example: a 4.16 fault on
 * CPU 2 opens FAULT_MMAP at 10 us; mmap_read_lock asks at 10.3 us and gets the lock at 42 us
 * (a writer held it); the fault ends at 43 us. The ring gets FAULT_MMAP [10, 10.3),
 * WAIT_MMAP_READ [10.3, 42), FAULT_MMAP [42, 43).
 */
#ifndef BUDDYSCOPE_FAULT_LANE_H
#define BUDDYSCOPE_FAULT_LANE_H

#include "fault/mm.h"

/* enum fault_lane_state: LANE_NONE, LANE_USER, ... (lane_states.def) */
enum fault_lane_state {
#define LANE(NAME, label, doc) LANE_##NAME,
#include "fault/lane_states.def"
#undef LANE
	NR_LANE_STATES
};

/* Bytes of the lane rings of a machine with nr_cpus CPUs. */
uint64_t lane_ring_bytes(uint32_t nr_cpus);

/* cpu's ring: FAULT_LANE_SEGS segments, the oldest at lane_count % FAULT_LANE_SEGS once full. */
struct fault_lane_seg *lane_ring(const struct sim *s, int cpu);

/* Open a segment of state on cpu at its clock, closing the open one (if any) there. */
void lane_open(struct sim *s, int cpu, int state);

/* Close cpu's open segment at its clock; the lane rests until the next op. */
void lane_close(struct sim *s, int cpu);

/* The open segment's time from from_ns (its first event from_seq) to now was state: cut it out. */
void lane_interval(struct sim *s, int cpu, uint64_t from_ns, uint32_t from_seq, int state);

/* An attempt begun at since_ns fell back: its speculative or per-VMA segments become RETRY. */
void lane_fell_back(struct sim *s, int cpu, uint64_t since_ns);

/* Verify cpu's lane: nothing open, every kept segment non-empty, of a state, its events in order. */
int lane_check(struct sim *s, int cpu);

#endif
