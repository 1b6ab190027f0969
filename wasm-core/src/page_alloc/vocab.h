/*
 * vocab.h: the page allocator's words as C enums, from the .def files beside it: its event kinds
 * and kernel functions (events.def), its op kinds (ops.def) and its tunables (sysctls.def). The
 * base's own words are in base/types.h; ids are shared by both and never change.
 */
#ifndef BUDDYSCOPE_PAGE_ALLOC_VOCAB_H
#define BUDDYSCOPE_PAGE_ALLOC_VOCAB_H

#include "base/types.h"

#define EV(id, NAME, name, marker, zone, pfn, order, mt, a, fa, b, fb, c, fc, doc) EV_##NAME = id,
#define EV_BITS(NAME, field, name, shift, width)
#define FN(id, NAME, name, file)
/* the page allocator's event kinds (struct sim_event.kind) */
enum page_alloc_ev_kind {
#include "page_alloc/events.def"
};
#undef EV
#undef FN
#define EV(id, NAME, name, marker, zone, pfn, order, mt, a, fa, b, fb, c, fc, doc)
#define FN(id, NAME, name, file) FN_##NAME = id,
/* the kernel functions its events name (struct sim_event.fn) */
enum page_alloc_ev_fn {
#include "page_alloc/events.def"
};
#undef EV
#undef EV_BITS
#undef FN

/* the page allocator's op kinds (struct sim_op.kind) */
enum page_alloc_op_kind {
#define OP(id, NAME, order, cpu, gfp, handle, arg, doc) OP_##NAME = id,
#include "page_alloc/ops.def"
#undef OP
};

/* which tunable an OP_SYSCTL writes (its handle); an array tunable takes one id per element */
enum sysctl_id {
#define SYSCTL(id, NAME, name, count, min, max, zero_ok, doc) SYSCTL_##NAME = id,
#include "page_alloc/sysctls.def"
#undef SYSCTL
	NR_SYSCTLS = 0
#define SYSCTL(id, NAME, name, count, min, max, zero_ok, doc) +count
#include "page_alloc/sysctls.def"
#undef SYSCTL
};

_Static_assert(SYSCTL_ZONE_RECLAIM_MODE == SYSCTL_LOWMEM_RESERVE_RATIO_DMA + MAX_NR_ZONES,
	       "lowmem_reserve_ratio has one id per zone");

#endif
