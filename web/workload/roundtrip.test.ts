import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileWorkload } from './compiler';
import { parseWorkload } from './parser';
import { printWorkload } from './printer';
import { workloadArbitrary } from './workload-arbitrary';

describe('print and parse', () => {
  it('parse(print(w)) equals w for any workload', () => {
    fc.assert(
      fc.property(workloadArbitrary, (w) => {
        const text = printWorkload(w);
        const r = parseWorkload(text);
        if (!r.ok) throw new Error(`${r.error.line}:${r.error.col}: ${r.error.message}\n${text}`);
        expect(r.workload).toEqual(w);
        // Printing is a fixed point: the canonical form prints as itself.
        expect(printWorkload(r.workload)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('the example of the language doc parses, prints canonically and compiles', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../docs/workload-language.md', import.meta.url), 'utf8');
    const example = doc.split('```')[1] ?? '';
    const r = parseWorkload(example);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const again = parseWorkload(printWorkload(r.workload));
    expect(again.ok && again.workload).toEqual(r.workload);
    expect(compileWorkload(r.workload, { positions: r.positions }).ok).toBe(true);
  });
});

/** Words and marks of the language, to build texts that get far into the parser. */
const PIECES = [
  'cpu',
  '0',
  '1',
  '7',
  '600',
  'alloc',
  'free',
  'a',
  'b',
  '*',
  'drain',
  'all',
  'tick',
  'repeat',
  '{',
  '}',
  '\n',
  '\n',
  ' ',
  '=',
  'order',
  'max_order',
  'free=',
  '|',
  'GFP_KERNEL',
  '__GFP_COMP',
  'machine',
  'tiny',
  'nodes=2',
  'normal=64',
  'profile',
  '6.6',
  'set',
  'lowmem_reserve_ratio=1,2',
  ',',
  'seed',
  '0x10',
  'random',
  '100',
  'free_pfn',
  'offline',
  'online',
  'corrupt',
  '#',
  'x',
  '99999999999',
  '-',
  '\t',
  '\r\n',
  '@',
];

describe('bad input', () => {
  const texts = fc.oneof(
    fc.string({ maxLength: 200, unit: 'binary' }),
    fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((p) => p.join(' ')),
    fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((p) => p.join('')),
  );

  it('never throws, and every error has a 1-based position inside the text', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const r = parseWorkload(text);
        const lines = text.split('\n');
        const check = (e: { line: number; col: number; message: string }) => {
          expect(e.line).toBeGreaterThanOrEqual(1);
          expect(e.col).toBeGreaterThanOrEqual(1);
          expect(e.line).toBeLessThanOrEqual(lines.length);
          expect(e.col).toBeLessThanOrEqual((lines[e.line - 1] ?? '').length + 1);
          expect(e.message.length).toBeGreaterThan(0);
        };
        if (!r.ok) {
          check(r.error);
          return;
        }
        const c = compileWorkload(r.workload, { positions: r.positions });
        if (!c.ok) check(c.error);
      }),
      { numRuns: 3000 },
    );
  });
});
