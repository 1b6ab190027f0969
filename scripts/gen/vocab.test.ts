// The vocabulary generators: they read every subsystem's .def file, and refuse what the C's
// tables could not hold (an id given twice or skipped, a marker the timeline does not draw, a bit
// field of no kind, a range that is empty), naming the file and line.
import { describe, expect, it } from 'vitest';
import { readEvents } from './events.mjs';
import { readSysctls } from './sysctls.mjs';

/** A read() over in-memory files; a missing one fails as a missing file does. */
function files(map: Record<string, string>): (path: string) => string {
  return (path) => {
    const text = map[path];
    if (text === undefined) throw Object.assign(new Error(`no ${path}`), { code: 'ENOENT' });
    return text;
  };
}

const NONE = 'EV(0, NONE, "none", none, 0, "", "", "", "", NONE, "", NONE, "", NONE, "no event")\n';
const kind = (id: number, name: string, marker = 'none') =>
  `EV(${id}, ${name.toUpperCase()}, "${name}", ${marker}, 1, "", "", "", "x", DEC, "", NONE, "", NONE, "d")\n`;
const BASE = 'wasm-core/src/base/events.def';
const PA = 'wasm-core/src/page_alloc/events.def';

describe('readEvents', () => {
  it('merges the subsystems by id, with their fields and markers', () => {
    const v = readEvents(
      files({
        [BASE]: NONE + kind(2, 'tick') + 'FN(0, NONE, "", "")\nBAD(1, X, "why")\n',
        [PA]:
          kind(1, 'refill', 'refill') +
          'EV_BITS(REFILL, a, "low", 0, 1)\nFN(1, F, "f", "mm/f.c")\n',
      }),
    );
    expect(v.kinds.map((k) => [k.id, k.name, k.subsystem, k.marker])).toEqual([
      [0, 'none', 'base', 'none'],
      [1, 'refill', 'page_alloc', 'refill'],
      [2, 'tick', 'base', 'none'],
    ]);
    expect(v.kinds[1]?.fields).toEqual([
      { name: 'x', from: 'a', format: 'DEC' },
      { name: 'low', from: 'a', format: 'DEC', shift: 0, width: 1 },
    ]);
    expect(v.fns.map((f) => f.file)).toEqual(['', 'mm/f.c']);
    expect(v.bads.map((b) => b.words)).toEqual(['why']);
  });

  it('refuses an id given twice, across files, or a vocabulary not starting at 0', () => {
    expect(() => readEvents(files({ [BASE]: NONE + kind(1, 'a'), [PA]: kind(1, 'b') }))).toThrow(
      /page_alloc\/events\.def:1: event kind id 1 is already taken/,
    );
    expect(() => readEvents(files({ [BASE]: kind(2, 'a') }))).toThrow(
      /base\/events\.def:1: event kind ids skip 0\.\.1/,
    );
  });

  it('lets a subsystem own a range of ids: the id-indexed tables keep holes', () => {
    const v = readEvents(files({ [BASE]: NONE + kind(70, 'far') + 'FN(0, NONE, "", "")\n' }));
    expect(v.kinds.map((k: { id: number }) => k.id)).toEqual([0, 70]);
  });

  it('refuses an unknown marker, a repeated name and bits of no kind', () => {
    expect(() => readEvents(files({ [BASE]: NONE + kind(1, 'a', 'shiny') }))).toThrow(
      /base\/events\.def:2: marker shiny is not one of refill, drain/,
    );
    expect(() => readEvents(files({ [BASE]: NONE + kind(1, 'a') + kind(2, 'a') }))).toThrow(
      /event name a is taken/,
    );
    expect(() => readEvents(files({ [BASE]: NONE + 'EV_BITS(NOPE, c, "x", 0, 1)\n' }))).toThrow(
      /EV_BITS names no kind NOPE/,
    );
  });
});

describe('readSysctls', () => {
  const PATH = 'wasm-core/src/page_alloc/sysctls.def';
  it('counts an array tunable as count ids', () => {
    const rows = readSysctls(
      files({
        [PATH]: 'SYSCTL(0, A, "a", 3, 0, 9, 0, "")\nSYSCTL(3, B, "b", 1, 8, 9, 1, "")\n',
      }),
    );
    expect(rows.map((r) => [r.name, r.id, r.count])).toEqual([
      ['a', 0, 3],
      ['b', 3, 1],
    ]);
    expect(() =>
      readSysctls(
        files({ [PATH]: 'SYSCTL(0, A, "a", 3, 0, 9, 0, "")\nSYSCTL(2, B, "b", 1, 0, 9, 0, "")\n' }),
      ),
    ).toThrow(/sysctls\.def:2: sysctl id 2 is already taken/);
  });

  it('refuses an empty range', () => {
    expect(() => readSysctls(files({ [PATH]: 'SYSCTL(0, A, "a", 1, 9, 1, 0, "")\n' }))).toThrow(
      /sysctls\.def:1: a: min 9 is above max 1/,
    );
  });
});
