/*
 * vocab.h: the percpu allocator's words as C enums, from the .def files beside it: its event kinds
 * and kernel functions (events.def) and its op kinds (ops.def). Ids are shared with every other
 * subsystem and never change; percpu owns event kinds 70..89, functions 80..99, ops 30..39.
 */
#ifndef BUDDYSCOPE_PERCPU_VOCAB_H
#define BUDDYSCOPE_PERCPU_VOCAB_H

#include "base/types.h"

#define EV(id, NAME, name, marker, zone, pfn, order, mt, a, fa, b, fb, c, fc, doc) EV_##NAME = id,
#define EV_BITS(NAME, field, name, shift, width)
#define FN(id, NAME, name, file)
/* the percpu allocator's event kinds (struct sim_event.kind) */
enum percpu_ev_kind {
#include "percpu/events.def"
};
#undef EV
#undef FN
#define EV(id, NAME, name, marker, zone, pfn, order, mt, a, fa, b, fb, c, fc, doc)
#define FN(id, NAME, name, file) FN_##NAME = id,
/* the kernel functions its events name (struct sim_event.fn) */
enum percpu_ev_fn {
#include "percpu/events.def"
};
#undef EV
#undef EV_BITS
#undef FN

/* the percpu allocator's op kinds (struct sim_op.kind) */
enum percpu_op_kind {
#define OP(id, NAME, order, cpu, gfp, handle, arg, doc) OP_##NAME = id,
#include "percpu/ops.def"
#undef OP
};

/* why a percpu request was refused (EV_PERCPU_BAD_REQUEST's c) */
enum pcpu_bad_reason {
	PCPU_BAD_SIZE = 1,	  /* size 0 or above PCPU_MIN_UNIT_SIZE (32 KiB) */
	PCPU_BAD_ALIGN = 2,	  /* align above PAGE_SIZE or not a power of two */
	PCPU_BAD_HANDLE = 4,	  /* a free of a handle that holds no area */
	PCPU_BAD_HANDLE_BUSY = 5, /* an allocation into a handle that still holds an area */
	PCPU_BAD_HANDLE_RANGE = 6 /* the handle is beyond the table (sim_config.percpu_handles) */
};

#endif
