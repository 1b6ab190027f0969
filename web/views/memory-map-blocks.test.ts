// The memory map's blocks, buddies, geometry and overview counts, against the core's frames.
import { describe, expect, it } from 'vitest';
import { compileText } from '../app/compile';
import { loadCore } from '../core/module';
import { blockRect, blocksIn, buddyOf, overviewUnit } from './memory-map-blocks';
import { frameInfo, pfnExtent } from './memory-map-paint';
import { PG } from './model';

describe('memory map blocks', async () => {
  const core = await loadCore();
  const out = compileText(
    'machine tiny\nseed 3\nrepeat 5 {\n cpu 0 alloc a order=1\n cpu 1 alloc b order=3 GFP_HIGHUSER_MOVABLE\n}\ncpu 1 free b\n',
  );
  if (!out.ok) throw new Error(out.error.message);
  const sim = core.createSim(out.program.config);
  for (const op of out.program.ops.toArray()) sim.apply(op);
  const s = sim.state();

  it('lists each block once, head to head, agreeing with frameInfo on every frame', () => {
    const { lo, hi } = pfnExtent(s);
    const blocks = blocksIn(s, lo, hi);
    let next = lo;
    for (const b of blocks) {
      expect(b.pfn).toBe(next); // no gap, no overlap
      expect(b.pfn % (1 << b.order)).toBe(0); // naturally aligned
      next = b.pfn + (1 << b.order);
    }
    expect(next).toBe(hi);
    for (let pfn = lo; pfn < hi; pfn++) {
      const info = frameInfo(s, pfn);
      const b = blocks.find((x) => pfn >= x.pfn && pfn < x.pfn + (1 << x.order));
      expect(info && b && [info.head, info.order]).toEqual(b && [b.pfn, b.order]);
    }
    expect(blocks.some((b) => b.state === PG.ALLOCATED)).toBe(true);
    // a window inside a block still lists that block
    const inner = blocksIn(s, 200, 210);
    expect(inner[0] && inner[0].pfn <= 200).toBe(true);
  });

  it('finds buddies by xor and places aligned blocks as one rectangle', () => {
    expect(buddyOf(64, 6)).toBe(0);
    expect(buddyOf(8, 1)).toBe(10);
    expect(blockRect(64, 64, 0, 16, 10)).toEqual({ x: 0, y: 40, w: 160, h: 40 });
    expect(blockRect(36, 4, 0, 16, 10)).toEqual({ x: 40, y: 20, w: 40, h: 10 });
  });

  it('picks an overview unit of a pageblock or more, doubling until the cells fit', () => {
    expect(overviewUnit(256, 16, 8)).toBe(32); // no more than 8 cells of a pageblock or more
    expect(overviewUnit(256, 16, 100)).toBe(16);
    expect(overviewUnit(2 ** 28, 512, 6000)).toBe(65536); // 1 TiB in 4096 cells
  });
});
