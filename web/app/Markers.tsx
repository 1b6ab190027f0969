/*
 * Markers.tsx: the notable events of a run on a strip under the scrubber, binned to pixels so a
 * run with tens of thousands of refills still draws a few hundred marks. Each bin shows the most
 * serious kind it holds (failures over bad pages over claims...), with a label in its tooltip.
 *
 * Keyboard: the strip is a listbox with a roving tabindex: Tab reaches the mark nearest the
 * cursor, arrows (and Home/End) move between marks, Enter or Space goes to the marked event.
 */
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { MARKER_KINDS, MARKER_LABELS, type Marker, type MarkerKind } from '../player/markers';
import type { Player } from '../player/player';

const BINS = 240;
const SEVERITY: MarkerKind[] = ['failure', 'bad-page', 'claim', 'fallback', 'drain', 'refill'];
const COLORS: Record<MarkerKind, string> = {
  refill: '#56B4E9',
  drain: '#0072B2',
  fallback: '#E69F00',
  claim: '#CC79A7',
  failure: '#D55E00',
  'bad-page': '#000000',
};
const ROW: Record<MarkerKind, number> = {
  refill: 0,
  drain: 0,
  fallback: 1,
  claim: 1,
  failure: 2,
  'bad-page': 2,
};

/** The marks to draw from the first `count` markers: per bin, the most serious one, in bin order. */
function binMarks(markers: readonly Marker[], count: number, total: number): [number, Marker][] {
  if (total === 0) return [];
  const bins = new Map<number, Marker>();
  for (let i = 0; i < count; i++) {
    const m = markers[i];
    if (!m) break;
    const b = Math.min(BINS - 1, Math.floor((m.event / total) * BINS));
    const had = bins.get(b);
    if (!had || SEVERITY.indexOf(m.kind) < SEVERITY.indexOf(had.kind)) bins.set(b, m);
  }
  return [...bins.entries()].sort((a, b) => a[0] - b[0]);
}

export function Markers({ player, onSeek }: { player: Player; onSeek: (event: number) => void }) {
  const strip = useRef<SVGSVGElement>(null);
  const [active, setActive] = useState<number | null>(null); // index into the marks, when moved by key
  const total = player.totalEvents;
  const list = player.markers;
  // The run's list only grows (the scan appends, a branch is a new list), so its identity and
  // length say when to bin again: a long run has tens of thousands of marks, and the strip
  // re-renders on every step while playing.
  const count = list.length;
  const marks = useMemo(() => binMarks(list, count, total), [list, count, total]);
  if (marks.length === 0) return <svg className="markers" aria-hidden="true" height={4} />;
  // Without a key press yet, the tab stop is the last mark at or before the cursor.
  const g = player.eventIndex;
  let near = 0;
  marks.forEach(([, m], i) => {
    if (m.event <= g) near = i;
  });
  const current = Math.min(active ?? near, marks.length - 1);
  const label = (m: Marker) => `${MARKER_LABELS[m.kind]} at event ${m.event + 1} (op ${m.op + 1})`;
  const focus = (i: number) => {
    setActive(i);
    strip.current?.querySelectorAll<SVGRectElement>('rect.marker')[i]?.focus();
  };
  const onKey = (e: KeyboardEvent<SVGSVGElement>) => {
    const k = e.key;
    const m = marks[current]?.[1];
    if (k === 'ArrowRight' || k === 'ArrowDown') focus(Math.min(marks.length - 1, current + 1));
    else if (k === 'ArrowLeft' || k === 'ArrowUp') focus(Math.max(0, current - 1));
    else if (k === 'Home') focus(0);
    else if (k === 'End') focus(marks.length - 1);
    else if ((k === 'Enter' || k === ' ') && m) onSeek(m.event);
    else return;
    e.preventDefault();
    e.stopPropagation(); // arrows here move between marks, not the timeline
  };
  return (
    <svg
      ref={strip}
      className="markers"
      viewBox={`0 0 ${BINS} 12`}
      preserveAspectRatio="none"
      height={14}
      width="100%"
      role="listbox"
      aria-label="Marked events: arrows choose, Enter goes there"
      onKeyDown={onKey}
    >
      {marks.map(([b, m], i) => (
        <rect
          key={b}
          x={b}
          y={ROW[m.kind] * 4}
          width={1}
          height={4}
          fill={COLORS[m.kind]}
          className={`marker ${m.kind}`}
          role="option"
          aria-label={label(m)}
          aria-selected={i === current}
          tabIndex={i === current ? 0 : -1}
          onClick={() => {
            setActive(i);
            onSeek(m.event);
          }}
        >
          <title>{label(m)}</title>
        </rect>
      ))}
    </svg>
  );
}

export { MARKER_KINDS };
