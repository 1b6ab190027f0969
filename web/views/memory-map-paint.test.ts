// The memory map's pixels: every frame takes its block head's colour, holes stay holes, and a
// window that starts inside a block still colours that block.
import { describe, expect, it } from 'vitest';
import { loadCore } from '../core/module';
import { compileText } from '../app/compile';
import { frameInfo, mapColors, paintFrames, pfnExtent } from './memory-map-paint';
import { PG } from './model';

describe('paintFrames', async () => {
  const core = await loadCore();
  const out = compileText(
    'machine tiny\nseed 3\nrepeat 5 {\n cpu 0 alloc a order=1\n cpu 1 alloc b order=3 GFP_HIGHUSER_MOVABLE\n}\ncpu 1 free b\n',
  );
  if (!out.ok) throw new Error(out.error.message);
  const sim = core.createSim(out.program.config);
  for (const op of out.program.ops.toArray()) sim.apply(op);
  const s = sim.state();
  const colors = mapColors('light');

  it('colours each frame as its block head says (checked frame by frame)', () => {
    const { lo, hi } = pfnExtent(s);
    const buf = new Uint32Array(hi - lo);
    paintFrames(s, { start: lo, count: hi - lo, cols: 16 }, colors, buf);
    for (let pfn = lo; pfn < hi; pfn++) {
      const info = frameInfo(s, pfn);
      expect(info).not.toBeNull();
      if (!info) continue;
      const want =
        info.state === PG.BUDDY
          ? colors.buddy[info.list]
          : info.state === PG.PCP
            ? colors.pcp[info.cpu & 1]
            : info.state === PG.ALLOCATED
              ? colors.allocated
              : colors.corrupt;
      expect(buf[pfn - lo]).toBe(want);
    }
  });

  it('paints a window that starts inside a block, and leaves pfns past the machine as holes', () => {
    const full = new Uint32Array(256);
    paintFrames(s, { start: 0, count: 256, cols: 16 }, colors, full);
    const part = new Uint32Array(64);
    paintFrames(s, { start: 200, count: 64, cols: 16 }, colors, part);
    expect([...part.subarray(0, 56)]).toEqual([...full.subarray(200, 256)]);
    expect([...part.subarray(56)]).toEqual(new Array(8).fill(colors.hole));
  });
});
