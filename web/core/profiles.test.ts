// The TypeScript reading of profiles.def against the core built from it: every profile's name
// and id agree, and the pcp list decoder (pcpListOf of the generated pcp_layout) says the order
// of every block the core actually put on a pcp list, THP lists included.
import { describe, expect, it } from 'vitest';
import { compileText } from '../app/compile';
import { loadCore } from './module';
import { PROFILE_NAMES } from './generated/profile-names';
import { MIGRATE_PCPTYPES, pcpIndexOf, pcpLayoutOf, pcpListCount } from './pcp-index';
import { DEFAULT_PROFILE, PROFILES, pcpListOf, profileRow } from './profiles';
import { PG } from './state';

/** Blocks of orders 0..3 and THP, freed onto the pcp lists of both CPUs. */
const workload = (profile: string) => `machine classroom
profile ${profile}
seed 9
cpu 0 random 120 max_order=3 free=45 GFP_KERNEL
cpu 1 random 120 max_order=3 free=45 GFP_HIGHUSER_MOVABLE
cpu 0 random 60 max_order=3 free=45 GFP_USER
cpu 1 alloc t order=9 GFP_HIGHUSER_MOVABLE
cpu 1 free t *
cpu 0 alloc u order=9 GFP_KERNEL
cpu 0 free u *
`;

describe('profiles', async () => {
  const core = await loadCore();

  it('are the core rows: the same names at the same ids, and the default first', () => {
    for (const p of PROFILES) {
      expect(core.profileName(p.id)).toBe(p.name);
      expect(core.profileByName(p.name)).toBe(p.id);
      expect(profileRow(p.id)).toBe(p);
    }
    expect(core.profileName(PROFILES.length)).toBe('');
    expect(DEFAULT_PROFILE).toBe(PROFILES[0]?.name);
    expect(profileRow(PROFILES.length)).toBe(PROFILES[0]); // as sim_profile_get
  });

  it('have the same names and pcp layouts in the small table the home page loads', () => {
    expect([...PROFILE_NAMES]).toEqual(PROFILES.map((p) => p.name));
    for (const p of PROFILES) expect(pcpLayoutOf(p.id)).toBe(p.switches.pcp_layout);
    expect(pcpLayoutOf(PROFILES.length)).toBe(PROFILES[0]?.switches.pcp_layout);
  });

  it('find the list of an order and type as pcpListOf decodes it, under every layout', () => {
    for (const layout of new Set(PROFILES.map((p) => p.switches.pcp_layout))) {
      for (let pindex = 0; pindex < pcpListCount(layout, true); pindex++) {
        const list = pcpListOf(layout, pindex);
        // a list shared by every type (mt -1) is every type's
        const types = list.mt < 0 ? [0, 1, 2] : [list.mt];
        for (const mt of types) expect(pcpIndexOf(layout, list.order, mt, list.thp)).toBe(pindex);
      }
      // THP's lists come last: without THP the layout has just the ones below
      expect(pcpListCount(layout, false)).toBeLessThanOrEqual(pcpListCount(layout, true));
      expect(pcpIndexOf(layout, 0, MIGRATE_PCPTYPES - 1, false)).toBe(MIGRATE_PCPTYPES - 1);
    }
  });

  for (const p of PROFILES) {
    it(`decode the pcp lists of ${p.name} as the core fills them`, () => {
      const out = compileText(workload(p.name));
      if (!out.ok) throw new Error(out.error.message);
      const sim = core.createSim(out.program.config);
      const layout = p.switches.pcp_layout;
      const seen = new Set<number>();
      try {
        for (let i = 0; i < out.program.ops.length; i++) {
          sim.applyAt(out.program.ops, i);
          sim.clearEvents();
          const s = sim.state();
          expect(s.profileId).toBe(p.id);
          const { bytes, off, at } = s.frames;
          const heads: number[] = []; // every block head, walked head to head
          for (const z of s.nodes.flatMap((n) => n.zones))
            for (let p = z.memPfn; p < z.memPfn + z.managed;) {
              const state = bytes[at(p) + off.state] ?? PG.TAIL;
              if (state !== PG.TAIL) heads.push(p);
              p += state === PG.TAIL ? 1 : 2 ** (bytes[at(p) + off.order] ?? 0);
            }
          for (const pfn of heads) {
            if (bytes[at(pfn) + off.state] !== PG.PCP) continue;
            const pindex = bytes[at(pfn) + off.list] ?? -1;
            const order = bytes[at(pfn) + off.order] ?? -1;
            const list = pcpListOf(layout, pindex);
            expect(pindex, `pindex of a ${p.name} pcp block`).toBeLessThan(s.nrPcpLists);
            expect(s.nrPcpLists, `lists of ${p.name}`).toBe(pcpListCount(layout, true));
            if (list.thp) expect(order).toBe(s.pageblockOrder);
            else expect(order, `order on list ${pindex} of ${p.name}`).toBe(list.order);
            seen.add(pindex);
          }
        }
      } finally {
        sim.dispose();
      }
      // the workload reaches high-order and THP lists wherever the layout has them
      const orders = new Set(
        [...seen].map((i) => pcpListOf(layout, i)).map((l) => (l.thp ? 'thp' : l.order)),
      );
      const wanted =
        layout === 'PCP_LAYOUT_ORDER0'
          ? [0]
          : layout === 'PCP_LAYOUT_2016'
            ? [0, 1, 2, 3]
            : [0, 1, 2, 3, 'thp'];
      expect([...orders].sort()).toEqual(wanted);
    });
  }
});
