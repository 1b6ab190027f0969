import { describe, expect, it } from 'vitest';

import { memcgsFromLruState, parseLruState } from './lru-state';

const HEAD = '# buddyscope lru-state 1\n';

describe('lru-state', () => {
  it('reads memcgs and folios', () => {
    const r = parseLruState(
      HEAD +
        'cgroups 3\n' +
        'memcg 1 0 0 4 0 0 0 104 0 /\n' +
        'memcg 35 0 0 0 0 0 0 0 0 /a\n' +
        'folios 0 Normal 1 inactive_file 2 26\n',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.state.cgroups).toBe(3);
    expect(r.state.memcgs[1]).toEqual({
      ino: 35,
      own: [0, 0, 0, 0],
      tree: [0, 0, 0, 0],
      path: '/a',
    });
    expect(r.state.folios).toEqual([{ node: 0, zone: 2, ino: 1, lru: 2, order: 2, count: 26 }]);
  });

  it('names the line and column of what is wrong', () => {
    const at = (text: string) => {
      const r = parseLruState(text);
      return r.ok ? null : `${r.error.line}:${r.error.col}`;
    };
    expect(at('nonsense\n')).toBe('1:1');
    expect(at(HEAD + 'memcg 1 0 0 x 0 0 0 0 0 /\n')).toBe('2:13');
    expect(at(HEAD + 'memcg 1 0 0 0 0 0 0 0 0 /\nfolios 0 Highmem 1 active_file 0 1\n')).toBe(
      '3:10',
    );
    expect(at(HEAD + 'memcg 1 0 0 0 0 0 0 0 0 /\nfolios 0 Normal 2 active_file 0 1\n')).toBe(
      '3:17',
    );
    expect(at(HEAD + 'memcg 1 0 0 0 0 0 0 0 0 /\nfolios 0 Normal 1 lru 0 1\n')).toBe('3:19');
    expect(at(HEAD + 'memcg 1 0 0 0 0 0 0 0 0 /\nfolios 0 Normal 1 active_file 0\n')).toBe('3:32');
    expect(at(HEAD + 'memcg 35 0 0 0 0 0 0 0 0 /a\n')).toBe('3:1');
    expect(at(HEAD + 'pages 1\n')).toBe('2:1');
  });

  it('gives offline descendants what a subtree holds beyond its own and its online children', () => {
    // the root's subtree holds 104 inactive file pages: 4 its own, none in /a: 100 are offline
    // memcgs', which kpagecgroup names the root for; 3 memcgs in all, 2 online: one offline
    const r = parseLruState(
      HEAD +
        'cgroups 3\n' +
        'memcg 1 0 0 4 0 0 0 104 0 /\n' +
        'memcg 35 0 0 0 0 0 0 0 0 /a\n' +
        'folios 0 Normal 1 inactive_file 0 104\n',
    );
    if (!r.ok) throw new Error(r.error.message);
    const { memcgs, folios } = memcgsFromLruState(r.state);
    expect(memcgs).toEqual([
      { ino: 1, online: true },
      { ino: 0, online: false },
      { ino: 35, online: true },
    ]);
    expect(folios).toEqual([
      { node: 0, zone: 2, lru: 2, order: 0, memcg: 0, count: 4 },
      { node: 0, zone: 2, lru: 2, order: 0, memcg: 1, count: 100 },
    ]);
  });
});
