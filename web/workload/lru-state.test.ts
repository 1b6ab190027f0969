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
  it('gives an ancestor as many offline memcgs as memcgs the size of its online children take', () => {
    // the root holds 1200 page-cache pages beyond /a and /b (children of 1000 and 200: a median
    // of 600, so 2 memcgs), /a 800 beyond /a/x (100 pages: 8 memcgs); 10 memcgs, 4 online, so 6
    // offline: the root's (the larger children) get their 2 first, /a the 4 left
    const r = parseLruState(
      HEAD +
        'cgroups 10\n' +
        'memcg 1 0 0 0 0 0 0 2400 0 /\n' +
        'memcg 35 0 0 100 0 0 0 1000 0 /a\n' +
        'memcg 36 0 0 100 0 0 0 100 0 /a/x\n' +
        'memcg 37 0 0 200 0 0 0 200 0 /b\n' +
        'folios 0 Normal 1 inactive_file 0 1200\n' +
        'folios 0 Normal 35 inactive_file 0 900\n' +
        'folios 0 Normal 36 inactive_file 0 100\n' +
        'folios 0 Normal 37 inactive_file 0 200\n',
    );
    if (!r.ok) throw new Error(r.error.message);
    const { memcgs, folios } = memcgsFromLruState(r.state);
    expect(memcgs.map((m) => (m.online ? m.ino : 'off'))).toEqual([
      1,
      'off',
      'off',
      35,
      'off',
      'off',
      'off',
      'off',
      36,
      37,
    ]);
    expect(folios.filter((f) => f.memcg === 1 || f.memcg === 4).map((f) => f.count)).toEqual([
      600, 200,
    ]);
  });
});
