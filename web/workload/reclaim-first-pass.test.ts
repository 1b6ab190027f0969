import { describe, expect, it } from 'vitest';

import { memcgsFromLruState, parseLruState } from './lru-state';
import { firstPassVisits } from './reclaim-first-pass';

/** A kswapd0 trace line of a shrink call at a priority. */
function call(
  kind: 'inactive' | 'active',
  pages: number,
  priority = 12,
  flags = 'RECLAIM_WB_FILE',
) {
  const n = kind === 'inactive' ? `nr_scanned=${pages} nr_reclaimed=${pages}` : `nr_taken=${pages}`;
  return `kswapd0-48 [000] ..... 1.000000: mm_vmscan_lru_shrink_${kind}: nid=0 ${n} priority=${priority} flags=${flags}`;
}
const WAKE = 'kswapd0-48 [000] ..... 1.000000: mm_vmscan_kswapd_wake: nid=0 order=0';

describe('kswapd first pass', () => {
  it('reads one visit per memcg, up to the first call at another priority', () => {
    const lines = [
      call('inactive', 9), // before the wake: not this pass
      WAKE,
      call('active', 32),
      call('active', 25),
      call('inactive', 4),
      call('active', 32),
      call('inactive', 33),
      call('inactive', 256),
      call('active', 1),
      call('inactive', 18, 11),
      call('active', 7),
    ];
    expect(firstPassVisits(lines)).toEqual([
      { inactive: null, active: 32 },
      { inactive: null, active: 25 },
      { inactive: 4, active: 32 },
      { inactive: 33, active: null },
      { inactive: 256, active: 1 },
    ]);
  });

  it('gives up where anonymous lists were scanned, and without a wake', () => {
    expect(firstPassVisits([WAKE, call('inactive', 4, 12, 'RECLAIM_WB_ANON')])).toBeNull();
    expect(firstPassVisits([call('inactive', 4)])).toBeNull();
  });

  it("places an ancestor's offline pages where the pass saw them", () => {
    // /a's offline children hold 1000 inactive and 3000 active file pages; /a/x, online, holds
    // 8192 and 4096 (targets 2 and 1 at priority 12). The pass saw three offline memcgs of /a:
    // one with 5 inactive and a full cluster of active pages, one with a full cluster of each,
    // one with 7 active pages, then /a/x.
    const r = parseLruState(
      '# buddyscope lru-state 1\n' +
        'cgroups 6\n' +
        'memcg 1 0 0 0 0 0 0 9192 7096 /\n' +
        'memcg 35 0 0 0 0 0 0 9192 7096 /a\n' +
        'memcg 36 0 0 8192 4096 0 0 8192 4096 /a/x\n' +
        'folios 0 Normal 35 inactive_file 0 1000\n' +
        'folios 0 Normal 35 active_file 0 3000\n' +
        'folios 0 Normal 36 inactive_file 0 8192\n' +
        'folios 0 Normal 36 active_file 0 4096\n',
    );
    if (!r.ok) throw new Error(r.error.message);
    const visits = [
      { inactive: 5, active: 32 },
      { inactive: 32, active: 32 },
      { inactive: null, active: 7 },
      { inactive: 2, active: 1 },
    ];
    const { memcgs, folios } = memcgsFromLruState(r.state, visits);
    expect(memcgs.map((m) => (m.online ? m.ino : 'off'))).toEqual([1, 35, 'off', 'off', 'off', 36]);
    const held = (memcg: number, lru: number) =>
      folios.filter((f) => f.memcg === memcg && f.lru === lru).reduce((n, f) => n + f.count, 0);
    // inactive: 5 exactly, the rest with the one that scanned a full cluster, none for the third
    expect([held(2, 2), held(3, 2), held(4, 2)]).toEqual([5, 995, 0]);
    // active: 7 exactly, the rest shared by the two that scanned a full cluster
    expect([held(2, 3), held(3, 3), held(4, 3)]).toEqual([1497, 1496, 7]);
    expect([held(5, 2), held(5, 3), held(1, 2), held(1, 3)]).toEqual([8192, 4096, 0, 0]);
  });

  it('keeps the even shares on a machine of more nodes (the pass is node 0 alone)', () => {
    const r = parseLruState(
      '# buddyscope lru-state 1\n' +
        'cgroups 4\n' +
        'memcg 1 0 0 0 0 0 0 1000 0 /\n' +
        'memcg 35 0 0 0 0 0 0 1000 0 /a\n' +
        'folios 0 Normal 35 inactive_file 0 500\n' +
        'folios 1 Normal 35 inactive_file 0 500\n',
    );
    if (!r.ok) throw new Error(r.error.message);
    const seen = memcgsFromLruState(r.state, [{ inactive: 4, active: null }]);
    expect(seen).toEqual(memcgsFromLruState(r.state));
  });

  it('leaves with the ancestor what no offline memcg the pass saw can hold', () => {
    const r = parseLruState(
      '# buddyscope lru-state 1\n' +
        'cgroups 3\n' +
        'memcg 1 0 0 0 0 0 0 1000 0 /\n' +
        'memcg 35 0 0 0 0 0 0 1000 0 /a\n' +
        'folios 0 Normal 35 inactive_file 0 1000\n',
    );
    if (!r.ok) throw new Error(r.error.message);
    const { memcgs, folios } = memcgsFromLruState(r.state, [{ inactive: 4, active: null }]);
    expect(memcgs.map((m) => (m.online ? m.ino : 'off'))).toEqual([1, 35, 'off']);
    expect(folios.map((f) => [f.memcg, f.count])).toEqual([
      [1, 996],
      [2, 4],
    ]);
  });
});
