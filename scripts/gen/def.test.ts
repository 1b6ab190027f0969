// The .def reader that every vocabulary generator uses.
import { describe, expect, it } from 'vitest';
import { parseDef, readRows } from './def.mjs';

describe('parseDef', () => {
  it('reads identifiers, numbers and joined strings across lines, skipping comments', () => {
    const text = `/* a comment (with parens) */
EV(MM_PAGE_ALLOC, 1, "mm_page_alloc: " // trailing
   "pfn, order", -0x10)
OTHER(x)
EV(B, 2u, "", y)`;
    expect(parseDef(text, 'EV')).toEqual([
      {
        line: 2,
        args: [
          { kind: 'ident', value: 'MM_PAGE_ALLOC' },
          { kind: 'number', value: 1 },
          { kind: 'string', value: 'mm_page_alloc: pfn, order' },
          { kind: 'number', value: -16 },
        ],
      },
      {
        line: 5,
        args: [
          { kind: 'ident', value: 'B' },
          { kind: 'number', value: 2 },
          { kind: 'string', value: '' },
          { kind: 'ident', value: 'y' },
        ],
      },
    ]);
  });

  it('says where a row is malformed', () => {
    expect(() => parseDef('EV(A, 1)\nEV(B, 2 3)', 'EV', 'x.def')).toThrow(
      /^x\.def:2:7: expected an identifier, a number or a string, got 2 3$/,
    );
    expect(() => parseDef('EV(A, "b"', 'EV', 'x.def')).toThrow(/x\.def:1:1: EV\( is never closed/);
    expect(() => parseDef('junk', 'EV', 'x.def')).toThrow(/x\.def:1:1: expected NAME\(\.\.\.\)/);
  });

  it('checks the arity of each row', () => {
    expect(readRows('K(A, "a")\nK(B, "b")', 'K', ['id', 'name'])).toEqual([
      { id: 'A', name: 'a' },
      { id: 'B', name: 'b' },
    ]);
    expect(() => readRows('K(A)', 'K', ['id', 'name'], 'k.def')).toThrow(
      'k.def:1: K takes 2 arguments (id, name), got 1',
    );
  });
});
