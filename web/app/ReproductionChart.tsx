/*
 * ReproductionChart.tsx: one reproduction's figures as bars, a panel per metric and a bar per
 * profile, the source's figure drawn as a dashed mark with its number beside the model's. D3
 * does the scales; React draws the SVG. The table beside it holds the same numbers and is the
 * primary form: the chart is one image with a text alternative that reads them out.
 */
import { scaleBand, scaleLinear } from 'd3-scale';
import { useId } from 'react';
import { formatCount } from '../core/count';
import type { ReproductionResult, ReproductionRow } from '../reproductions/types';

const W = 560; // viewBox width
const LABEL = 96; // profile names on the left
const VALUE = 185; // room on the right for "30,925.02 · source 4,960" (seed-002)
const BAND = 24; // height of one profile's bar
const HEAD = 22; // a panel's title line
const GAP = 14; // between panels

function panelHeight(row: ReproductionRow): number {
  return HEAD + BAND * Object.keys(row.model).length;
}

/** "5.13 384, 2016-v5 95 (source 9)": a panel's figures in words. */
function spoken(row: ReproductionRow): string {
  const figures = Object.entries(row.model).map(([p, v]) => {
    const seed = row.seed[p];
    return `${p} ${formatCount(v)}${seed === undefined ? '' : ` (source ${formatCount(seed)})`}`;
  });
  return `${row.metric} in ${row.unit}: ${figures.join(', ')}`;
}

function Panel({ row, top }: { row: ReproductionRow; top: number }) {
  const profiles = Object.keys(row.model);
  const values = [...Object.values(row.model), ...Object.values(row.seed)];
  const x = scaleLinear()
    .domain([0, Math.max(1, ...values)])
    .range([LABEL, W - VALUE]);
  const y = scaleBand<string>()
    .domain(profiles)
    .range([top + HEAD, top + HEAD + BAND * profiles.length])
    .paddingInner(0.25);
  return (
    <g className="repro-panel">
      <text className="repro-panel-title" x={0} y={top + HEAD - 7}>
        {row.metric} ({row.unit})
      </text>
      {profiles.map((p) => {
        const model = row.model[p] ?? 0;
        const seed = row.seed[p];
        const yTop = y(p) ?? 0;
        const h = y.bandwidth();
        const end = Math.max(x(model), x(Math.max(model, seed ?? 0)));
        return (
          <g key={p}>
            <text className="repro-profile" x={LABEL - 6} y={yTop + h / 2} dy="0.35em">
              {p}
            </text>
            <rect
              className="repro-bar"
              x={LABEL}
              y={yTop}
              width={Math.max(1, x(model) - LABEL)}
              height={h}
            />
            {seed !== undefined && (
              <line
                className="repro-seed"
                x1={x(seed)}
                x2={x(seed)}
                y1={yTop - 3}
                y2={yTop + h + 3}
              />
            )}
            <text className="repro-value" x={end + 6} y={yTop + h / 2} dy="0.35em">
              {formatCount(model)}
              {seed === undefined ? '' : ` · source ${formatCount(seed)}`}
            </text>
          </g>
        );
      })}
    </g>
  );
}

export function ReproductionChart({ result }: { result: ReproductionResult }) {
  const titleId = useId();
  const descId = useId();
  const tops: number[] = [];
  let height = 0;
  for (const row of result.rows) {
    tops.push(height);
    height += panelHeight(row) + GAP;
  }
  return (
    <svg
      className="repro-chart"
      viewBox={`0 0 ${W} ${Math.max(height - GAP, 1)}`}
      role="img"
      aria-labelledby={titleId}
      aria-describedby={descId}
    >
      <title
        id={titleId}
      >{`Bar chart of ${result.seed}: the model's figure per profile, the source's as a dashed mark`}</title>
      <desc id={descId}>{result.rows.map(spoken).join('. ')}</desc>
      {result.rows.map((row, i) => (
        <Panel key={row.metric} row={row} top={tops[i] ?? 0} />
      ))}
    </svg>
  );
}
