/*
 * subsystem.h: what each kernel mechanism (the page allocator today; reclaim, the percpu
 * allocator and page faults as they land) hands the base so that the base can boot the machine,
 * apply ops, pass time and check the state without including any of them. Dependencies point one
 * way (base <- page_alloc <- the others); src/subsystems.c is the one file that lists them.
 */
#ifndef BUDDYSCOPE_SUBSYSTEM_H
#define BUDDYSCOPE_SUBSYSTEM_H

#include "base/textbuf.h"
#include "base/types.h"

#define SIM_ENOTMINE (-1) /* a subsystem's apply: this op kind belongs to another subsystem */

/* One subsystem's entry points; a NULL hook is skipped. */
struct subsystem {
	const char *name; /* the folder's name: "page_alloc" */
	/* Bytes of fixed-size state of its own, laid out after the event buffer (0: none). */
	uint32_t state_size;
	/* After the arena is laid out (every list empty): put the machine in its booted state. */
	void (*boot)(struct sim *s);
	/* Apply an op of this subsystem: SIM_OK, an enum sim_err, or SIM_ENOTMINE for other kinds. */
	int (*apply)(struct sim *s, const struct sim_op *op);
	/* One vmstat interval passes on an online cpu (vmstat_update's work for this subsystem). */
	void (*tick_cpu)(struct sim *s, int cpu);
	/* The end of one interval, after every CPU's tick_cpu. */
	void (*tick_end)(struct sim *s);
	/* Verify this subsystem's part of the state: SIM_OK, or SIM_ECORRUPT with s->error set. */
	int (*check)(struct sim *s);
	/* Print one of its events as the kernel's tracepoint text (after the line prefix, without the
	 * newline); 0 if the kind is not one it prints so (the model's own format is used). */
	int (*trace)(const struct sim *s, const struct sim_event *e, struct textbuf *tb);
	/* Append this subsystem's /proc/vmstat lines ("name value\n") after the page allocator's. */
	void (*vmstat)(const struct sim *s, struct textbuf *tb);
};

/* One more than the highest op kind of the base and every subsystem (src/vocabulary.c). */
extern const unsigned sim_nr_op_kinds;

/* Refuse bad input as the kernel reports a bad page (EV_BAD_PAGE, enum bad_reason); returns err. */
int sim_report_bad(struct sim *s, int cpu, uint32_t pfn, int order, int reason, int err);

/* How many subsystems sim_subsystems lists (at most SIM_MAX_SUBSYSTEMS). */
int sim_nr_subsystems(void);

/* sub's own state in s's arena (state_size bytes, zeroed at boot); NULL if it has none. */
void *sim_subsystem_state(const struct sim *s, const struct subsystem *sub);

/* The subsystems in dependency order, NULL-terminated (src/subsystems.c). */
extern const struct subsystem *const sim_subsystems[];

#endif
