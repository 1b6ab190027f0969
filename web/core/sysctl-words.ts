/*
 * sysctl-words.ts: the sysctls whose values are words, not numbers. vm.numa_zonelist_order reads
 * "default", "node" or "zone" (mm/page_alloc.c, __parse_numa_zonelist_order [3.0]: the first
 * letter decides, either case); an OP_SYSCTL carries the index here (0, 1, 2), which is
 * page_alloc/zonelist.h's enum zonelist_order (1 node, 2 zone) with 0 for "the kernel's default".
 * The workload parser, its printer and the narration all read these words from here.
 */
import { PROFILES } from './profiles';
import type { SysctlName } from './generated/sysctls';

export const SYSCTL_WORDS: Partial<Record<SysctlName, readonly string[]>> = {
  numa_zonelist_order: ['default', 'node', 'zone'],
};

/** The value a word means for a word-valued sysctl (first letter, either case, as 3.0 parses). */
export function sysctlWordValue(name: SysctlName, word: string): number | null {
  const words = SYSCTL_WORDS[name];
  if (!words || !word) return null;
  const i = words.findIndex((w) => w[0] === word[0]?.toLowerCase());
  return i < 0 ? null : i;
}

/** How a value of a sysctl is written: its word, or the number. */
export function sysctlValueText(name: SysctlName | undefined, v: number): string {
  const words = name ? SYSCTL_WORDS[name] : undefined;
  return words?.[v] ?? String(v);
}

/**
 * Why a profile refuses a sysctl value, or null when it takes it. 4.14 removed zone ordering
 * ("mm, page_alloc: rip out ZONELIST_ORDER_ZONE"): its __parse_numa_zonelist_order accepts
 * "default" and "node" and ignores them, and fails anything else with EINVAL.
 */
export function sysctlRefusal(profile: string, name: SysctlName, v: number): string | null {
  const row = PROFILES.find((p) => p.name === profile);
  if (!row) return null;
  if (
    name === 'numa_zonelist_order' &&
    v === 2 &&
    row.switches.zonelist_order === 'ZONELIST_ORDER_NODE_ONLY'
  )
    return `profile ${profile} has no zone ordering (4.14 removed it): the kernel refuses numa_zonelist_order=zone with EINVAL; its zonelists are always in node order (use 3.0 to 4.13)`;
  return null;
}
