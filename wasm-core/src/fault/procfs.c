/*
 * procfs.c: the fault subsystem's /proc/vmstat lines ([6.18] mm/vmstat.c vmstat_text, the
 * vm_event_item names): pgfault and pgmajfault after the page allocator's lines; SPF's
 * speculative_pgfault (v10/v11) under that profile; the CONFIG_PER_VMA_LOCK_STATS counts
 * vma_lock_success, vma_lock_abort, vma_lock_retry and vma_lock_miss, in that order, under
 * per-VMA locks (the model prints them as a kernel built with the option would; the live 6.18
 * machine of docs/kernel/fault/README.md (L.6) has it off).
 */
#include "fault/mm.h"
#include "fault/procfs.h"

/* "name value\n" */
static void line(struct textbuf *tb, const char *name, uint64_t v)
{
	tb_str(tb, name);
	tb_char(tb, ' ');
	tb_uint_left(tb, v, 0);
	tb_char(tb, '\n');
}

void fault_vmstat(const struct sim *s, struct textbuf *tb)
{
	const struct fault_events *ev = &fault_state(s)->ev;

	line(tb, "pgfault", ev->pgfault);
	line(tb, "pgmajfault", 0); /* no swap, no page cache: every fault is minor */
	if (s->profile.fault_lock == FAULT_LOCK_SPF)
		line(tb, "speculative_pgfault", ev->speculative_pgfault);
	if (s->profile.fault_lock == FAULT_LOCK_PER_VMA) {
		line(tb, "vma_lock_success", ev->vma_lock_success);
		line(tb, "vma_lock_abort", ev->vma_lock_abort);
		line(tb, "vma_lock_retry", ev->vma_lock_retry);
		line(tb, "vma_lock_miss", ev->vma_lock_miss);
	}
}
