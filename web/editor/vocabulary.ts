/*
 * vocabulary.ts: the words of the workload language, by role, from the modules that define them
 * (the machines and sysctls generated from the core's machine.def and sysctls.def, the profiles,
 * web/core/gfp.ts's flags, the parser's op words), so the highlighter and the completion never
 * drift from what the parser and the core accept.
 */
import { GFP_BITS, GFP_COMPOSITES } from '../core/gfp';
import { PRESETS, PROFILE_NAMES } from '../core/machine-config';
import { SYSCTL_NAMES } from '../workload/ast';
import { PERCPU_FREE_ORDERS } from '../workload/ast';
import { MACHINE_KEYS, OP_WORDS, PERCPU_WORDS } from '../workload/parser';

/** Words that begin a statement (docs/workload-language.md, "Statements"). */
export const STATEMENTS = [
  'machine',
  'profile',
  'set',
  'seed',
  'cpu',
  'tick',
  'repeat',
  'drain',
  'percpu',
] as const;
/** Words after `cpu N`. */
export const OPS = OP_WORDS;
/** Other bare words: `drain all`, `percpu alloc|free|balance`, percpu flags and free orders, `mmap ... file`, `touch ... read|write`. */
export const OTHER_WORDS = [
  'all',
  ...PERCPU_WORDS,
  'reserved',
  'atomic',
  ...PERCPU_FREE_ORDERS,
  'file',
  'read',
  'write',
] as const;
export const PRESET_NAMES = Object.keys(PRESETS);
export const PROFILES: readonly string[] = PROFILE_NAMES;
export const SYSCTLS: readonly string[] = SYSCTL_NAMES;
export { MACHINE_KEYS };
/** `key=` words of ops. */
export const OP_KEYS = [
  'order',
  'max_order',
  'free',
  'size',
  'align',
  'mm',
  'at',
  'pages',
  'prot',
] as const;
/** Composite masks first: they are what people usually mean. */
export const GFP_FLAGS: readonly string[] = [
  ...Object.keys(GFP_COMPOSITES),
  ...Object.keys(GFP_BITS),
];

const KEYWORDS = new Set<string>([...STATEMENTS, ...OPS, ...OTHER_WORDS]);
const ATOMS = new Set<string>([...PRESET_NAMES, ...PROFILES]);
const KEYS = new Set<string>([...SYSCTLS, ...MACHINE_KEYS, ...OP_KEYS]);
const FLAGS = new Set<string>(GFP_FLAGS);

export type WordRole = 'keyword' | 'atom' | 'key' | 'flag' | 'number' | 'name';

/** What a word is, for highlighting (the parser decides what it means in its place). */
export function roleOf(word: string): WordRole {
  if (/^(0x[0-9a-fA-F]+|\d+)$/.test(word)) return 'number';
  if (FLAGS.has(word)) return 'flag';
  if (KEYWORDS.has(word)) return 'keyword';
  if (ATOMS.has(word)) return 'atom';
  if (KEYS.has(word)) return 'key';
  return 'name';
}
