/*
 * MapLegend.tsx: the memory map's key: every colour with its words (colour is never the only cue).
 */
import {
  ALLOCATED_COLOR,
  CORRUPT_COLOR,
  MIGRATETYPE_COLORS,
  MIGRATETYPE_NAMES,
  PCP_COLORS,
  type Theme,
} from './palette';

export function MapLegend({ theme }: { theme: Theme }) {
  const items: [string, string][] = [
    ...MIGRATETYPE_NAMES.map((n, i): [string, string] => [
      MIGRATETYPE_COLORS[i] ?? '#999',
      `free, ${n}`,
    ]),
    [PCP_COLORS[0], 'per-CPU list (even CPU)'],
    [PCP_COLORS[1], 'per-CPU list (odd CPU)'],
    [ALLOCATED_COLOR[theme], 'allocated'],
    [CORRUPT_COLOR, 'corrupt'],
  ];
  return (
    <ul className="legend" aria-label="Memory map colours">
      {items.map(([c, label]) => (
        <li key={label}>
          <span className="swatch" style={{ background: c }} aria-hidden="true" />
          {label}
        </li>
      ))}
      <li>
        <span className="swatch stripe" aria-hidden="true" />
        top stripe: the pageblock&apos;s migratetype
      </li>
    </ul>
  );
}
