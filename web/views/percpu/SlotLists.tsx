/*
 * SlotLists.tsx: pcpu_slot[], the lists chunks wait on, from head to tail. An allocation walks
 * the slots from the one its size maps to upwards and, in each, the chunks in list order, so a
 * chunk's slot and place decide who is asked first. Slots sort chunks by free bytes up to 5.0
 * and by their contig hint since 5.1; the last slots are special (free, and from 5.14 sidelined
 * and to_depopulate). Empty slots are folded into one line. A chunk the current event relocated
 * is marked with where it came from, and slides in unless motion is reduced.
 */
import { EV } from '../../core/events';
import type { SimEvent } from '../model';
import { eventAttrs, type ViewOptions } from '../options';
import { chunkName, slotRange, type PercpuView } from './percpu-view';
import './percpu.css';

function slotTitle(v: PercpuView, slot: number): string {
  if (slot === v.freeSlot) return 'free: chunks with nothing allocated';
  if (slot === v.sidelinedSlot) return 'sidelined: depopulated, waiting';
  if (slot === v.toDepopulateSlot) return 'to_depopulate: isolated for reclaim';
  if (slot === 0) return 'no room, or relegated after a failed fit';
  return slotRange(slot);
}

export interface SlotListsViewProps {
  view: PercpuView;
  event: SimEvent | null;
  options: ViewOptions;
}

export function SlotListsView({ view, event, options }: SlotListsViewProps) {
  const moved = event?.kind === EV.PERCPU_RELOCATE ? event : null;
  const lit = event && event.kind >= EV.PERCPU_ALLOC_PERCPU && event.kind <= EV.PERCPU_BALANCE;
  const rows: ({ slot: number; chunks: readonly number[] } | { empty: [number, number] })[] = [];
  view.slots.forEach((chunks, slot) => {
    if (chunks.length > 0) rows.push({ slot, chunks });
    else {
      const last = rows[rows.length - 1];
      if (last && 'empty' in last && last.empty[1] === slot - 1) last.empty[1] = slot;
      else rows.push({ empty: [slot, slot] });
    }
  });
  const byIndex = new Map(view.chunks.map((c) => [c.index, c]));
  return (
    <section className="view percpu-slots" {...eventAttrs(event)}>
      <header className="view-head">
        <h3>Percpu slot lists</h3>
        <p className="muted small">
          pcpu_slot[]: an allocation asks the chunks of its size&apos;s slot and above, head first.
          {view.nrEmptyPopPages >= 0 ? ` Empty populated pages: ${view.nrEmptyPopPages}.` : ''}
        </p>
      </header>
      <ol className="slot-rows">
        {rows.map((r) =>
          'empty' in r ? (
            <li key={`e${r.empty[0]}`} className="slot-row empty muted small">
              {r.empty[0] === r.empty[1]
                ? `slot ${r.empty[0]} empty`
                : `slots ${r.empty[0]}–${r.empty[1]} empty`}
            </li>
          ) : (
            <li key={r.slot} className="slot-row" data-slot={r.slot}>
              <span className="slot-name">
                slot {r.slot}
                <span className="muted small"> {slotTitle(view, r.slot)}</span>
              </span>
              <ol className="slot-chunks" aria-label={`slot ${r.slot}, head first`}>
                {r.chunks.map((ci, i) => {
                  const c = byIndex.get(ci);
                  const here = lit && event?.pfn === ci;
                  const came = moved && moved.pfn === ci ? moved : null;
                  const contig = c?.chunkMd ? c.chunkMd.contigHint * 4 : c?.contigHint;
                  return (
                    <li
                      key={ci}
                      className={`slot-chunk${here ? ' lit' : ''}${came && !options.reducedMotion ? ` arrive-${came.c ? 'head' : 'tail'}` : ''}`}
                      data-chunk={ci}
                      data-highlighted={here || undefined}
                    >
                      <strong>{c ? chunkName(c) : `chunk ${ci}`}</strong>
                      {i === 0 && <span className="badge">head</span>}
                      <span className="small">
                        {' '}
                        free {c?.freeBytes ?? '?'} B · contig {contig ?? '?'} B
                      </span>
                      {came && (
                        <span className="small slot-came">
                          {' '}
                          ← from slot {came.a}, to the {came.c ? 'head' : 'tail'}
                        </span>
                      )}
                    </li>
                  );
                })}
              </ol>
            </li>
          ),
        )}
      </ol>
    </section>
  );
}
