/*
 * event.h: appending tracepoint-shaped records to the state's event buffer. The kinds, functions
 * and their names are defined once, in each subsystem's events.def (base/events.def says how).
 */
#ifndef BUDDYSCOPE_EVENT_H
#define BUDDYSCOPE_EVENT_H

#include "base/fast_path.h"
#include "base/src_loc.h"
#include "base/state.h"

/*
 * A CPU's trace context, as the flags column of a trace line shows it: interrupts off ('d'), and
 * the preemption depth (a hex digit, '.' for 0) that the locks held add up to. Only the locks the
 * model takes count; the kernel's callers may hold more (a softirq, a page table lock).
 */
#define TRACE_CTX_IRQS_OFF 0x80	     /* local interrupts disabled */
#define TRACE_CTX_IRQS_WERE_OFF 0x40 /* interrupts were off before the zone lock was taken */
#define TRACE_CTX_DEPTH 0x3f	     /* preempt_count */

/*
 * Append one event (seq and op filled in, and the emitting site: src_file and src_line) with its
 * CPU's trace context ctx; counts it as dropped when the buffer is full. The narrow fields come
 * in as stored: ev_emit and ev_emit_cpu below clamp and look up what each needs.
 */
static FAST_PATH void ev_record(uint16_t src_file, uint16_t src_line, struct sim *s, int kind,
				int fn, uint16_t cpu, uint8_t node, uint8_t zone, uint8_t ctx,
				uint32_t pfn, uint8_t order, uint8_t mt, int32_t a, int32_t b,
				int32_t c)
{
	uint32_t n = s->nr_events;
	uint32_t seq = s->event_seq++;
	struct sim_event *e;
	uint32_t op;

	if (n >= s->config.event_capacity) {
		/* the history stays consistent: seq still advances, the loss is counted */
		s->events_dropped++;
		return;
	}
	/*
	 * Everything is read before anything is stored: a byte store may alias any field of s, so
	 * storing field by field made the compiler reload the state between the stores.
	 */
	op = s->op_seq;
	e = &sim_event_buf(s)[n];
	s->nr_events = n + 1;
	e->seq = seq;
	e->op = op;
	e->pfn = pfn;
	e->a = a;
	e->b = b;
	e->c = c;
	e->kind = (uint8_t)kind;
	e->fn = (uint8_t)fn;
	e->src_file = src_file;
	e->src_line = src_line;
	e->cpu = cpu;
	e->node = node;
	e->zone = zone;
	e->order = order;
	e->mt = mt;
	e->ctx = ctx;
}

/*
 * Append one event for cpu, any or none (-1): its trace context read from its record, if any;
 * a negative cpu, order or mt is stored as 0.
 */
static FAST_PATH void ev_emit_at(uint16_t src_file, uint16_t src_line, struct sim *s, int kind,
				 int fn, int cpu, const struct zone *z, uint32_t pfn, int order,
				 int mt, int32_t a, int32_t b, int32_t c)
{
	/* The CPU records are an arena array of nr_cpus (base/state.h): bounded by that count. */
	uint8_t ctx = cpu >= 0 && (uint32_t)cpu < s->nr_cpus ? sim_cpus(s)[cpu].trace_ctx : 0;
	uint8_t node = (uint8_t)(z ? z->node : (cpu >= 0 ? sim_cpus(s)[cpu].node : 0));

	ev_record(src_file, src_line, s, kind, fn, (uint16_t)(cpu < 0 ? 0 : cpu), node,
		  (uint8_t)(z ? z->idx : 0), ctx, pfn, (uint8_t)(order < 0 ? 0 : order),
		  (uint8_t)(mt < 0 ? 0 : mt), a, b, c);
}

/*
 * Append one event for the valid cpu whose record the caller holds (cpu_rec, &sim_cpus(s)[cpu]),
 * with an order and mt that are not negative: the alloc and free paths, which hold the record
 * anyway and pass a real block's order and migratetype, so every event they emit skips the
 * bounds check, the lookup and the three clamps. With the record passed down those paths instead
 * of looked up at each use, an op of the core benchmark went from 846.5 to 817 wasm and 646.6 to
 * 624.6 native instructions (bench1m, callgrind); without the clamps, and with the record's
 * constant fields side by side (struct sim_event), from 813.8 to 796.6 wasm (laptop: 831.1 to
 * 814.0), native 617.3 against 613.2 (both without GCC's vectoriser, wasm-core/Makefile).
 */
static FAST_PATH void ev_emit_cpu_at(uint16_t src_file, uint16_t src_line, struct sim *s, int kind,
				     int fn, const struct cpu *cpu_rec, int cpu,
				     const struct zone *z, uint32_t pfn, int order, int mt,
				     int32_t a, int32_t b, int32_t c)
{
	ev_record(src_file, src_line, s, kind, fn, (uint16_t)cpu,
		  (uint8_t)(z ? z->node : cpu_rec->node), (uint8_t)(z ? z->idx : 0),
		  cpu_rec->trace_ctx, pfn, (uint8_t)order, (uint8_t)mt, a, b, c);
}

/*
 * ev_emit(s, kind, fn, ...) is ev_emit_at with the caller's file and line (base/src_loc.h).
 * ev_emit is an object-like macro that opens the call and ev_emit_args_ closes it with the
 * caller's arguments, so __LINE__ is the line of the word ev_emit in gcc and clang alike: inside a
 * function-like macro called over two lines, __LINE__ is the first line in gcc but the last in
 * clang, and native and wasm events must be equal byte for byte.
 */
#define ev_emit ev_emit_at(SRC_FILE_HASH(__FILE__), (uint16_t)__LINE__, ev_emit_args_
/* ev_emit_cpu(s, kind, fn, cpu_rec, cpu, ...): ev_emit_cpu_at with the caller's file and line. */
#define ev_emit_cpu ev_emit_cpu_at(SRC_FILE_HASH(__FILE__), (uint16_t)__LINE__, ev_emit_args_
#define ev_emit_args_(...) __VA_ARGS__)

/* The kernel function name of an enum ev_fn ("__rmqueue_smallest"); src/vocabulary.c, which sees every events.def. */
const char *ev_fn_name(int fn);

/* The name of an event kind ("mm_page_alloc", "pcp_refill"), "unknown" past the last; src/vocabulary.c. */
const char *ev_kind_name(int kind);

#endif
