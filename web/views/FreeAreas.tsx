/*
 * FreeAreas.tsx: each zone's free_area[order][migratetype]: how many free blocks of each size the
 * buddy allocator holds, split by migratetype, as /proc/pagetypeinfo counts them. When a zone has
 * few free blocks, the blocks themselves are drawn (one square each, by pfn), so a split or a
 * merge is seen as a block leaving one row and appearing in another.
 */
import { scaleLinear } from 'd3-scale';
import { buddyOrder } from './highlight';
import { allZones, type ZoneState } from './model';
import { eventAttrs, type ViewProps } from './options';
import { MIGRATETYPE_COLORS, MIGRATETYPE_NAMES } from './palette';

/** Draw blocks one by one when a zone has at most this many free blocks. */
const MAX_DRAWN_BLOCKS = 96;
const ROW = 22;
const LABEL = 92;
const WIDTH = 560;

function ZoneFreeArea({ zone, order, showNodes }: { zone: ZoneState; order: number; showNodes: boolean }) {
  const orders = zone.freeArea;
  const totalBlocks = orders.reduce((s, a) => s + a.nrFree, 0);
  const drawBlocks = totalBlocks <= MAX_DRAWN_BLOCKS;
  const maxPages = Math.max(1, ...orders.map((a, k) => a.nrFree * 2 ** k));
  const x = scaleLinear().domain([0, maxPages]).range([0, WIDTH - LABEL - 150]);
  const name = showNodes ? `Node ${zone.node} ${zone.name}` : zone.name;
  const h = orders.length * ROW + 4;
  return (
    <figure className="zone-free-area">
      <figcaption>
        {name}: {zone.nrFree.toLocaleString('en')} free pages in {totalBlocks.toLocaleString('en')} blocks
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${h}`} width="100%" role="img" aria-label={`free_area of ${name}, by order and migratetype`}>
        {orders.map((a, k) => {
          const y = k * ROW + 2;
          const lit = k === order;
          let cx = LABEL;
          return (
            <g key={k} className={lit ? 'row lit' : 'row'} data-order={k} data-highlighted={lit || undefined}>
              {lit && <rect className="row-bg" x={0} y={y - 1} width={WIDTH} height={ROW} rx={3} />}
              <text x={4} y={y + 14} className="axis-label">
                order {k}
              </text>
              {drawBlocks
                ? a.count.flatMap((n, mt) =>
                    Array.from({ length: n }, (_, j) => {
                      const w = Math.max(6, Math.min(16, 4 + 2 * k));
                      const r = (
                        <rect
                          key={`${mt}-${j}`}
                          className="block"
                          x={cx}
                          y={y + (ROW - 4 - w) / 2 + 1}
                          width={w}
                          height={w}
                          fill={MIGRATETYPE_COLORS[mt]}
                        >
                          <title>{`order-${k} ${MIGRATETYPE_NAMES[mt]} block`}</title>
                        </rect>
                      );
                      cx += w + 2;
                      return r;
                    }),
                  )
                : a.count.map((n, mt) => {
                    const w = x(n * 2 ** k);
                    const r = <rect key={mt} className="bar" x={cx} y={y + 3} width={w} height={ROW - 8} fill={MIGRATETYPE_COLORS[mt]} />;
                    cx += w;
                    return r;
                  })}
              <text x={WIDTH - 4} y={y + 14} textAnchor="end" className="count">
                {a.nrFree} {a.nrFree === 1 ? 'block' : 'blocks'}
                {a.nrFree > 0 ? ` · ${a.count.map((n, mt) => (n ? `${MIGRATETYPE_NAMES[mt]?.[0]}${n}` : '')).filter(Boolean).join(' ')}` : ''}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

export function FreeAreas({ state, event }: ViewProps) {
  const zones = allZones(state).filter((z) => z.managed > 0);
  return (
    <section className="view free-areas" aria-labelledby="fa-h" {...eventAttrs(event)}>
      <header className="view-head">
        <h3 id="fa-h">Free areas</h3>
        <p className="muted small">
          Letters: U Unmovable, M Movable, R Reclaimable, H HighAtomic, I Isolate.
        </p>
      </header>
      {zones.map((z) => (
        <ZoneFreeArea key={`${z.node}-${z.idx}`} zone={z} order={buddyOrder(event, z.node, z.idx)} showNodes={state.nodes.length > 1} />
      ))}
    </section>
  );
}
