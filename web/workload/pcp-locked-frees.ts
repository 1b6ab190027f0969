/*
 * pcp-locked-frees.ts: the frees of a trace that came while their CPU's pcp lock was held.
 *
 * 6.0+ rmqueue_pcplist holds the CPU's pcp lock (pcp_spin_trylock: the task pinned, then the
 * spin lock, a preempt depth of 2) from before a refill takes blocks off the buddy lists
 * (mm_page_alloc_zone_locked percpu_refill=1, under the zone lock too: depth 3) until after it has
 * taken its page, which mm_page_alloc then traces. An interrupt taken in that window runs its
 * softirq there (RCU callbacks freeing pages, say): the trace prints those frees between the
 * refill and the mm_page_alloc, in interrupt context (`s` or `h` in the flags column) and at the
 * task's depth of 2 or more. free_frozen_pages only trylocks the pcp, which fails for them, so
 * each goes straight to the buddy (free_one_page): no pcp list ever holds them, and the list's
 * alloc_factor and count do not move. An interrupt after the lock was let go prints a lower
 * depth, and its frees reach the pcp as usual. Outside a refill's window the trace does not show
 * whether the lock was held, and the frees are taken as ordinary ones.
 */
import type { TraceRecord } from './ftrace';

/** The flags column's hardirq/softirq character: a free in interrupt context. */
const IN_INTERRUPT = new Set(['s', 'h', 'H', 'z', 'Z']);

/** The preempt depth the flags column prints ('.' for 0, a hex digit else); null if absent. */
function preemptDepth(flags: string | undefined): number | null {
  const c = flags?.[3];
  if (c === undefined) return null;
  if (c === '.') return 0;
  const n = Number.parseInt(c, 16);
  return Number.isNaN(n) ? null : n;
}

/** Tracks, CPU by CPU, whether a refill's pcp lock is held, a record at a time in trace order. */
export class PcpLockWindows {
  private readonly held = new Set<number>(); // CPUs between a refill and their task's mm_page_alloc

  /** Whether r is a free whose pcp trylock failed; call for every record, in order. */
  lockedFree(r: TraceRecord): boolean {
    const irq = IN_INTERRUPT.has(r.flags?.[2] ?? '.');
    if (r.event === 'mm_page_alloc_zone_locked') {
      if (r.fields.get('percpu_refill') === '1') this.held.add(r.cpu);
      return false;
    }
    if (r.event === 'mm_page_alloc') {
      if (!irq) this.held.delete(r.cpu);
      return false;
    }
    if (r.event !== 'mm_page_free' && r.event !== 'mm_page_free_batched') return false;
    return irq && this.held.has(r.cpu) && (preemptDepth(r.flags) ?? 0) >= 2;
  }
}
