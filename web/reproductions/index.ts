/*
 * index.ts: the known reproductions, in the order the page shows them. A new seed is one file
 * beside this one and a line here; the CLI, the page and their tests pick it up.
 */
import { SEED_000 } from './seed-000';
import { SEED_001 } from './seed-001';
import { SEED_002 } from './seed-002';
import { SEED_003 } from './seed-003';
import { SEED_004 } from './seed-004';
import type { Reproduction } from './types';

export const REPRODUCTIONS: readonly Reproduction[] = [
  SEED_000,
  SEED_001,
  SEED_002,
  SEED_003,
  SEED_004,
];

/** The reproduction called name, if there is one. */
export function findReproduction(name: string): Reproduction | undefined {
  return REPRODUCTIONS.find((r) => r.name === name);
}
