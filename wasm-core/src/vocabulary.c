/*
 * vocabulary.c: the tables that span every subsystem's words: event kind and kernel function
 * names by id, and how many op kinds there are. Each subsystem's .def files are listed here, as
 * subsystems.c lists the subsystems; the base declares what this file defines (base/event.h,
 * base/subsystem.h) and so never includes a subsystem. A kind id given twice is a compile error
 * (-Woverride-init under -Wextra -Werror); scripts/gen checks the ids are dense.
 */
#include "base/event.h"
#include "base/subsystem.h"

#define FN(id, NAME, name, file)
#define EV_BITS(NAME, field, name, shift, width)
#define BAD(id, NAME, words)

#define EV(id, NAME, name, marker, zone, pfn, order, mt, a, fa, b, fb, c, fc, doc) [id] = name,
static const char *const kind_names[] = {
#include "base/events.def"
#include "page_alloc/events.def"
#include "reclaim/events.def"
#include "percpu/events.def"
#include "fault/events.def"
};
#undef EV

#define EV(id, NAME, name, marker, zone, pfn, order, mt, a, fa, b, fb, c, fc, doc)
#undef FN
#define FN(id, NAME, name, file) [id] = name,
static const char *const fn_names[] = {
#include "base/events.def"
#include "page_alloc/events.def"
#include "reclaim/events.def"
#include "percpu/events.def"
#include "fault/events.def"
};
#undef EV
#undef FN
#undef EV_BITS
#undef BAD

/* an array as long as the highest op kind + 1, measured and thrown away */
#define OP(id, NAME, order, cpu, gfp, handle, arg, doc) [id] = 1,
const unsigned sim_nr_op_kinds = sizeof((const unsigned char[]){
#include "base/ops.def"
#include "page_alloc/ops.def"
#include "reclaim/ops.def"
#include "percpu/ops.def"
#include "fault/ops.def"
});
#undef OP

const char *ev_fn_name(int fn)
{
	return (fn >= 0 && fn < (int)(sizeof fn_names / sizeof *fn_names) && fn_names[fn]) ?
		       fn_names[fn] :
		       "";
}

const char *ev_kind_name(int kind)
{
	return (kind >= 0 && kind < (int)(sizeof kind_names / sizeof *kind_names) &&
		kind_names[kind]) ?
		       kind_names[kind] :
		       "unknown";
}
