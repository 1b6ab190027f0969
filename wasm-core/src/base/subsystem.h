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
	/* Bytes of the subsystem's own arena region for a valid config (0: none); 0 also when too big is refused by returning UINT64_MAX. */
	uint64_t (*arena_bytes)(const struct sim_config *cfg);
	/* After the arena is laid out (every list empty): put the machine in its booted state. */
	void (*boot)(struct sim *s);
	/* Apply an op of this subsystem: SIM_OK, an enum sim_err, or SIM_ENOTMINE for other kinds. */
	int (*apply)(struct sim *s, const struct sim_op *op);
	/* One vmstat interval passes on an online cpu (vmstat_update's work for this subsystem). */
	void (*tick_cpu)(struct sim *s, int cpu);
	/* The end of one interval, after every CPU's tick_cpu. */
	void (*tick_end)(struct sim *s);
	/* After an op while s->nr_awake_workers > 0: work beside the workload, e.g. a woken kswapd's next round. */
	void (*op_done)(struct sim *s);
	/* How many pages it holds from page_alloc_owned (PAGEF_OWNED), counted from its own records. */
	uint64_t (*owned_pages)(const struct sim *s);
	/* Verify this subsystem's part of the state: SIM_OK, or SIM_ECORRUPT with s->error set. */
	int (*check)(struct sim *s);
	/* Print one of its events as its kernel tracepoint does (name and fields, after the line prefix); 0 if not its own. */
	int (*trace_event)(const struct sim *s, const struct sim_event *e, struct textbuf *tb);
	/* Append this subsystem's /proc/vmstat lines ("name value\n") after the page allocator's. */
	void (*vmstat)(const struct sim *s, struct textbuf *tb);
};

/* One more than the highest op kind of the base and every subsystem (src/vocabulary.c). */
extern const unsigned sim_nr_op_kinds;

/* Refuse bad input as the kernel reports a bad page (EV_BAD_PAGE, enum bad_reason); returns err. */
int sim_report_bad(struct sim *s, int cpu, uint32_t pfn, int order, int reason, int err);

/* The subsystems in dependency order, NULL-terminated (src/subsystems.c). */
extern const struct subsystem *const sim_subsystems[];

/*
 * Apply an op that the base does not own: the subsystem whose kind it is applies it; SIM_EINVAL
 * when none does (src/subsystems.c).
 */
int sim_subsystems_apply(struct sim *s, const struct sim_op *op);

/* The arena region of subsystem sub (its arena_bytes), or NULL when it has none. */
static inline void *sim_subsystem_region(const struct sim *s, const struct subsystem *sub)
{
	for (int i = 0; i < MAX_SUBSYSTEMS && sim_subsystems[i]; i++)
		if (sim_subsystems[i] == sub)
			return s->subsystem_off[i] ? (char *)s + s->subsystem_off[i] : NULL;
	return NULL;
}

#endif
