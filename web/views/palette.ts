/*
 * palette.ts: colours and names of what the views draw. Migratetypes use the Okabe–Ito palette,
 * which stays distinguishable under the common colour-vision deficiencies; every colour also has a
 * text label (legends, tooltips, the inspector), so nothing is told by colour alone.
 */

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
