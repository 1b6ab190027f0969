/*
 * Markers.tsx: the notable events of a run on a strip under the scrubber, binned to pixels so a
 * run with tens of thousands of refills still draws a few hundred marks. Each bin shows the most
 * serious kind it holds (failures over bad pages over claims...), with a label in its tooltip.
 */
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
const ROW: Record<MarkerKind, number> = { refill: 0, drain: 0, fallback: 1, claim: 1, failure: 2, 'bad-page': 2 };

export function Markers({ player, onSeek }: { player: Player; onSeek: (event: number) => void }) {
  const total = player.totalEvents;
  if (total === 0 || player.markers.length === 0) return <svg className="markers" aria-hidden="true" height={4} />;
  const bins = new Map<number, Marker>();
  for (const m of player.markers) {
    const b = Math.min(BINS - 1, Math.floor((m.event / total) * BINS));
    const had = bins.get(b);
    if (!had || SEVERITY.indexOf(m.kind) < SEVERITY.indexOf(had.kind)) bins.set(b, m);
  }
  return (
    <svg className="markers" viewBox={`0 0 ${BINS} 12`} preserveAspectRatio="none" height={14} width="100%" aria-hidden="true">
      {[...bins.entries()].map(([b, m]) => (
        <rect
          key={b}
          x={b}
          y={ROW[m.kind] * 4}
          width={1}
          height={4}
          fill={COLORS[m.kind]}
          className={`marker ${m.kind}`}
          onClick={() => onSeek(m.event)}
        >
          <title>{`${MARKER_LABELS[m.kind]} at event ${m.event + 1} (op ${m.op + 1})`}</title>
        </rect>
      ))}
    </svg>
  );
}

export { MARKER_KINDS };
