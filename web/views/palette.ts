/*
 * palette.ts: colours and names of what the views draw. Migratetypes use the Okabe–Ito palette,
 * which stays distinguishable under the common colour-vision deficiencies; every colour also has a
 * text label (legends, tooltips, the inspector), so nothing is told by colour alone.
 */

import type { LaneKey } from '../core/generated/lanes';
import { MIGRATETYPE_NAMES } from '../core/state';

export { MIGRATETYPE_NAMES };

/** Okabe–Ito: vermillion, bluish green, orange, reddish purple, grey. */
export const MIGRATETYPE_COLORS = ['#D55E00', '#009E73', '#E69F00', '#CC79A7', '#999999'] as const;

export function migratetypeName(mt: number): string {
  return MIGRATETYPE_NAMES[mt] ?? `type ${mt}`;
}

export function migratetypeColor(mt: number): string {
  return MIGRATETYPE_COLORS[mt] ?? '#999999';
}

/** Frames on a per-CPU list: Okabe–Ito sky blue, two shades alternating by CPU. */
export const PCP_COLORS = ['#56B4E9', '#2F8FC7'] as const;
/** Allocated frames: a neutral that reads as "taken" on both themes. */
export const ALLOCATED_COLOR = { light: '#4B5563', dark: '#9CA3AF' } as const;
/** Corrupt (leaked by the refill check): Okabe–Ito yellow, drawn with a dark mark. */
export const CORRUPT_COLOR = '#F0E442';
/** The current event's outline. */
export const HIGHLIGHT = { light: '#000000', dark: '#FFFFFF' } as const;

export type Theme = 'light' | 'dark';

/** "#rrggbb" to [r, g, b]. */
export function rgb(hex: string): [number, number, number] {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/**
 * The CPU-lanes view's states (fault/lane_states.def), Okabe–Ito: faults in the blues and green
 * by path, waits in vermillion and orange and striped (so a wait reads as one without its colour),
 * an attempt that fell back yellow, a wasted page yellow-and-black hazard stripes, an
 * address-space change reddish purple; user work a quiet neutral per theme.
 */
export const LANE_COLORS: Readonly<
  Record<LaneKey, { light: string; dark: string; pattern?: 'stripes' | 'hazard' }>
> = {
  NONE: { light: 'transparent', dark: 'transparent' },
  USER: { light: '#C8CDD4', dark: '#4B5563' },
  FAULT_MMAP: { light: '#0072B2', dark: '#3A9BDC' },
  FAULT_SPF: { light: '#56B4E9', dark: '#56B4E9' },
  FAULT_VMA: { light: '#009E73', dark: '#009E73' },
  WAIT_MMAP_READ: { light: '#D55E00', dark: '#E8741F', pattern: 'stripes' },
  WAIT_MMAP_WRITE: { light: '#CC79A7', dark: '#CC79A7', pattern: 'stripes' },
  WAIT_VMA: { light: '#E69F00', dark: '#E69F00', pattern: 'stripes' },
  RETRY: { light: '#F0E442', dark: '#F0E442' },
  WASTED: { light: '#F0E442', dark: '#F0E442', pattern: 'hazard' },
  MM_WRITE: { light: '#8E4A72', dark: '#A8628E' },
};

/** The CSS background of a lane state on theme. */
export function laneBackground(key: LaneKey, theme: Theme): string {
  const c = LANE_COLORS[key];
  const base = c[theme];
  if (c.pattern === 'hazard')
    return `repeating-linear-gradient(45deg, ${base} 0 3px, #000000 3px 6px)`;
  if (c.pattern === 'stripes') {
    const gap = theme === 'dark' ? 'rgba(0, 0, 0, 0.55)' : 'rgba(255, 255, 255, 0.6)';
    return `repeating-linear-gradient(135deg, ${base} 0 4px, ${gap} 4px 6px)`;
  }
  return base;
}
