// A link's machine is refused where the link comes in when the core would refuse it: zones out of
// pfn order or overlapping, or a Device zone with managed pages (the rule zoneinfo files share).
import { describe, expect, it } from 'vitest';
import type { ExplicitMachine } from '../core/machine-config';
import { loadCore } from '../core/module';
import { checkMachine } from './validate';

const zone = (startPfn: number, pages: number) => ({
  startPfn,
  spanned: pages,
  present: pages,
  managed: pages,
});
const empty = { startPfn: 0, spanned: 0, present: 0, managed: 0 };
const machine = (zones: object[]) => ({
  kind: 'explicit',
  nodes: 1,
  cpusPerNode: 2,
  maxOrder: 10,
  pageblockOrder: 9,
  thp: true,
  zones: [zones],
});

describe('checkMachine', () => {
  it('accepts zones that follow one another', () => {
    expect(checkMachine(machine([empty, zone(4096, 4096), zone(8192, 8192)])).ok).toBe(true);
  });

  it('refuses a zone inside the one before it, naming both', () => {
    expect(checkMachine(machine([empty, zone(4096, 4096), zone(6000, 8192)]))).toEqual({
      ok: false,
      message:
        "its machine is refused: zone Normal of node 0 starts at pfn 6000, inside zone DMA32 (which ends at 8192): a node's zones follow one another in pfn order",
    });
  });

  it('refuses a Device zone with managed pages', () => {
    const r = checkMachine(machine([empty, empty, zone(4096, 4096), empty, zone(65536, 64)]));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/zone Device of node 0 has 64 managed pages/);
  });

  it('refuses a zone whose end needs more change stamps than the core keeps, naming it', () => {
    const r = checkMachine({
      ...machine([empty, empty, zone(0xfffff000, 256)]),
      maxOrder: 3,
      pageblockOrder: 3,
    });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.message).toMatch(
        /zone Normal of node 0 ends at pfn 4294963456: with max_order 3 .* above its limit of 4194304/,
      );
  });

  it('refuses what the core refuses, and accepts what it boots', async () => {
    const core = await loadCore();
    const cases = [
      machine([empty, zone(4096, 4096), zone(8192, 8192)]),
      machine([empty, zone(4096, 4096), zone(6000, 8192)]),
      machine([empty, empty, zone(4096, 4096), empty, zone(65536, 64)]),
      machine([zone(1, 4095), zone(4096, 4096), zone(100, 64)]),
      // a zone near the top of the pfn range: too many change stamps below max order 10
      { ...machine([empty, empty, zone(0xfffff000, 256)]), maxOrder: 3, pageblockOrder: 3 },
      { ...machine([empty, empty, zone(0xfffff000, 256)]), maxOrder: 1, pageblockOrder: 1 },
      { ...machine([empty, empty, zone(0xfffff000, 256)]), maxOrder: 10, pageblockOrder: 9 },
      { ...machine([empty, empty, zone((1 << 25) - 256, 256)]), maxOrder: 3, pageblockOrder: 3 },
      // the prober's "two nodes with max order 3": node 1 high in the pfn range (a trap in wasm
      // when the stamp array's size wrapped)
      {
        ...machine([empty, empty, zone(0, 4096)]),
        nodes: 2,
        maxOrder: 3,
        pageblockOrder: 3,
        zones: [
          [empty, empty, zone(0, 4096)],
          [empty, empty, zone(0xfff00000, 4096)],
        ],
      },
      { ...machine([empty, empty, zone((1 << 25) - 248, 256)]), maxOrder: 3, pageblockOrder: 3 },
    ];
    for (const m of cases) {
      let boots = true;
      try {
        core.createSim({ machine: m as ExplicitMachine }).dispose();
      } catch {
        boots = false;
      }
      expect(checkMachine(m).ok, JSON.stringify(m.zones)).toBe(boots);
    }
  });
});
