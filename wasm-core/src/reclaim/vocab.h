/*
 * vocab.h: reclaim's words as C enums, from the .def files beside it: its event kinds and kernel
 * functions (events.def) and its op kinds (ops.def). Ids are shared with every subsystem.
 */
#ifndef BUDDYSCOPE_RECLAIM_VOCAB_H
#define BUDDYSCOPE_RECLAIM_VOCAB_H

#include "base/types.h"

#define EV(id, NAME, name, marker, zone, pfn, order, mt, a, fa, b, fb, c, fc, doc) EV_##NAME = id,
#define EV_BITS(NAME, field, name, shift, width)
#define FN(id, NAME, name, file)
/* reclaim's event kinds (struct sim_event.kind) */
enum reclaim_ev_kind {
#include "reclaim/events.def"
};
#undef EV
#undef FN
#define EV(id, NAME, name, marker, zone, pfn, order, mt, a, fa, b, fb, c, fc, doc)
#define FN(id, NAME, name, file) FN_##NAME = id,
/* the kernel functions its events name (struct sim_event.fn) */
enum reclaim_ev_fn {
#include "reclaim/events.def"
};
#undef EV
#undef EV_BITS
#undef FN

/* reclaim's op kinds (struct sim_op.kind) */
enum reclaim_op_kind {
#define OP(id, NAME, order, cpu, gfp, handle, arg, doc) OP_##NAME = id,
#include "reclaim/ops.def"
#undef OP
};

#endif
