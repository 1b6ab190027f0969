/*
 * FreeAreas.tsx: each zone's free_area[order][migratetype]: how many free blocks of each size the
 * buddy allocator holds, split by migratetype, as /proc/pagetypeinfo counts them. When a zone has
 * few free blocks, the blocks themselves are drawn (one square per block, sized by order), so a
 * split or a merge is seen as a block leaving one row and appearing in another; otherwise each
 * row is a bar of free pages split by migratetype.
 *
 * Motion (useTween.ts, none under reduced motion): a split's upper half drops in from the row
 * above at twice its size, halving as it lands; a merge's block rises from the row below at half
 * its size, doubling; bars ease to their new lengths.
 */
import { scaleLinear } from 'd3-scale';
import { interpolateString } from 'd3';
import { memo, useId } from 'react';
import { useProgress, useTween } from './useTween';
import { buddyOrder } from './highlight';
import { EV } from '../core/events';
import { allZones, type SimEvent, type ZoneState } from './model';
import { eventAttrs, type ViewProps } from './options';
import { MIGRATETYPE_COLORS, MIGRATETYPE_NAMES } from './palette';
import { formatCount } from '../core/count';
import { V } from './Masked';
import { valuePath } from './value-paths';

/** Draw blocks one by one when a zone has at most this many free blocks. */
const MAX_DRAWN_BLOCKS = 96;

/** One bar of a migratetype's free pages, easing to its new length. */
function Bar({
  pct,
  color,
  reducedMotion,
}: {
  pct: number;
  color: string | undefined;
  reducedMotion: boolean;
}) {
  const w = useTween(pct, reducedMotion);
  return <span className="fa-bar" style={{ width: `${w}%`, background: color }} />;
}

/** The block an event puts on a list, and where it comes from: the row above (split) or below (merge). */
function arriving(
  e: SimEvent | null,
): { order: number; mt: number; from: string; key: string } | null {
  if (!e) return null;
  if (e.kind === EV.BUDDY_SPLIT)
    return { order: e.order, mt: e.mt, from: 'translate(0px,-1.1rem) scale(2)', key: `${e.seq}` };
  if (e.kind === EV.BUDDY_MERGE)
    return { order: e.order, mt: e.mt, from: 'translate(0px,1.1rem) scale(0.5)', key: `${e.seq}` };
  return null;
}

interface OrderRowProps {
  k: number; // the order
  lit: boolean;
  nrFree: number;
  count: readonly number[]; // free blocks by migratetype
  drawBlocks: boolean;
  maxPages: number; // the longest row's pages: the bars' full length
  reducedMotion: boolean;
  landing: string | undefined; // the arriving block's transform, on its row only
  landingMt: number;
}

function sameCounts(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * One order's row: its blocks or bars and its count. Memoised on what it draws, so the rows a step
 * left as they were (most of them: a step moves a block between one or two orders) make nothing.
 */
const OrderRow = memo(
  function OrderRow({
    k,
    lit,
    nrFree,
    count,
    drawBlocks,
    maxPages,
    reducedMotion,
    landing,
    landingMt,
  }: OrderRowProps) {
    const size = Math.min(16, 6 + 1.5 * k);
    const pct = scaleLinear().domain([0, maxPages]).range([0, 100]);
    return (
      <tr className={lit ? 'lit' : undefined} data-order={k} data-highlighted={lit || undefined}>
        <th scope="row">order {k}</th>
        <td className="fa-blocks" aria-hidden="true">
          {drawBlocks
            ? count.flatMap((n, mt) =>
                Array.from({ length: n }, (_, j) => (
                  <span
                    key={`${mt}-${j}`}
                    className="fa-block"
                    title={`order-${k} ${MIGRATETYPE_NAMES[mt]} block`}
                    style={{
                      width: size,
                      height: size,
                      background: MIGRATETYPE_COLORS[mt],
                      // the list's newest block is the one the event put there
                      transform: landing && mt === landingMt && j === n - 1 ? landing : undefined,
                    }}
                  />
                )),
              )
            : count.map((n, mt) =>
                n > 0 ? (
                  <Bar
                    key={mt}
                    pct={pct(n * 2 ** k)}
                    color={MIGRATETYPE_COLORS[mt]}
                    reducedMotion={reducedMotion}
                  />
                ) : null,
              )}
        </td>
        <td className="fa-count">
          {nrFree}
          {nrFree > 0 && (
            <span className="muted">
              {' '}
              (
              {count
                .map((n, mt) => (n ? `${MIGRATETYPE_NAMES[mt]} ${n}` : ''))
                .filter(Boolean)
                .join(', ')}
              )
            </span>
          )}
        </td>
      </tr>
    );
  },
  (a, b) =>
    a.k === b.k &&
    a.lit === b.lit &&
    a.nrFree === b.nrFree &&
    a.drawBlocks === b.drawBlocks &&
    a.maxPages === b.maxPages &&
    a.reducedMotion === b.reducedMotion &&
    a.landing === b.landing &&
    a.landingMt === b.landingMt &&
    sameCounts(a.count, b.count),
);

function ZoneFreeArea({
  zone,
  order,
  showNodes,
  event,
  reducedMotion,
}: {
  zone: ZoneState;
  order: number;
  showNodes: boolean;
  event: SimEvent | null;
  reducedMotion: boolean;
}) {
  const move = order >= 0 ? arriving(event) : null;
  const t = useProgress(move?.key ?? '', reducedMotion);
  const landing =
    move && t < 1 ? interpolateString(move.from, 'translate(0px,0rem) scale(1)')(t) : undefined;
  const orders = zone.freeArea;
  const totalBlocks = orders.reduce((s, a) => s + a.nrFree, 0);
  const drawBlocks = totalBlocks <= MAX_DRAWN_BLOCKS;
  const maxPages = Math.max(1, ...orders.map((a, k) => a.nrFree * 2 ** k));
  const name = showNodes ? `Node ${zone.node} ${zone.name}` : zone.name;
  return (
    <table className="free-area">
      <caption>
        {name}:{' '}
        <V
          path={valuePath.zone(zone.name, 'nr_free_pages')}
          value={formatCount(zone.nrFreePages)}
        />{' '}
        free pages in {formatCount(totalBlocks)} blocks
      </caption>
      <thead className="visually-hidden">
        <tr>
          <th scope="col">order</th>
          <th scope="col">free blocks drawn</th>
          <th scope="col">count by migratetype</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((a, k) => (
          <OrderRow
            key={k}
            k={k}
            lit={k === order}
            nrFree={a.nrFree}
            count={a.count}
            drawBlocks={drawBlocks}
            maxPages={maxPages}
            reducedMotion={reducedMotion}
            landing={move && k === move.order ? landing : undefined}
            landingMt={move ? move.mt : -1}
          />
        ))}
      </tbody>
    </table>
  );
}

/** What the current event does to the free lists, in words (under the heading). */
function change(e: SimEvent | null): string {
  if (!e) return '';
  const mt = MIGRATETYPE_NAMES[e.mt] ?? '';
  switch (e.kind) {
    case EV.BUDDY_SPLIT:
      return `Split: the upper half, pfn ${e.pfn}, joins the order-${e.order} ${mt} list; the lower half splits on or is handed out.`;
    case EV.BUDDY_MERGE:
      return `Merge: the block and its free buddy at pfn ${e.a} leave their lists as one order-${e.order} block at pfn ${e.pfn}.`;
    case EV.BUDDY_ENQUEUE:
      return `pfn ${e.pfn} joins the order-${e.order} ${mt} list.`;
    case EV.MM_PAGE_ALLOC_ZONE_LOCKED:
      return `pfn ${e.pfn} leaves the order-${e.order} ${mt} list.`;
    case EV.MM_PAGE_PCPU_DRAIN:
      return `pfn ${e.pfn} comes back from a per-CPU list.`;
    default:
      return '';
  }
}

export function FreeAreas({ state, event, options }: ViewProps) {
  const hid = useId();
  const what = change(event);
  const zones = allZones(state).filter((z) => z.managed > 0);
  return (
    <section className="view free-areas" {...eventAttrs(event)}>
      <header className="view-head">
        <h3 id={hid}>Free areas</h3>
        <p className="muted small">Free blocks per order, by migratetype.</p>
      </header>
      {what && <p className="small change">{what}</p>}
      {zones.map((z) => (
        <ZoneFreeArea
          key={`${z.node}-${z.idx}`}
          zone={z}
          order={buddyOrder(event, z.node, z.idx)}
          showNodes={state.nodes.length > 1}
          event={event}
          reducedMotion={options.reducedMotion}
        />
      ))}
    </section>
  );
}
