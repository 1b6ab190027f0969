/*
 * PcpLists.tsx: the per-CPU page lists of every CPU and zone: how many pages each holds against
 * its high (drain above it) and batch (the refill and drain chunk), the refill scale alloc_factor,
 * and which lists (order, migratetype) hold blocks. The pcp the current event is about is lit.
 *
 * Motion: the bar eases to its new count, and a refill or drain shows its blocks flying between
 * the bar's end and the buddy side on the right (useTween.ts; none under reduced motion). Each
 * panel is memoised on its numbers, so a step redraws the one or two panels it touched: the
 * server2 machine has 64 CPUs' worth of them.
 */
import { memo, useId } from 'react';
import { scaleLinear } from 'd3-scale';
import { EV } from '../core/events';
import { touchesPcp } from './highlight';
import { findZone, type PcpState, type SimEvent } from './model';
import { pindexLabel } from './names';
import { eventAttrs, type ViewProps } from './options';
import { MIGRATETYPE_COLORS } from './palette';
import { pindexList } from './names';
import { useProgress, useTween } from './useTween';
import { useMasked, V } from './Masked';
import { valuePath } from './value-paths';

const W = 200;
/** Blocks drawn in flight at most (a refill of 63 shows 6; the text says how many). */
const FLIGHT = 6;

function motion(kind: number | undefined): string {
  if (kind === EV.PCP_REFILL || kind === EV.MM_PAGE_ALLOC_ZONE_LOCKED) return 'refill';
  if (kind === EV.PCP_BULK_FREE || kind === EV.DRAIN || kind === EV.MM_PAGE_PCPU_DRAIN)
    return 'drain';
  return '';
}

/** What the current event moves between this pcp and the buddy, in words (shown on the lit pcp). */
function movement(e: SimEvent | null): string {
  if (!e) return '';
  switch (e.kind) {
    case EV.PCP_REFILL:
      return `← ${e.b} ${e.b === 1 ? 'block' : 'blocks'} from the buddy lists`;
    case EV.PCP_BULK_FREE:
      return `→ ${e.a} pages back to the buddy lists`;
    case EV.DRAIN:
      return `→ ${e.a} pages drained to the buddy lists`;
    case EV.MM_PAGE_PCPU_DRAIN:
      return `→ pfn ${e.pfn} (order ${e.order}) back to the buddy`;
    case EV.PCP_HIT:
      return `→ pfn ${e.pfn} handed out`;
    case EV.PCP_FREE:
      return `← pfn ${e.pfn} freed here`;
    case EV.PCP_HIGH:
      return `high ${e.a} → ${e.b}`;
    default:
      return '';
  }
}

interface PcpProps {
  p: PcpState;
  zoneName: string; // the zone's own name, for value paths
  profileId: number;
  lit: boolean;
  anim: string;
  zoneLabel: string;
  event: SimEvent | null;
  reducedMotion: boolean;
}

/** Blocks a refill brings (b) or pages a drain returns (a), for the flight; 0 for other events. */
function flying(e: SimEvent | null, anim: string): number {
  if (!e || !anim) return 0;
  if (e.kind === EV.PCP_REFILL) return e.b;
  if (e.kind === EV.PCP_BULK_FREE || e.kind === EV.DRAIN) return e.a;
  if (e.kind === EV.MM_PAGE_ALLOC_ZONE_LOCKED || e.kind === EV.MM_PAGE_PCPU_DRAIN) return 1;
  return 0;
}

function Pcp({ p, zoneName, profileId, lit, anim, zoneLabel, event, reducedMotion }: PcpProps) {
  const masked = useMasked();
  const path = (field: string) => valuePath.pcp(p.cpu, zoneName, field);
  const v = (field: string, value: number) => <V path={path(field)} value={value} />;
  // A hidden count or high hides the bar's end and the high tick too.
  const countHidden = masked(path('count'));
  const highHidden = masked(path('high')) || masked(path('high_min')) || masked(path('high_max'));
  const moved = lit && !countHidden ? movement(event) : '';
  const top = Math.max(p.highMax, p.high, p.count, p.batch, 1);
  const x = scaleLinear().domain([0, top]).range([0, W]);
  const fill = useTween(x(p.count), reducedMotion);
  const n = lit ? Math.min(FLIGHT, flying(event, anim)) : 0;
  const t = useProgress(n > 0 && event ? `${event.seq}` : '', reducedMotion);
  // Refill: from the buddy side (right) into the bar's end; drain: from the bar's end out.
  const [from, to] = anim === 'refill' ? [W, x(p.count)] : [x(p.count), W];
  const flight =
    n > 0 && t < 1
      ? Array.from(
          { length: n },
          (_, i) => from + (to - from) * Math.min(1, Math.max(0, t * 1.4 - i * 0.08)),
        )
      : [];
  const lists = p.nrBlocks.map((n, i) => ({ n, i })).filter((l) => l.n > 0);
  return (
    <div
      className={`pcp${lit ? ' lit' : ''}${lit && anim ? ` ${anim}` : ''}`}
      data-cpu={p.cpu}
      data-zone={p.zone}
      data-highlighted={lit || undefined}
    >
      <div className="pcp-title">
        {zoneLabel}: <strong>{v('count', p.count)}</strong> {p.count === 1 ? 'page' : 'pages'}
        {p.high > 0 || highHidden ? <> / high {v('high', p.high)}</> : ' (not used yet)'}
      </div>
      <svg viewBox={`0 0 ${W} 18`} width={W} height={18} aria-hidden="true">
        <rect x={0} y={3} width={W} height={12} className="track" />
        {p.highMax > p.highMin && !highHidden && (
          <rect
            x={x(p.highMin)}
            y={3}
            width={x(p.highMax) - x(p.highMin)}
            height={12}
            className="range"
          />
        )}
        {!countHidden && <rect x={0} y={3} width={fill} height={12} className="fill" />}
        {flight.map((fx, i) => (
          <rect
            key={i}
            x={fx - 4}
            y={5}
            width={8}
            height={8}
            className="flying"
            opacity={anim === 'refill' ? t : 1 - t}
          />
        ))}
        <line x1={x(p.batch)} x2={x(p.batch)} y1={0} y2={18} className="tick batch" />
        {p.high > 0 && !highHidden && (
          <line x1={x(p.high)} x2={x(p.high)} y1={0} y2={18} className="tick high" />
        )}
      </svg>
      {moved && <div className="pcp-move small">{moved}</div>}
      <div className="pcp-meta small">
        batch {v('batch', p.batch)}
        {p.highMax > 0 && (
          <>
            {' '}
            · high_min {v('high_min', p.highMin)} · high_max {v('high_max', p.highMax)}
          </>
        )}{' '}
        · alloc_factor {p.allocFactor}
        {p.freeFactor ? ` · free_factor ${p.freeFactor}` : ''}
      </div>
      {lists.length > 0 && (
        <ul className="pcp-lists small">
          {lists.map(({ n, i }) => {
            const l = pindexList(profileId, i);
            return (
              <li key={i}>
                <span
                  className="swatch"
                  style={{ background: l.mt >= 0 ? MIGRATETYPE_COLORS[l.mt] : '#999' }}
                  aria-hidden="true"
                />
                {pindexLabel(profileId, i)}: {n}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function samePcp(a: PcpState, b: PcpState): boolean {
  return (
    a.count === b.count &&
    a.high === b.high &&
    a.highMin === b.highMin &&
    a.highMax === b.highMax &&
    a.batch === b.batch &&
    a.allocFactor === b.allocFactor &&
    a.freeFactor === b.freeFactor &&
    a.nrBlocks.length === b.nrBlocks.length &&
    a.nrBlocks.every((n, i) => n === b.nrBlocks[i])
  );
}

/** A panel draws again only when its numbers, its light or (when lit) the event changed. */
const MemoPcp = memo(
  Pcp,
  (a, b) =>
    a.lit === b.lit &&
    a.anim === b.anim &&
    a.zoneLabel === b.zoneLabel &&
    a.profileId === b.profileId &&
    a.reducedMotion === b.reducedMotion &&
    (!a.lit || a.event === b.event) &&
    samePcp(a.p, b.p),
);

/** A pcp nobody has used: no pages and no high yet (and the event is not about it). */
function unused(p: PcpState, event: SimEvent | null): boolean {
  return p.count === 0 && p.high === 0 && !touchesPcp(event, p.cpu, p.node, p.zone);
}

/** CPU ids as ranges: [2,3,4,7] -> "2–4, 7". */
function ranges(ids: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ids.length;) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === (ids[j] ?? 0) + 1) j++;
    out.push(j > i ? `${ids[i]}–${ids[j]}` : `${ids[i]}`);
    i = j + 1;
  }
  return out.join(', ');
}

export function PcpLists({ state, event, options }: ViewProps) {
  const hid = useId();
  const anim = motion(event?.kind);
  // A CPU none of whose lists has been used gets no panel of its own: on a 64-CPU machine the
  // view would be mostly empty panels. They are named in one line instead, and so are the
  // unused zones of a CPU that is drawn.
  const pcpsOf = (cpu: number) => state.pcps.filter((p) => p.cpu === cpu);
  const idle = state.cpus.filter((c) => c.online && pcpsOf(c.id).every((p) => unused(p, event)));
  const idleIds = new Set(idle.map((c) => c.id));
  const zoneLabel = (p: PcpState) => {
    const z = findZone(state, p.node, p.zone);
    return state.nodes.length > 1 ? `node ${p.node} ${z?.name ?? ''}` : (z?.name ?? '');
  };
  return (
    <section className="view pcp-lists" {...eventAttrs(event)}>
      <header className="view-head">
        <h3 id={hid}>Per-CPU lists</h3>
        <p className="muted small">
          Bar: pages on the lists; dark tick batch, bright tick high; shaded band high_min–high_max.
        </p>
      </header>
      <div className="pcp-grid">
        {state.cpus
          .filter((c) => !idleIds.has(c.id))
          .map((c) => {
            const mine = pcpsOf(c.id);
            const spare = mine.filter((p) => unused(p, event));
            return (
              <div key={c.id} className={`cpu${c.online ? '' : ' offline'}`} data-cpu={c.id}>
                <h4>
                  CPU {c.id}
                  {state.nodes.length > 1 ? ` (node ${c.node})` : ''}
                  {!c.online && <span className="badge">offline</span>}
                </h4>
                {mine
                  .filter((p) => !unused(p, event))
                  .map((p) => {
                    const lit = touchesPcp(event, p.cpu, p.node, p.zone);
                    return (
                      <MemoPcp
                        key={`${p.node}-${p.zone}`}
                        reducedMotion={options.reducedMotion}
                        p={p}
                        profileId={state.profileId}
                        lit={lit}
                        anim={lit ? anim : ''} // an unlit panel does not animate: no redraw for it
                        zoneLabel={zoneLabel(p)}
                        zoneName={findZone(state, p.node, p.zone)?.name ?? ''}
                        event={event}
                      />
                    );
                  })}
                {spare.length > 0 && (
                  <p className="pcp-unused small muted">
                    {spare.length === mine.length
                      ? 'Lists not used yet.'
                      : `${spare.map(zoneLabel).join(', ')}: not used yet.`}
                  </p>
                )}
              </div>
            );
          })}
      </div>
      {idle.length > 0 && (
        <p className="pcp-idle small" data-idle-cpus={idle.length}>
          {idle.length === 1 ? 'CPU' : 'CPUs'} {ranges(idle.map((c) => c.id))}: per-CPU lists not
          used yet (empty, no high set).
        </p>
      )}
    </section>
  );
}
