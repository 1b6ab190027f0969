/*
 * tracefmt.c: the fault subsystem's events as the kernel's tracepoints print them
 * (docs/kernel/fault/README.md (L.5)): mmap_lock:mmap_lock_start_locking, _acquire_returned and
 * _released as "mm=%p memcg_id=%llu write=%s [success=%s]", exceptions:page_fault_user as
 * "address=%ps ip=%ps error_code=0x%lx", and the posted series' pagefault:spf_* as
 * "ip:%lx vma:%lx-%lx address:%lx". The model has no memcg (id 0), no instruction pointer (0) and
 * no real mm pointer: the hashed %p is the process number in 16 hex digits.
 */
#include "fault/tracefmt.h"
#include "fault/vocab.h"

/* "mm=%p memcg_id=0 write=%s" */
static void mm_write(struct textbuf *tb, const struct sim_event *e)
{
	tb_str(tb, "mm=");
	tb_hex(tb, (uint32_t)e->c, 16);
	tb_str(tb, " memcg_id=0 write=");
	tb_str(tb, e->a ? "true" : "false");
}

/* "0x%lx" of a byte address inside the window */
static void hex(struct textbuf *tb, int32_t v)
{
	tb_str(tb, "0x");
	tb_hex(tb, (uint32_t)v, 1);
}

int fault_trace(const struct sim *s, const struct sim_event *e, struct textbuf *tb)
{
	(void)s;
	switch (e->kind) {
	case EV_MMAP_LOCK_START_LOCKING:
		tb_str(tb, "mmap_lock_start_locking: ");
		mm_write(tb, e);
		return 1;
	case EV_MMAP_LOCK_ACQUIRE_RETURNED:
		tb_str(tb, "mmap_lock_acquire_returned: ");
		mm_write(tb, e);
		tb_str(tb, e->b ? " success=true" : " success=false");
		return 1;
	case EV_MMAP_LOCK_RELEASED:
		tb_str(tb, "mmap_lock_released: ");
		mm_write(tb, e);
		return 1;
	case EV_PAGE_FAULT_USER:
		tb_str(tb, "page_fault_user: address=");
		hex(tb, e->a);
		tb_str(tb, " ip=0x0 error_code=");
		hex(tb, e->b);
		return 1;
	case EV_SPF_VMA_CHANGED:
	case EV_SPF_VMA_NOANON:
	case EV_SPF_VMA_NOTSUP:
	case EV_SPF_VMA_ACCESS:
	case EV_SPF_PMD_CHANGED:
	case EV_SPF_PTE_LOCK:
		tb_str(tb, ev_kind_name(e->kind));
		tb_str(tb, ": ip:0 vma:");
		tb_hex(tb, (uint32_t)e->b, 1);
		tb_char(tb, '-');
		tb_hex(tb, (uint32_t)e->c, 1);
		tb_str(tb, " address:");
		tb_hex(tb, (uint32_t)e->a, 1);
		return 1;
	default:
		return 0;
	}
}
