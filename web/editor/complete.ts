/*
 * complete.ts: completion for the workload language: what may come next where the cursor is
 * (a statement at the start of a line, an op after `cpu N`, presets and machine keys after
 * `machine`, profiles after `profile`, sysctls after `set`, gfp flags where flags go), each
 * with a short note.
 */
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { GFP_NAMES, showGfpFlags } from '../core/gfp';
import {
  GFP_FLAGS,
  MACHINE_KEYS,
  OP_KEYS,
  OPS,
  PRESET_NAMES,
  PROFILES,
  STATEMENTS,
  SYSCTLS,
} from './vocabulary';

const words = (
  list: readonly string[],
  type: string,
  detail?: (w: string) => string,
): Completion[] =>
  list.map((label) => ({ label, type, ...(detail ? { detail: detail(label) } : {}) }));

const STATEMENT_ITEMS = words(STATEMENTS, 'keyword');
const OP_ITEMS = words(OPS, 'keyword');
const PRESET_ITEMS = words(PRESET_NAMES, 'constant', () => 'machine');
const MACHINE_KEY_ITEMS = MACHINE_KEYS.map((k) => ({ label: `${k}=`, type: 'property' }));
const PROFILE_ITEMS = words(PROFILES, 'constant', () => 'kernel');
const SYSCTL_ITEMS = SYSCTLS.map((k) => ({ label: `${k}=`, type: 'property', detail: 'sysctl' }));
const OP_KEY_ITEMS = OP_KEYS.map((k) => ({ label: `${k}=`, type: 'property' }));
const FLAG_ITEMS = GFP_FLAGS.map((label) => {
  const mask = GFP_NAMES.get(label) ?? 0;
  return {
    label,
    type: 'type',
    detail: `0x${mask.toString(16)}`,
    info: label.startsWith('GFP_') ? showGfpFlags(mask) : undefined,
  };
});

/** Completions for the words before the cursor on its line (exported for tests). */
export function optionsFor(before: string): Completion[] {
  const prev = before.trim().split(/\s+/).filter(Boolean);
  const first = prev[0] ?? '';
  if (prev.length === 0) return [...STATEMENT_ITEMS, ...OP_ITEMS];
  if (/\|$/.test(before) || /\|[\w]*$/.test(before)) return FLAG_ITEMS;
  switch (first) {
    case 'machine':
      return prev.length === 1 ? [...PRESET_ITEMS, ...MACHINE_KEY_ITEMS] : MACHINE_KEY_ITEMS;
    case 'profile':
      return prev.length === 1 ? PROFILE_ITEMS : [];
    case 'set':
      return SYSCTL_ITEMS;
    case 'seed':
    case 'tick':
    case 'repeat':
      return [];
    case 'drain':
      return prev.length === 1 ? [{ label: 'all', type: 'keyword' }] : [];
    case 'cpu':
      if (prev.length === 2) return OP_ITEMS;
      break;
  }
  // Inside an op: its keys and the gfp flags.
  const op = first === 'cpu' ? prev[2] : first;
  if (op === 'alloc' || op === 'random')
    return prev.length >= (first === 'cpu' ? 4 : 2) ? [...OP_KEY_ITEMS, ...FLAG_ITEMS] : [];
  // free NAME * batched
  if (op === 'free' && prev[prev.length - 1] === '*')
    return [{ label: 'batched', type: 'keyword' }];
  // free_folios NAME captured order=K ...: a captured block in the batch
  if (op === 'free_folios' && prev.length >= (first === 'cpu' ? 3 : 1))
    return prev.includes('captured')
      ? [
          { label: 'captured', type: 'keyword' },
          ...OP_KEY_ITEMS.filter((k) => k.label === 'order='),
        ]
      : [{ label: 'captured', type: 'keyword' }];
  if (op === 'free_captured')
    return prev.length >= (first === 'cpu' ? 3 : 1)
      ? OP_KEY_ITEMS.filter((k) => k.label === 'order=')
      : [];
  if (op === 'free_pfn')
    return prev.length >= (first === 'cpu' ? 4 : 2)
      ? OP_KEY_ITEMS.filter((k) => k.label === 'order=')
      : [];
  return [];
}

export function workloadCompletions(context: CompletionContext): CompletionResult | null {
  const word = context.matchBefore(/[A-Za-z0-9_.-]*/);
  if (!word) return null;
  if (word.from === word.to && !context.explicit) return null;
  const line = context.state.doc.lineAt(context.pos);
  const before = line.text.slice(0, word.from - line.from).replace(/#.*$/, '');
  if (line.text.slice(0, word.from - line.from).includes('#')) return null; // in a comment
  const options = optionsFor(before);
  if (options.length === 0) return null;
  return { from: word.from, options, validFor: /^[A-Za-z0-9_.-]*$/ };
}
