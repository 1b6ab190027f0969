/*
 * vocab.h: the page-fault subsystem's words as C enums, from the .def files beside it: its event
 * kinds and kernel functions (events.def) and its op kinds (ops.def). Ids are shared with every
 * other subsystem and never change.
 */
#ifndef BUDDYSCOPE_FAULT_VOCAB_H
#define BUDDYSCOPE_FAULT_VOCAB_H

#include "base/types.h"

#define EV(id, NAME, name, marker, zone, pfn, order, mt, a, fa, b, fb, c, fc, doc) EV_##NAME = id,
#define EV_BITS(NAME, field, name, shift, width)
#define FN(id, NAME, name, file)
/* the fault subsystem's event kinds (struct sim_event.kind) */
enum fault_ev_kind {
#include "fault/events.def"
};
#undef EV
#undef FN
#define EV(id, NAME, name, marker, zone, pfn, order, mt, a, fa, b, fb, c, fc, doc)
#define FN(id, NAME, name, file) FN_##NAME = id,
/* the kernel functions its events name (struct sim_event.fn) */
enum fault_ev_fn {
#include "fault/events.def"
};
#undef EV
#undef EV_BITS
#undef FN

/* the fault subsystem's op kinds (struct sim_op.kind) */
enum fault_op_kind {
#define OP(id, NAME, order, cpu, gfp, handle, arg, doc) OP_##NAME = id,
#include "fault/ops.def"
#undef OP
};

/* which path finished a fault (EV_FAULT_DONE's b, bits 0..3) */
enum fault_path {
	FAULT_PATH_VMA_LOCK = 1, /* under the per-VMA lock */
	FAULT_PATH_SPF = 2,	 /* speculatively, without mmap_sem */
	FAULT_PATH_MMAP_LOCK = 3 /* under mmap_lock for read */
};

/* how a fault ended (EV_FAULT_DONE's b, bits 4..7) */
enum fault_result {
	FAULT_MAPPED = 0,   /* a page was allocated and mapped */
	FAULT_SIGSEGV = 1,  /* no VMA, or the access is not allowed: the thread gets SIGSEGV */
	FAULT_SPURIOUS = 2, /* the PTE was already there */
	FAULT_OOM = 3	    /* the page allocator failed (VM_FAULT_OOM) */
};

/* EV_VMA_LOCK's b: the CONFIG_PER_VMA_LOCK_STATS counters, in /proc/vmstat order */
enum vma_lock_outcome { VMA_LOCK_SUCCESS = 1, VMA_LOCK_ABORT, VMA_LOCK_RETRY, VMA_LOCK_MISS };

/* EV_FAULT_OP_REFUSED's a */
enum fault_refusal {
	FAULT_REFUSE_RANGE = 1, /* pages outside the window, or a count of 0 or too many */
	FAULT_REFUSE_OVERLAP, /* mmap over a mapped page (the model's mmaps are MAP_FIXED_NOREPLACE) */
	FAULT_REFUSE_NO_THREAD,	   /* the CPU runs no thread of that process */
	FAULT_REFUSE_NO_VMA_SLOT,  /* FAULT_MAX_VMAS in use */
	FAULT_REFUSE_NO_PTE_TABLE, /* FAULT_MAX_PTE_TABLES in use */
	FAULT_REFUSE_NOT_MAPPED,   /* mprotect of a range with a hole */
};

#endif
