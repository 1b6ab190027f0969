/*
 * AreaMap.tsx: the area map allocator's int map[] (<= 4.13) of one chunk, entry by entry: the
 * start offset of each area, bit 0 set when it is in use, the sentinel (the unit's end | 1) last,
 * and the spare entries up to map_alloc. first_free is where the next first-fit walk starts.
 *
 * Each entry is keyed by its offset, so when pcpu_alloc_area splits an area (1 or 2 entries
 * inserted) or pcpu_free_area merges (1 or 2 removed), the entries after it slide along by one or
 * two places: that slide is the kernel's memmove of the rest of the array, and the entries that
 * moved are marked. Under reduced motion they jump. Only the first entries are drawn; the count
 * of the rest is said.
 */
import { useState } from 'react';
import { EV } from '../../core/events';
import type { SimEvent } from '../model';
import { eventAttrs, type ViewOptions } from '../options';
import { chunkName, type PercpuView } from './percpu-view';
import './percpu.css';

/** Entries drawn at most, and per row. */
export const ENTRIES_SHOWN = 64;
const PER_ROW = 8;

export interface AreaMapViewProps {
  view: PercpuView;
  event: SimEvent | null;
  options: ViewOptions;
}

/** Offsets (the entries' keys) to their indices. */
function indexOf(map: readonly number[], used: number): Map<number, number> {
  const m = new Map<number, number>();
  for (let i = 0; i <= used && i < map.length; i++) m.set((map[i] ?? 0) & ~1, i);
  return m;
}

export function AreaMapView({ view, event, options }: AreaMapViewProps) {
  const withMap = view.allocator === 'area-map' ? view.chunks : [];
  const eventChunk =
    event && event.kind >= EV.PERCPU_ALLOC_PERCPU && event.kind <= EV.PERCPU_BALANCE
      ? event.pfn
      : null;
  const [pick, setPick] = useState<number | null>(null);
  const [lastEventChunk, setLastEventChunk] = useState(eventChunk);
  if (eventChunk !== null && eventChunk !== lastEventChunk) setLastEventChunk(eventChunk);
  const want = pick ?? lastEventChunk;
  const c =
    withMap.find((x) => x.index === want) ??
    withMap.find((x) => x.kind === 'dynamic') ??
    withMap[0];
  const map = (c ? c.detail().map : null) ?? [];
  const used = c?.mapUsed ?? 0;
  // Only the drawn entries take part: a map of a million areas is read, not compared.
  const sig = `${c?.index}:${map.slice(0, Math.min(used + 1, ENTRIES_SHOWN)).join(',')}`;
  const [hist, setHist] = useState<{
    sig: string;
    prev: Map<number, number> | null;
    cur: Map<number, number>;
  }>({ sig, prev: null, cur: indexOf(map, Math.min(used, ENTRIES_SHOWN)) });
  if (hist.sig !== sig) {
    const sameChunk = hist.sig.split(':')[0] === sig.split(':')[0];
    setHist({
      sig,
      prev: sameChunk ? hist.cur : null,
      cur: indexOf(map, Math.min(used, ENTRIES_SHOWN)),
    });
  }
  if (!c) {
    return (
      <section className="view percpu-area-map" {...eventAttrs(event)}>
        <header className="view-head">
          <h3>Percpu area map</h3>
        </header>
        <p className="muted">
          This kernel uses the bitmap allocator (4.14 and later): there is no map[] to show. Pick
          the 4.13 profile to see it.
        </p>
      </section>
    );
  }
  const shown = Math.min(used + 1, ENTRIES_SHOWN);
  const spare = Math.max(0, Math.min(c.mapAlloc, ENTRIES_SHOWN) - shown);
  const prev = hist.prev;
  let movedCount = 0;
  const entries = map.slice(0, shown).map((e, i) => {
    const off = e & ~1;
    const was = prev?.get(off);
    const moved = prev !== null && was !== undefined && was !== i;
    const fresh = prev !== null && was === undefined;
    if (moved) movedCount++;
    return { off, inUse: (e & 1) === 1, i, moved, fresh, sentinel: i === used };
  });
  const memmove =
    event &&
    (event.kind === EV.PERCPU_AREA_ALLOC || event.kind === EV.PERCPU_AREA_FREE) &&
    event.pfn === c.index
      ? event
      : null;
  const rows = Math.ceil((shown + spare) / PER_ROW);
  return (
    <section className="view percpu-area-map" {...eventAttrs(event)}>
      <header className="view-head">
        <h3>Percpu area map</h3>
        <p className="muted small">
          map[] of {chunkName(c)}. Each box is one int: an area&apos;s start offset, bit 0 set when
          in use. Splitting or merging an area memmoves every entry after it.
        </p>
      </header>
      {withMap.length > 1 && (
        <label className="small">
          Chunk{' '}
          <select value={c.index} onChange={(e) => setPick(Number(e.target.value))}>
            {withMap.map((x) => (
              <option key={x.index} value={x.index}>
                {chunkName(x)}
              </option>
            ))}
          </select>
        </label>
      )}
      <p className="small am-summary" data-map-used={used} data-map-alloc={c.mapAlloc}>
        map_used {used} · map_alloc {c.mapAlloc} · first_free {c.firstFree} · contig_hint{' '}
        {c.contigHint} B · free {c.freeBytes} B
        {memmove && (
          <strong className="am-memmove">
            {' '}
            · {event?.kind === EV.PERCPU_AREA_ALLOC ? 'split' : 'merge'}: memmove of {memmove.b}{' '}
            bytes ({memmove.b / 4} entries)
            {event?.kind === EV.PERCPU_AREA_ALLOC
              ? `, ${memmove.a} entries walked`
              : `, ${memmove.a} binary-search probes`}
          </strong>
        )}
      </p>
      <div
        className={`am-grid${options.reducedMotion ? ' still' : ''}`}
        style={{ height: `${rows * 3.1}rem` }}
      >
        {entries.map((e) => (
          <div
            key={e.sentinel ? 'sentinel' : e.off}
            className={`am-entry${e.inUse ? ' used' : ' free'}${e.sentinel ? ' sentinel' : ''}${e.moved ? ' moved' : ''}${e.fresh ? ' fresh' : ''}${e.i === c.firstFree ? ' first-free' : ''}`}
            style={{
              transform: `translate(${(e.i % PER_ROW) * 100}%, ${Math.floor(e.i / PER_ROW) * 3.1}rem)`,
            }}
            data-index={e.i}
            data-moved={e.moved || undefined}
          >
            <span className="am-index">[{e.i}]</span>
            <span className="am-off">{e.sentinel ? `${e.off}|1` : e.off}</span>
            <span className="am-state">
              {e.sentinel ? 'end' : e.inUse ? 'in use' : 'free'}
              {e.i === c.firstFree ? ' ▼' : ''}
            </span>
          </div>
        ))}
        {[...Array(spare).keys()].map((k) => {
          const i = shown + k;
          return (
            <div
              key={`spare${i}`}
              className="am-entry spare"
              style={{
                transform: `translate(${(i % PER_ROW) * 100}%, ${Math.floor(i / PER_ROW) * 3.1}rem)`,
              }}
              aria-hidden="true"
            >
              <span className="am-index">[{i}]</span>
            </div>
          );
        })}
      </div>
      <p className="small muted">
        {movedCount > 0 ? `${movedCount} entries moved in the last step (marked ⇢). ` : ''}
        {used + 1 > shown ? `${used + 1 - shown} more entries not drawn. ` : ''}▼ first_free: where
        the next first-fit walk starts.
      </p>
    </section>
  );
}
