/*
 * glue.c: the only file that knows about Emscripten. It exports the core's calls to JavaScript
 * under a bs_ prefix and publishes the struct layout from layout.def, so the web app reads
 * state through typed arrays at offsets the C compiler chose.
 */
#include <stdlib.h>
#include <string.h>

#include "base/event.h"
#include "base/sim.h"
#include "fault/mm.h"
#include "page_alloc/frame_class.h"
#include "page_alloc/procfs.h"
#include "page_alloc/tracefmt.h"
#include "percpu/percpu.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE
#endif

/* Offsets and sizes of every field in layout.def, in its order. */
#define LAYOUT(type, field) offsetof(struct type, field),
static const uint32_t layout_offsets[] = {
#include "layout.def"
};
#undef LAYOUT
#define LAYOUT(type, field) sizeof(((struct type *)0)->field),
static const uint32_t layout_sizes[] = {
#include "layout.def"
};
#undef LAYOUT

/* Sizes of the structs JS walks as arrays, in this order (STRUCT_NAMES of web/core/layout.ts);
 * one a line, unpacked, so the two lists read side by side. */
/* clang-format off */
static const uint32_t struct_sizes[] = {
	sizeof(struct sim),
	sizeof(struct sim_config),
	sizeof(struct zone_config),
	sizeof(struct sim_profile),
	sizeof(struct node),
	sizeof(struct zone),
	sizeof(struct lock_stats),
	sizeof(struct spinlock),
	sizeof(struct free_area),
	sizeof(struct per_cpu_pages),
	sizeof(struct cpu),
	sizeof(struct page),
	sizeof(struct handle),
	sizeof(struct vm_events),
	sizeof(struct sim_event),
	sizeof(struct sim_op),
	sizeof(struct lruvec),
	sizeof(struct kswapd),
	sizeof(struct pcpu_state),
	sizeof(struct pcpu_chunk),
	sizeof(struct pcpu_block_md),
	sizeof(struct pcpu_work),
	sizeof(struct pcpu_handle),
	sizeof(struct fault_state),
	sizeof(struct mm),
	sizeof(struct vm_area),
	sizeof(struct fault_cpu),
	sizeof(struct fault_lane_seg),
	sizeof(struct rwsem),
	sizeof(struct seqcount),
	sizeof(struct fault_events),
	sizeof(struct zonelist_cache),
};
/* clang-format on */

static int last_error;

/* Number of fields in layout.def. */
EMSCRIPTEN_KEEPALIVE uint32_t bs_layout_count(void)
{
	return sizeof layout_offsets / sizeof layout_offsets[0];
}

/* Pointer to the field offsets, in layout.def order. */
EMSCRIPTEN_KEEPALIVE const uint32_t *bs_layout_offsets(void)
{
	return layout_offsets;
}

/* Pointer to the field sizes, in layout.def order. */
EMSCRIPTEN_KEEPALIVE const uint32_t *bs_layout_sizes(void)
{
	return layout_sizes;
}

/* Pointer to the struct sizes (see struct_sizes above) and their count via bs_struct_count. */
EMSCRIPTEN_KEEPALIVE const uint32_t *bs_struct_sizes(void)
{
	return struct_sizes;
}

/* Number of entries of bs_struct_sizes. */
EMSCRIPTEN_KEEPALIVE uint32_t bs_struct_count(void)
{
	return sizeof struct_sizes / sizeof struct_sizes[0];
}

/* SIM_MODEL_VERSION of this build. */
EMSCRIPTEN_KEEPALIVE int bs_model_version(void)
{
	return SIM_MODEL_VERSION;
}

/* A new config with the defaults (free with bs_free). */
EMSCRIPTEN_KEEPALIVE struct sim_config *bs_config_new(void)
{
	struct sim_config *cfg = malloc(sizeof *cfg);
	if (cfg)
		sim_config_default(cfg);
	return cfg;
}

/* sim_config_preset on a config from bs_config_new. */
EMSCRIPTEN_KEEPALIVE int bs_config_preset(struct sim_config *cfg, const char *name)
{
	return sim_config_preset(cfg, name);
}

/* Arena bytes the config needs, 0 if invalid. */
EMSCRIPTEN_KEEPALIVE uint32_t bs_state_size(const struct sim_config *cfg)
{
	return (uint32_t)sim_state_size(cfg);
}

/* A new simulation built from cfg, or NULL (reason in bs_last_error). */
EMSCRIPTEN_KEEPALIVE struct sim *bs_create(const struct sim_config *cfg)
{
	size_t size = sim_state_size(cfg);
	void *arena;

	if (!size) {
		last_error = SIM_ECONFIG;
		return NULL;
	}
	arena = aligned_alloc(8, (size + 7) & ~(size_t)7);
	if (!arena) {
		last_error = SIM_ENOSPACE;
		return NULL;
	}
	last_error = sim_init(arena, size, cfg);
	if (last_error) {
		free(arena);
		return NULL;
	}
	return arena;
}

/* Why the last bs_create failed (enum sim_err). */
EMSCRIPTEN_KEEPALIVE int bs_last_error(void)
{
	return last_error;
}

/* Free anything this module allocated (a sim, a config, a buffer). */
EMSCRIPTEN_KEEPALIVE void bs_free(void *p)
{
	free(p);
}

/* Arena size of a sim (for snapshots: copy that many bytes from the sim pointer). */
EMSCRIPTEN_KEEPALIVE uint32_t bs_arena_size(const struct sim *s)
{
	return s->arena_size;
}

/* Apply one packed struct sim_op record (the form ops keep from the compiler on); enum sim_err. */
EMSCRIPTEN_KEEPALIVE int bs_apply_op(struct sim *s, const struct sim_op *op)
{
	return sim_apply(s, op);
}

/* Apply n packed struct sim_op records; returns how many were applied (stops at a frozen state). */
EMSCRIPTEN_KEEPALIVE uint32_t bs_apply_ops(struct sim *s, const struct sim_op *ops, uint32_t n)
{
	uint32_t i;
	for (i = 0; i < n && !s->frozen; i++)
		sim_apply(s, &ops[i]);
	return i;
}

/* Apply n ops clearing the events after each, as the native runner does; returns the events emitted. */
EMSCRIPTEN_KEEPALIVE double bs_run_ops(struct sim *s, const struct sim_op *ops, uint32_t n)
{
	double events = 0;
	for (uint32_t i = 0; i < n; i++) {
		sim_apply(s, &ops[i]);
		events += s->nr_events + s->events_dropped;
		sim_events_clear(s);
	}
	return events;
}

/* sim_check. */
EMSCRIPTEN_KEEPALIVE int bs_check(struct sim *s)
{
	return sim_check(s);
}

/* The state's last error text. */
EMSCRIPTEN_KEEPALIVE const char *bs_error(const struct sim *s)
{
	return s->error;
}

/* Pointer to the buffered events (s->nr_events of them). */
EMSCRIPTEN_KEEPALIVE const struct sim_event *bs_events(const struct sim *s)
{
	return sim_events(s);
}

/* sim_events_clear. */
EMSCRIPTEN_KEEPALIVE void bs_events_clear(struct sim *s)
{
	sim_events_clear(s);
}

/* sim_ops_restart: the captured state applied so far is where the workload starts. */
EMSCRIPTEN_KEEPALIVE void bs_ops_restart(struct sim *s)
{
	sim_ops_restart(s);
}

/* sim_proc_render into a caller buffer; returns the length needed. */
EMSCRIPTEN_KEEPALIVE uint32_t bs_proc_render(const struct sim *s, int which, char *buf,
					     uint32_t cap)
{
	return (uint32_t)sim_proc_render(s, which, buf, cap);
}

/* sim_trace_render into a caller buffer; returns the length needed. */
EMSCRIPTEN_KEEPALIVE uint32_t bs_trace_render(const struct sim *s, uint32_t from, uint32_t to,
					      char *buf, uint32_t cap)
{
	return (uint32_t)sim_trace_render(s, from, to, buf, cap);
}

/* sim_profile_by_name. */
EMSCRIPTEN_KEEPALIVE int bs_profile_by_name(const char *name)
{
	return sim_profile_by_name(name);
}

/* The name of profile id, or "" if out of range. */
EMSCRIPTEN_KEEPALIVE const char *bs_profile_name(int id)
{
	return (id >= 0 && id < NR_PROFILES) ? sim_profile_get(id)->name : "";
}

/* The kernel function name of an event's fn. */
EMSCRIPTEN_KEEPALIVE const char *bs_ev_fn_name(int fn)
{
	return ev_fn_name(fn);
}

/* The name of an event kind. */
EMSCRIPTEN_KEEPALIVE const char *bs_ev_kind_name(int kind)
{
	return ev_kind_name(kind);
}

/* NR_FRAME_CLASSES: entries of the table bs_frame_classes_repaint reads. */
EMSCRIPTEN_KEEPALIVE int bs_nr_frame_classes(void)
{
	return NR_FRAME_CLASSES;
}

/* sim_frame_classes_repaint: bring out up to date where the frame stamps differ from seen; spans repainted. */
EMSCRIPTEN_KEEPALIVE int bs_frame_classes_repaint(const struct sim *s, uint64_t *seen, int all,
						  uint32_t start, uint32_t count,
						  const uint32_t *lut, uint32_t *out,
						  uint32_t *spans, int max_spans)
{
	return sim_frame_classes_repaint(s, seen, all, start, count, lut, out, spans, max_spans);
}

/* Byte offset of the percpu region from s (0: the machine has none); web/core/percpu-reader.ts reads it. */
EMSCRIPTEN_KEEPALIVE uint32_t bs_percpu_region(const struct sim *s)
{
	const struct pcpu_state *ps = pcpu_state(s);
	return ps ? (uint32_t)((const char *)ps - (const char *)s) : 0;
}

/* Byte offset of the fault region from s; web/core/fault-reader.ts reads it (the lanes, the VMAs). */
EMSCRIPTEN_KEEPALIVE uint32_t bs_fault_region(const struct sim *s)
{
	const struct fault_state *f = fault_state(s);
	return f ? (uint32_t)((const char *)f - (const char *)s) : 0;
}

/* The percpu texts: 0 the boot line, 1 /sys/kernel/debug/percpu_stats, 2 the meminfo line; length needed. */
EMSCRIPTEN_KEEPALIVE uint32_t bs_percpu_text(struct sim *s, int which, char *buf, uint32_t cap)
{
	switch (which) {
	case 0:
		return (uint32_t)pcpu_boot_line(s, buf, cap);
	case 1:
		return (uint32_t)pcpu_stats_render(s, buf, cap);
	default:
		return (uint32_t)pcpu_meminfo_line(s, buf, cap);
	}
}

/* Virtual nanoseconds of one percpu phase's work (enum pcpu_phase), the weighted sum of cost.c. */
EMSCRIPTEN_KEEPALIVE double bs_percpu_work_ns(const struct sim *s, int phase)
{
	const struct pcpu_state *ps = pcpu_state(s);
	if (!ps || phase < 0 || phase >= NR_PCPU_PHASES)
		return 0;
	return (double)pcpu_work_ns(&ps->work[phase]);
}
