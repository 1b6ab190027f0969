/*
 * state.ts: what a share link carries: everything needed to land on the same step of the same
 * simulation. The workload text is the source of truth for the machine preset, the kernel profile,
 * the sysctls (`set` lines) and the seed, so those travel inside it; only a machine that text
 * cannot spell (one read from a real /proc/zoneinfo, with its holes and start pfns) travels beside.
 */
import type { ExplicitMachine, ProfileName } from '../core/machine-config';

export interface SharePosition {
  op: number; // ops applied (0 = as booted)
  event: number; // index of the current event inside that op (-1 = none)
}

export interface ShareViews {
  compare: ProfileName | null; // the profile of the side-by-side comparison, if open
}

export interface ShareState {
  text: string;
  machine: ExplicitMachine | null; // replaces the text's machine line when set
  position: SharePosition;
  views: ShareViews;
}

/** The embed form's extras: play ops [start, end] of the timeline, once or in a loop. */
export interface EmbedOptions {
  start: number | null;
  end: number | null;
  loop: boolean;
}

/** A position-0, no-views state for a text (a scenario, an import). */
export function stateOfText(text: string, machine: ExplicitMachine | null = null): ShareState {
  return { text, machine, position: { op: 0, event: -1 }, views: { compare: null } };
}
