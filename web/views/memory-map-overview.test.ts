// The memory map's overview counts (memory-map-overview.ts), counted from block heads, against the
// core's class map of the same frames (frame_class.c, painted through the identity table): on a
// small machine with cells smaller than, equal to and larger than a max-order block, after every
// op (recounting only the cells the frame stamps name), across a restore, against another Sim, and
// on the 1 TiB machine, whose overview never paints its 268M frames.
import { describe, expect, it } from 'vitest';
import { compileText } from '../app/compile';
import { loadCore } from '../core/module';
import type { Sim } from '../core/sim';
import { CellCounts, OverviewKeeper, paintUnits, STACK, UNIT_PX } from './memory-map-overview';
import { mapColors, pfnExtent } from './memory-map-paint';
import { FC } from './model';

const CLASS_IDS = Uint32Array.from({ length: FC.COUNT }, (_, c) => c);

/** Per cell, the frames of each class by the core's class map. */
function coreCounts(sim: Sim, start: number, units: number, unit: number): Float64Array {
  const out = new Float64Array(units * FC.COUNT);
  const classes = sim.frameClassesMapped(start, units * unit, CLASS_IDS);
  for (let i = 0; i < classes.length; i++) {
    const at = Math.floor(i / unit) * FC.COUNT + (classes[i] ?? 0);
    out[at] = (out[at] ?? 0) + 1;
  }
  return out;
}

function compile(text: string) {
  const out = compileText(text);
  if (!out.ok) throw new Error(out.error.message);
  return out.program;
}

describe('memory map overview counts', async () => {
  const core = await loadCore();

  it('counts what the core paints, recounting only the cells whose blocks changed', () => {
    // classroom: 128 MiB (32768 frames, 1024-frame blocks), pageblocks of 512
    const program = compile(
      'machine classroom\nseed 7\ncpu 0 random 120 max_order=4 free=40 GFP_KERNEL\ncpu 1 random 80 max_order=2 free=30 GFP_HIGHUSER_MOVABLE\n',
    );
    const sim = core.createSim(program.config);
    try {
      const { lo, hi } = pfnExtent(sim.state());
      const count = 2 ** Math.ceil(Math.log2(hi - lo));
      expect(lo % 4096).toBe(0);
      const keepers = [512, 1024, 4096].map((unit) => ({ unit, keeper: new OverviewKeeper() }));
      let recounted = 0;
      let ops = 0;
      for (const op of program.ops.toArray()) {
        sim.apply(op);
        sim.clearEvents();
        const s = sim.state();
        for (const { unit, keeper } of keepers) {
          const units = count / unit;
          const { ov, touched } = keeper.count(s, lo, units, unit);
          expect(Array.from(ov.counts)).toEqual(Array.from(coreCounts(sim, lo, units, unit)));
          if (touched) {
            recounted += touched.length;
            // a cell is recounted once, in order
            expect(touched).toEqual([...new Set(touched)].sort((a, b) => a - b));
          }
        }
        ops++;
      }
      // a step touches a few cells, never all of them
      expect(recounted).toBeGreaterThan(0);
      expect(recounted).toBeLessThan(ops * (64 + 32 + 8));
    } finally {
      sim.dispose();
    }
  });

  it('follows a restore, and counts another Sim afresh', () => {
    const program = compile('machine classroom\nseed 3\ncpu 0 random 60 max_order=3 GFP_KERNEL\n');
    const sim = core.createSim(program.config);
    const other = core.createSim(program.config);
    try {
      const ops = program.ops.toArray();
      const start = sim.snapshot();
      for (const op of ops) sim.apply(op);
      const keeper = new OverviewKeeper();
      const { lo } = pfnExtent(sim.state());
      const units = 32;
      keeper.count(sim.state(), lo, units, 1024);
      sim.restore(start);
      const back = keeper.count(sim.state(), lo, units, 1024);
      expect(back.touched?.length).toBeGreaterThan(0);
      expect(Array.from(back.ov.counts)).toEqual(Array.from(coreCounts(sim, lo, units, 1024)));
      // the other Sim at its boot state: every cell counted, not the stamps compared
      for (const op of ops) sim.apply(op);
      keeper.count(sim.state(), lo, units, 1024);
      const fresh = keeper.count(other.state(), lo, units, 1024);
      expect(fresh.touched).toBeNull();
      expect(Array.from(fresh.ov.counts)).toEqual(Array.from(coreCounts(other, lo, units, 1024)));
    } finally {
      sim.dispose();
      other.dispose();
    }
  });

  it('says which cells differ between two machines, and by how many frames at least', () => {
    const program = compile('machine tiny\ncpu 0 alloc a order=1\ncpu 0 free a *\n');
    const a = core.createSim(program.config);
    const b = core.createSim(program.config);
    try {
      a.apply(program.ops.toArray()[0]!);
      const ca = new CellCounts(0, 16, 16, 64);
      const cb = new CellCounts(0, 16, 16, 64);
      ca.update(a.state());
      cb.update(b.state());
      // an order-1 allocation (and the per-CPU refill before it): the cells whose classes differ
      // by the core, and the frames that changed class at least
      const want = { cells: [] as number[], frames: 0 };
      const [pa, pb] = [coreCounts(a, 0, 16, 16), coreCounts(b, 0, 16, 16)];
      for (let u = 0; u < 16; u++) {
        let apart = 0;
        for (let c = 0; c < FC.COUNT; c++)
          apart += Math.abs((pa[u * FC.COUNT + c] ?? 0) - (pb[u * FC.COUNT + c] ?? 0));
        if (apart) want.cells.push(u);
        want.frames += apart / 2;
      }
      expect(want.frames).toBeGreaterThanOrEqual(2);
      expect(ca.differing(cb)).toEqual(want);
      expect(ca.differing(ca)).toEqual({ cells: [], frames: 0 });
      // another window does not compare
      expect(ca.differing(new CellCounts(0, 8, 32, 64)).cells).toEqual([]);
    } finally {
      a.dispose();
      b.dispose();
    }
  });

  it('counts a 1 TiB machine from its blocks, and a step changes one cell', () => {
    const program = compile('machine bench1t\ncpu 0 alloc a order=0 GFP_KERNEL\n');
    const sim = core.createSim(program.config);
    try {
      const s = sim.state();
      const { lo, hi } = pfnExtent(s);
      const count = 2 ** Math.ceil(Math.log2(hi));
      const unit = 65536;
      const units = count / unit;
      const keeper = new OverviewKeeper();
      const { ov } = keeper.count(s, 0, units, unit);
      let free = 0;
      let all = 0;
      for (let u = 0; u < units; u++)
        for (let c = 0; c < FC.COUNT; c++) {
          const n = ov.counts[u * FC.COUNT + c] ?? 0;
          all += n;
          if (c >= FC.BUDDY && c < FC.PCP_EVEN) free += n;
        }
      expect(all).toBe(count);
      expect(free).toBe(hi - lo); // a machine as booted: every managed frame free
      expect(free).toBe(s.nodes[0]?.zones.reduce((n, z) => n + z.nrFreePages, 0));
      sim.apply(program.ops.toArray()[0]!);
      sim.clearEvents();
      const after = keeper.count(sim.state(), 0, units, unit);
      expect(after.touched?.length).toBe(1);
      const u = after.touched?.[0] ?? 0;
      // that cell against the core, whose class map of 65536 frames is small
      expect(Array.from(after.ov.counts.subarray(u * FC.COUNT, (u + 1) * FC.COUNT))).toEqual(
        Array.from(coreCounts(sim, u * unit, 1, unit)),
      );
    } finally {
      sim.dispose();
    }
  });
});

describe('paintUnits', () => {
  /**
   * The painter as first written, cell by cell from its band of rows (typed-array fills): what
   * paintUnits must paint, pixel for pixel.
   */
  function reference(
    px: Uint32Array,
    ov: CellCounts,
    cols: number,
    cell: number,
    lut: Uint32Array,
    only: readonly number[] | null,
  ) {
    const hole = lut[FC.HOLE] ?? 0;
    const gap = cell >= UNIT_PX ? 1 : 0;
    const inner = UNIT_PX - gap;
    const stride = cols * UNIT_PX;
    for (const u of only ?? Array.from({ length: ov.units }, (_, i) => i)) {
      const band = new Uint32Array(UNIT_PX).fill(hole);
      let bottom = inner;
      for (const c of STACK) {
        const n = ov.counts[u * FC.COUNT + c] ?? 0;
        if (!n || bottom <= 0) continue;
        const h = Math.min(bottom, Math.max(1, Math.round((n / ov.unit) * inner)));
        band.fill(lut[c] ?? hole, bottom - h, bottom);
        bottom -= h;
      }
      const x0 = (u % cols) * UNIT_PX;
      const y0 = Math.floor(u / cols) * UNIT_PX;
      for (let y = 0; y < UNIT_PX; y++) {
        const at = (y0 + y) * stride + x0;
        px.fill(y < inner ? (band[y] ?? hole) : hole, at, at + inner);
        if (gap) px[at + inner] = hole;
      }
    }
  }

  it("stacks each cell's classes by share, as the band painter did, whole or cell by cell", () => {
    let x = 7;
    const rand = () => {
      x = (x * 1103515245 + 12345) >>> 0;
      return x / 2 ** 32;
    };
    const unit = 4096;
    for (const [cols, cell] of [
      [16, 10], // magnified: a gap row and column
      [32, 6], // shrunk: no gap
    ] as const) {
      const units = cols * 5 - 3; // a last row part filled
      const ov = new CellCounts(0, units, unit, 1024);
      for (let u = 0; u < units; u++) {
        // a few classes per cell, some a single frame (still a row), some cells empty
        let left = unit;
        for (const c of STACK) {
          if (rand() < 0.5) continue;
          const n = rand() < 0.2 ? 1 : Math.floor(rand() * left);
          ov.counts[u * FC.COUNT + c] = n;
          left -= n;
        }
        ov.counts[u * FC.COUNT + FC.HOLE] = left;
      }
      const grid = { start: 0, per: unit, cols, rows: 5, cell, label: 12 };
      const colors = mapColors('light');
      const size = cols * UNIT_PX * 5 * UNIT_PX;
      const [got, want] = [new Uint32Array(size), new Uint32Array(size)];
      got.fill(colors.hole);
      want.fill(colors.hole);
      paintUnits(got, ov, grid, colors, null);
      reference(want, ov, cols, cell, colors.lut, null);
      expect(got).toEqual(want);
      // a few cells again, with other counts
      const only = [0, 3, units - 1];
      for (const u of only) ov.counts[u * FC.COUNT + FC.ALLOCATED] = unit / 2;
      paintUnits(got, ov, grid, colors, only);
      reference(want, ov, cols, cell, colors.lut, only);
      expect(got).toEqual(want);
    }
  });
});
