/*
 * mutate.ts: small edits that turn a well-formed text into a near miss, the inputs most likely to
 * reach a parser's corners: a character inserted, deleted or replaced, a line cut short or
 * repeated (rarely a quarter of a million times), a number stretched. Positions are fractions of the text's length, so the edits shrink
 * along with it.
 */
import fc from 'fast-check';

/** Most characters one edit may add. */
const MAX_GROWTH = 3_000_000;

export type Mutation =
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'replace'; at: number; text: string }
  | { kind: 'repeat-line'; at: number; times: number }
  | { kind: 'truncate'; at: number };

/** Characters parsers treat specially, and ones no text should hold. */
export const ODD_STRINGS = [
  '\n',
  '\r\n',
  '\r',
  '\t',
  ' ',
  '#',
  '=',
  ',',
  ':',
  '|',
  '(',
  ')',
  '{',
  '}',
  '-',
  '0x',
  '0',
  '-1',
  '4294967295',
  '4294967296',
  '18446744073709551616',
  '9'.repeat(40),
  '1e309',
  'NaN',
  '\u0000',
  '\u00a0',
  '\ufeff',
  '\u2028',
  '\ud800',
  '\udfff',
  'é',
  '🦀',
  '\\',
  '"',
];

// unbiased: fast-check's bias would put most edits at the very start
const fraction = fc.noBias(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }));
const snippet = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fraction, text: snippet }),
  fc.record({
    kind: fc.constant('delete' as const),
    at: fraction,
    length: fc.integer({ min: 1, max: 8 }),
  }),
  fc.record({ kind: fc.constant('replace' as const), at: fraction, text: snippet }),
  fc.record({
    kind: fc.constant('repeat-line' as const),
    at: fraction,
    times: fc.oneof(
      { weight: 400, arbitrary: fc.integer({ min: 2, max: 50 }) },
      // rarely, far more: recursion or spread over every line overflows the stack near 100k
      { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 250_000 }) },
    ),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fraction }),
);

/** Up to n edits. */
export const mutations = (n = 4) => fc.array(mutationArbitrary, { maxLength: n });

/** text with the edits applied in order. */
export function mutate(text: string, edits: readonly Mutation[]): string {
  let s = text;
  for (const m of edits) {
    const at = Math.floor(m.at * (s.length + 1));
    switch (m.kind) {
      case 'insert':
        s = s.slice(0, at) + m.text + s.slice(at);
        break;
      case 'delete':
        s = s.slice(0, at) + s.slice(at + m.length);
        break;
      case 'replace':
        s = s.slice(0, at) + m.text + s.slice(at + m.text.length);
        break;
      case 'repeat-line': {
        const start = s.lastIndexOf('\n', at - 1) + 1;
        const end = s.indexOf('\n', at);
        const line = s.slice(start, end < 0 ? s.length : end);
        // at most MAX_GROWTH more characters: big enough to reach the limits of recursion and
        // spread, small enough that the 2 s limit measures a hang, not the size (issue 19 #4)
        const times = Math.min(m.times - 1, Math.floor(MAX_GROWTH / (line.length + 1)));
        s = s.slice(0, start) + `${line}\n`.repeat(times) + s.slice(start);
        break;
      }
      case 'truncate':
        s = s.slice(0, at);
        break;
    }
  }
  return s;
}
