// The core's class map (wasm-core/src/page_alloc/frame_class.c), which the memory map paints from, against the
// map's own TypeScript painter: after every op of random workloads on machines with one zone, two
// zones with a hole between them, and a corrupted page, the pixels agree frame for frame, for the
// whole machine and for windows that start inside blocks or reach past the machine.
import { describe, expect, it } from 'vitest';
import { compileText } from '../app/compile';
import { FrameImage } from '../core/frame-image';
import { loadCore } from '../core/module';
import { mapColors, paintFrames, pfnExtent, type MapWindow } from './memory-map-paint';
import { FC, type ModelState } from './model';

const WORKLOADS = {
  tiny: 'machine tiny\nseed 11\ncpu 0 random 150 max_order=4 free=45 GFP_KERNEL\ncpu 1 random 100 max_order=2 free=30 GFP_HIGHUSER_MOVABLE\ndrain all\ncpu 1 random 40 max_order=5\n',
  small:
    'machine small\nseed 4\ncpu 0 random 200 max_order=3 free=35 GFP_KERNEL\ncpu 1 random 150 max_order=2 free=40 GFP_HIGHUSER_MOVABLE\n',
  corrupt:
    'machine tiny\nseed 2\ncpu 0 alloc a order=2\ncpu 0 corrupt\ncpu 0 alloc b\ncpu 1 random 30\n',
};

/** The table from enum frame_class to itself: the class map as classes. */
const CLASS_IDS = Uint32Array.from({ length: FC.COUNT }, (_, c) => c);

function jsPixels(s: ModelState, w: MapWindow, light: boolean): Uint32Array {
  const out = new Uint32Array(w.count);
  paintFrames(s, w, mapColors(light ? 'light' : 'dark'), out);
  return out;
}

describe('the core class map', async () => {
  const core = await loadCore();

  it('has the classes the TypeScript table is built for', () => {
    expect(core.mod._bs_nr_frame_classes()).toBe(FC.COUNT);
  });

  for (const [name, text] of Object.entries(WORKLOADS)) {
    it(`paints what paintFrames paints, after every op (${name})`, () => {
      const out = compileText(text);
      if (!out.ok) throw new Error(out.error.message);
      const sim = core.createSim(out.program.config);
      const lut = mapColors('dark').lut;
      let compared = 0;
      let i = 0;
      try {
        for (const op of out.program.ops.toArray()) {
          sim.apply(op);
          sim.clearEvents();
          const s = sim.state();
          const { lo, hi } = pfnExtent(s);
          // The whole machine and a hole before and after it; then a window inside a block.
          const windows: MapWindow[] = [
            { start: Math.max(0, lo - 64), count: hi - lo + 128, cols: 64 },
            { start: lo + 3 + ((i * 37) % 97), count: 150, cols: 50 },
          ];
          for (const w of windows) {
            const want = jsPixels(s, w, false);
            const got = sim.frameClassesMapped(w.start, w.count, lut);
            expect(got.length).toBe(want.length);
            let same = true;
            for (let k = 0; k < want.length; k++) if (got[k] !== want[k]) same = false;
            if (!same) expect([...got]).toEqual([...want]);
            // The classes themselves (an identity table), mapped through lut, are the same pixels.
            const classes = sim.frameClassesMapped(w.start, w.count, CLASS_IDS);
            for (let k = 0; k < want.length; k++)
              if (lut[classes[k] ?? 0] !== want[k]) same = false;
            expect(same).toBe(true);
            compared++;
          }
          i++;
        }
      } finally {
        sim.dispose();
      }
      expect(compared).toBe(2 * out.program.ops.length);
    });
  }

  it('marks the corrupted page and the leaked refill as the TypeScript map does', () => {
    const out = compileText(WORKLOADS.corrupt);
    if (!out.ok) throw new Error(out.error.message);
    const sim = core.createSim(out.program.config);
    for (const op of out.program.ops.toArray()) sim.apply(op);
    const { lo, hi } = pfnExtent(sim.state());
    const classes = sim.frameClassesMapped(lo, hi - lo, CLASS_IDS);
    expect(classes.includes(FC.CORRUPT)).toBe(true);
    expect(classes.includes(FC.ALLOCATED)).toBe(true);
    sim.dispose();
  });

  it('keeps a frame image up to date by repainting only what changed', () => {
    const out = compileText(WORKLOADS.small);
    if (!out.ok) throw new Error(out.error.message);
    const sim = core.createSim(out.program.config);
    const other = core.createSim(out.program.config);
    const image = new FrameImage();
    const lut = mapColors('light').lut;
    try {
      const { lo, hi } = pfnExtent(sim.state());
      const count = hi - lo;
      /** Paint, check the pixels against a fresh class map, and return how many were repainted. */
      const paint = (): number | null => {
        const painted = sim.paintFrames(image, lo, count, lut);
        const want = sim.frameClassesMapped(lo, count, lut).slice();
        const got = sim.paintFrames(image, lo, count, lut); // nothing since: nothing repainted
        expect(got.spans).toEqual([]);
        if (got.words.some((v, k) => v !== want[k])) throw new Error('pixels differ');
        return painted.spans?.reduce((n, [a, b]) => n + b - a, 0) ?? null;
      };
      expect(paint()).toBeNull(); // the first paint: all
      const ops = out.program.ops.toArray();
      let repainted = 0;
      let snapshot: Uint8Array | null = null;
      for (const [i, op] of ops.entries()) {
        if (i === ops.length - 20) snapshot = sim.snapshot();
        sim.apply(op);
        sim.clearEvents();
        repainted += paint() ?? count;
      }
      // A step repaints a small part of the machine, not all of it.
      expect(repainted).toBeLessThan((ops.length * count) / 4);
      // A seek back twenty ops (a restore), and a branch from there: only what differs.
      if (!snapshot) throw new Error('no snapshot');
      sim.restore(snapshot);
      expect(paint()).toBeLessThan(count);
      sim.apply({ ...ops[ops.length - 1]!, cpu: 1 - (ops[ops.length - 1]?.cpu ?? 0) });
      expect(paint()).toBeLessThan(count);
      // Another palette, window or Sim: everything again.
      expect(sim.paintFrames(image, lo, count, mapColors('dark').lut).spans).toBeNull();
      expect(sim.paintFrames(image, lo + 1, count - 1, mapColors('dark').lut).spans).toBeNull();
      expect(other.paintFrames(image, lo + 1, count - 1, mapColors('dark').lut).spans).toBeNull();
    } finally {
      image.free();
      sim.dispose();
      other.dispose();
    }
  });
});
