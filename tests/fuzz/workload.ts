/*
 * workload.ts: the workload fuzzer. Valid workloads printed and then edited, lines of the
 * language's own words in random order, and arbitrary text go through the parser and, when it
 * accepts them, the compiler; both must refuse with a line and column inside the text.
 */
import fc from 'fast-check';
import { GFP_NAMES } from '../../web/core/gfp';
import { PRESETS, PROFILE_NAMES } from '../../web/core/machine-config';
import { SYSCTL_NAMES } from '../../web/workload/ast';
import { STATEMENTS } from '../../web/editor/vocabulary';
import { compileWorkload } from '../../web/workload/compiler';
import { MACHINE_KEYS, OP_WORDS, parseWorkload } from '../../web/workload/parser';
import { printWorkload } from '../../web/workload/printer';
import { workloadArbitrary } from '../../web/workload/workload-arbitrary';
import type { FuzzTarget, Rejection } from './harness';
import { mutate, mutations, ODD_STRINGS } from './mutate';

const WORDS = [
  ...OP_WORDS,
  ...STATEMENTS,
  'all',
  '*',
  '{',
  '}',
  ...Object.keys(PRESETS),
  ...PROFILE_NAMES,
  ...GFP_NAMES.keys(),
  ...MACHINE_KEYS.map((k) => `${k}=`),
  ...SYSCTL_NAMES.map((k) => `${k}=`),
  'order=',
  'max_order=',
  'free=',
];

const number = fc.oneof(
  fc.integer({ min: 0, max: 600 }).map(String),
  fc.constantFrom('0x10', '0xffffffff', '4294967296', '2147483648', '-1', '1e3', '99999999999999'),
);
const token = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 3, arbitrary: number },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...WORDS), number).map(([w, n]) => w + n) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_STRINGS) },
);
const soupLine = fc
  .tuple(fc.constantFrom('', '  ', '\t'), fc.array(token, { maxLength: 8 }))
  .map(([indent, words]) => indent + words.join(' '));

/** Workload texts: mostly near misses of valid ones. */
export const workloadText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(workloadArbitrary, mutations())
      .map(([w, m]) => mutate(printWorkload(w), m)),
  },
  { weight: 3, arbitrary: fc.array(soupLine, { maxLength: 12 }).map((lines) => lines.join('\n')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
);

export const workloadTarget: FuzzTarget<string> = {
  kind: 'workload',
  what: 'workload text through the parser and the compiler',
  arbitrary: workloadText,
  run(text): Rejection | null {
    const parsed = parseWorkload(text);
    if (!parsed.ok) return { ...parsed.error, reason: parsed.error.message, text };
    const compiled = compileWorkload(parsed.workload, { positions: parsed.positions });
    if (!compiled.ok) return { ...compiled.error, reason: compiled.error.message, text };
    return null;
  },
};
