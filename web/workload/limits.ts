/*
 * limits.ts: how big a workload may get (docs/workload-language.md, "Limits"). They keep a tab
 * responsive and every loop of the compiler bounded, whatever the text says.
 */
import { formatCount } from '../core/count';
import { MAX_FRAMES } from '../core/machine-config';

/** Ops after `repeat` is expanded. */
export const MAX_OPS = 2_000_000;
/** Live blocks over all handle groups (the core's handle table). */
export const MAX_LIVE_BLOCKS = 1_000_000;
/** Managed pages of a machine (the core's MAX_FRAMES). */
export const MAX_MANAGED_PAGES = MAX_FRAMES;
/** How deep `repeat` may nest. */
export const MAX_REPEAT_DEPTH = 32;
/** vmstat intervals one `tick` may pass. */
export const MAX_TICKS = 1_000_000;
/** Length of a handle group name. */
export const MAX_NAME_LENGTH = 64;
/** Characters of workload text (a 2M-op workload written out flat would not fit; use `repeat`). */
export const MAX_SOURCE_CHARS = 16 * 1024 * 1024;

/** Why a text of this length cannot be a workload, or null: the first check of every workload. */
export function sourceTooLong(length: number): string | null {
  if (length <= MAX_SOURCE_CHARS) return null;
  return `the workload is ${formatCount(length)} characters long: above the limit of ${formatCount(MAX_SOURCE_CHARS)}`;
}
