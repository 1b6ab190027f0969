/*
 * Zones.tsx: each zone's free pages against its watermarks (min, low, high, promo, and any boost)
 * and the lowmem_reserve it keeps from allocations that could have used a higher zone; its pages on
 * the LRU lists; the node's kswapd state and, while kswapd balances, its progress (priority, what a
 * round aims at, what it scanned and freed) and the per-CPU cap ZONE_RECLAIM_ACTIVE sets. An
 * allocation compares free pages with a mark plus that reserve: this is where a reader sees how close
 * a zone is to making the allocator fall back or wake kswapd, and what kswapd has to reclaim.
 */
import { useId } from 'react';
import { scaleLinear } from 'd3-scale';
import { touchesZone } from './highlight';
import { allZones, type ModelState, type ZoneState } from './model';
import { LRU_NAMES, zoneName } from './names';
import { eventAttrs, type ViewProps } from './options';
import { formatCount } from '../core/count';
import { useMasked, V } from './Masked';
import { valuePath } from './value-paths';

const W = 520;
/** The close-up's scale runs to this much above the highest mark, so the marks spread out. */
const ZOOM_HEADROOM = 1.5;
const ZONE_RECLAIM_ACTIVE = 0x4; // struct zone.flags (base/types.h)

/** The node's kswapd in words: asleep or awake, and while it balances, where it stands. */
function kswapdLine(node: ModelState['nodes'][number]): string {
  const k = node.kswapd;
  const woken = `woken ${node.kswapdWakeups}×`;
  if (!node.kswapdAwake) return `kswapd asleep (${woken})`;
  if (!k.running) return `kswapd awake (${woken})`;
  return `kswapd balancing (${woken}): next round at priority ${k.priority} scans 1/${2 ** k.priority} of each list, aiming at ${formatCount(k.nrToReclaim)} pages (the high marks); last round scanned ${formatCount(k.nrScanned)}, ${formatCount(k.nrReclaimed)} freed so far`;
}

function Zone({ z, state, lit }: { z: ZoneState; state: ModelState; lit: boolean }) {
  const masked = useMasked();
  const path = (field: string) => valuePath.zone(z.name, field);
  const wmPath = (label: string) => path(`_watermark.${label}`);
  const freeHidden = masked(path('nr_free_pages'));
  const wm = z.watermark;
  const top = Math.max(z.managed, 1);
  // Watermarks are small next to a zone's size: a square-root axis keeps them apart from zero.
  const x = scaleLinear()
    .domain([0, Math.sqrt(top)])
    .range([0, W]);
  const at = (v: number) => x(Math.sqrt(Math.max(0, Math.min(top, v))));
  const node = state.nodes[z.node];
  const marks: [string, number][] = [
    ['min', wm.min + z.watermarkBoost],
    ['low', wm.low + z.watermarkBoost],
    ['high', wm.high + z.watermarkBoost],
  ];
  if (wm.promo > wm.high) marks.push(['promo', wm.promo + z.watermarkBoost]);
  const below =
    z.nrFreePages < wm.min + z.watermarkBoost
      ? 'min'
      : z.nrFreePages < wm.low + z.watermarkBoost
        ? 'low'
        : z.nrFreePages < wm.high + z.watermarkBoost
          ? 'high'
          : '';
  const name = state.nodes.length > 1 ? `Node ${z.node} ${z.name}` : z.name;
  const lru = z.nrZoneLru;
  const reclaimActive = (z.flags & ZONE_RECLAIM_ACTIVE) !== 0;
  const reserves = z.lowmemReserve
    .map((r, i) => [i, r] as const)
    .filter(([i, r]) => r > 0 && i > z.idx);
  return (
    <div
      className={`zone${lit ? ' lit' : ''}`}
      data-node={z.node}
      data-zone={z.idx}
      data-highlighted={lit || undefined}
    >
      <h4>
        {name}
        <span className="muted small">
          {' '}
          managed <V path={path('managed')} value={formatCount(z.managed)} /> pages · free{' '}
          <V path={path('nr_free_pages')} value={formatCount(z.nrFreePages)} />
          {freeHidden ? '' : below ? ` · below ${below}` : ' · above high'} · pgalloc_
          {z.name.toLowerCase()} <V path={path('pgalloc')} value={formatCount(z.pgalloc)} />
        </span>
      </h4>
      <svg
        viewBox={`0 0 ${W} 28`}
        width="100%"
        role="img"
        aria-label={`${name}: the whole zone, ${freeHidden ? 'free pages hidden' : `${z.nrFreePages} free pages`} of ${z.managed}`}
      >
        <rect x={0} y={8} width={W} height={12} className="track" />
        {!freeHidden && (
          <rect
            x={0}
            y={8}
            width={at(z.nrFreePages)}
            height={12}
            className={`fill${below === 'min' ? ' danger' : below ? ' warn' : ''}`}
          />
        )}
        {/* The marks sit close together on the whole zone: one band here, spread out below. */}
        <rect
          x={at(marks[0]?.[1] ?? 0)}
          y={4}
          width={Math.max(2, at(marks.at(-1)?.[1] ?? 0) - at(marks[0]?.[1] ?? 0))}
          height={20}
          className="marks-band"
        />
      </svg>
      <WatermarkZoom
        name={name}
        free={z.nrFreePages}
        freeHidden={freeHidden}
        below={below}
        marks={marks.map(([label, v]) => ({ label, v, hidden: masked(wmPath(label)) }))}
        limit={z.managed}
      />
      <p className="small wm-values">
        {marks.map(([label, v], i) => (
          <span key={label} className={`wm-label ${label}`}>
            {i > 0 ? ' · ' : ''}
            {label} <V path={wmPath(label)} value={v} />
          </span>
        ))}
      </p>
      <p className="small muted">
        {z.watermarkBoost > 0 ? `watermark_boost ${z.watermarkBoost} · ` : ''}
        {reserves.length > 0
          ? `lowmem_reserve ${reserves.map(([i, r]) => `${zoneName(i)} ${r}`).join(', ')} · `
          : ''}
        batch <V path={path('pageset_batch')} value={z.pagesetBatch} /> · high_min{' '}
        <V path={path('pageset_high_min')} value={z.pagesetHighMin} /> · high_max{' '}
        <V path={path('pageset_high_max')} value={z.pagesetHighMax} />
        {z.nrReservedHighatomic > 0 ? ` · highatomic reserve ${z.nrReservedHighatomic}` : ''}
      </p>
      <p className="small" data-lru>
        LRU{' '}
        {lru.some((n) => n > 0)
          ? lru
              .map((n, i) => [LRU_NAMES[i] ?? '', n] as const)
              .filter(([, n]) => n > 0)
              .map(([label, n]) => `${label} ${formatCount(n)}`)
              .join(' · ')
          : 'empty (no page cache or anonymous memory in this zone)'}
      </p>
      {node ? (
        <p className="small" data-kswapd>
          {kswapdLine(node)}
          {reclaimActive
            ? ` · per-CPU lists capped at min(batch × 4, high): at most ${z.pagesetBatch * 4} pages kept on free`
            : ''}
        </p>
      ) : null}
    </div>
  );
}

interface Mark {
  label: string;
  v: number;
  hidden: boolean;
}

/**
 * The watermarks close up: a linear axis from 0 to a little above the highest mark, where min,
 * low, high and promo stand apart (on the whole zone they overlap), each tick named below it.
 * Free pages beyond the axis run off its end with an arrow.
 */
function WatermarkZoom({
  name,
  free,
  freeHidden,
  below,
  marks,
  limit,
}: {
  name: string;
  free: number;
  freeHidden: boolean;
  below: string;
  marks: Mark[];
  limit: number;
}) {
  const top = Math.max(
    1,
    Math.min(limit, Math.ceil(Math.max(...marks.map((m) => m.v)) * ZOOM_HEADROOM)),
  );
  const x = scaleLinear().domain([0, top]).range([0, W]).clamp(true);
  const shown = marks.filter((m) => !m.hidden);
  return (
    <div className="wm-zoom">
      <svg
        viewBox={`0 0 ${W} 24`}
        width="100%"
        role="img"
        aria-label={`${name} close to its watermarks, 0 to ${top} pages: ${freeHidden ? 'free pages hidden' : `${free} free`}; ${marks.map((m) => `${m.label} ${m.hidden ? 'hidden' : m.v}`).join(', ')}`}
      >
        <rect x={0} y={6} width={W} height={12} className="track" />
        {!freeHidden && (
          <rect
            x={0}
            y={6}
            width={x(free)}
            height={12}
            className={`fill${below === 'min' ? ' danger' : below ? ' warn' : ''}`}
          />
        )}
        {!freeHidden && free > top && (
          <path d={`M${W - 10},2 L${W},12 L${W - 10},22 Z`} className="runs-off" />
        )}
        {shown.map((m) => (
          <line
            key={m.label}
            x1={x(m.v)}
            x2={x(m.v)}
            y1={0}
            y2={24}
            className={`tick ${m.label}`}
          />
        ))}
      </svg>
      <div className="wm-ticks" aria-hidden="true">
        {shown.map((m, i) => (
          <span
            key={m.label}
            className={`wm-tick ${m.label}${i % 2 ? ' lower' : ''}`}
            style={{ left: `${(100 * x(m.v)) / W}%` }}
          >
            {m.label}
          </span>
        ))}
      </div>
    </div>
  );
}

export function Zones({ state, event }: ViewProps) {
  const hid = useId();
  return (
    <section className="view zones" {...eventAttrs(event)}>
      <header className="view-head">
        <h3 id={hid}>Zones and watermarks</h3>
        <p className="muted small">
          Free pages: the whole zone (square-root axis), then close up against min, low and high.
        </p>
      </header>
      {allZones(state)
        .filter((z) => z.managed > 0)
        .map((z) => (
          <Zone
            key={`${z.node}-${z.idx}`}
            z={z}
            state={state}
            lit={touchesZone(event, z.node, z.idx)}
          />
        ))}
    </section>
  );
}
