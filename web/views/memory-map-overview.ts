/*
 * memory-map-overview.ts: the memory map's overview at any size: one cell per `unit` frames (a
 * pageblock or more, a power of two), holding how many of its frames are in each frame class
 * (FC). Counted from block heads (walkClasses: a whole max-order block is one step, its head in
 * the core's per-block table), never by visiting or painting frames, so a 1 TiB machine's
 * overview costs its 262,144 blocks once and a step costs the blocks it changed.
 *
 * What changed comes from the core's frame stamps (frame_changed, wasm-core/src/base/state.h):
 * per max-order block the history digest of its last change. The overview keeps the stamps it
 * counted at; a block whose stamp differs is recounted with the cells it meets, whatever moved the
 * machine (a step, a seek, a restore, another branch). The blocks' group stamps (one per
 * FRAME_STAMP_GROUP blocks) come first: a group whose stamp is the one counted at is skipped
 * whole, so a step reads 4,096 group stamps on 1 TiB and the blocks of the groups it changed.
 *
 * Worked example: max_order 10 (1024-frame blocks), unit 4096: cell 3 of a window from pfn 0
 * covers blocks 12..15; a step that allocates pfn 13,000 stamps block 12 (13,000 >> 10), so only
 * cell 3 is recounted, and it is the cell the map marks.
 */
import { FRAME_STAMP_GROUP } from '../core/generated/machine';
import type { Grid } from './memory-map-draw';
import { countClasses, type MapColors } from './memory-map-paint';
import { FC, type ModelState } from './model';

/** The overview cell colours (FC order) drawn bottom up: allocated, per-CPU, free by type. */
export const STACK: readonly number[] = [
  FC.ALLOCATED,
  FC.CORRUPT,
  FC.PCP_EVEN,
  FC.PCP_ODD,
  ...Array.from({ length: FC.PCP_EVEN - FC.BUDDY }, (_, i) => FC.PCP_EVEN - 1 - i),
];

/** Bitmap pixels per overview cell side: bands are drawn in eighths of a cell. */
export const UNIT_PX = 8;

/** The sections drawn as overviews and their counts, for the test API's check (test-api.ts). */
export const overviewOf = new WeakMap<Element, CellCounts>();

export class CellCounts {
  /** counts[u * FC.COUNT + c]: frames of cell u in class c (holes: frames no zone manages). */
  readonly counts: Float64Array;
  /** The stamps counted at, two words per block of the window; null until the first count. */
  private seen: Uint32Array | null = null;
  /** The group stamps counted at, two words per group from the window's first block's group. */
  private seenGroups: Uint32Array | null = null;
  private owner: object | null = null; // the Sim counted: stamps compare within one Sim
  private readonly firstBlock: number;

  constructor(
    readonly start: number, // pfn of cell 0's first frame (a multiple of unit)
    readonly units: number,
    readonly unit: number, // frames per cell
    readonly blockFrames: number, // 2^maxOrder: the frames one stamp covers
  ) {
    this.counts = new Float64Array(units * FC.COUNT);
    this.firstBlock = Math.floor(start / blockFrames);
  }

  /** Whether this overview counts cells of that window and machine geometry. */
  fits(start: number, units: number, unit: number, blockFrames: number): boolean {
    return (
      this.start === start &&
      this.units === units &&
      this.unit === unit &&
      this.blockFrames === blockFrames
    );
  }

  /** Count cells [u0, u1) afresh. */
  private recount(s: ModelState, u0: number, u1: number): void {
    const k = FC.COUNT;
    this.counts.fill(0, u0 * k, u1 * k);
    for (let u = u0; u < u1; u++) {
      const lo = this.start + u * this.unit;
      countClasses(s, lo, lo + this.unit, this.counts, u * k);
    }
  }

  /**
   * Bring the counts up to date with s: every cell on the first call (or with `all`), else the
   * cells that meet a block whose stamp changed. Returns the cells recounted, in order, or null
   * when every cell was.
   */
  update(s: ModelState, all = false): number[] | null {
    const stamps = s.frames.stamps();
    const groups = s.frames.groupStamps();
    const end = this.start + this.units * this.unit;
    const blocks = Math.ceil(end / this.blockFrames) - this.firstBlock;
    // stamps past the last zone do not exist: those blocks never change
    const have = Math.max(0, Math.min(blocks, stamps.length / 2 - this.firstBlock));
    const from = 2 * this.firstBlock;
    const G = FRAME_STAMP_GROUP;
    const g0 = Math.floor(this.firstBlock / G);
    const g1 = Math.ceil((this.firstBlock + have) / G); // one past the window's last group
    if (all || !this.seen || !this.seenGroups || this.owner !== s.frames.owner) {
      this.owner = s.frames.owner;
      this.seen = stamps.slice(from, from + 2 * have);
      this.seenGroups = groups.slice(2 * g0, 2 * g1);
      this.recount(s, 0, this.units);
      return null;
    }
    const seen = this.seen;
    const seenGroups = this.seenGroups;
    const out: number[] = [];
    const bf = this.blockFrames;
    let last = -1; // the last cell recounted
    for (let g = g0; g < g1; g++) {
      const j = 2 * (g - g0);
      const glo = groups[2 * g] as number;
      const ghi = groups[2 * g + 1] as number;
      if (glo === seenGroups[j] && ghi === seenGroups[j + 1]) continue; // none of its blocks moved
      seenGroups[j] = glo;
      seenGroups[j + 1] = ghi;
      // the group's blocks in the window, as indices from the window's first block
      const b0 = Math.max(0, g * G - this.firstBlock);
      const b1 = Math.min(have, (g + 1) * G - this.firstBlock);
      for (let b = b0; b < b1; b++) {
        const i = 2 * b;
        const lo = stamps[from + i] as number;
        const hi = stamps[from + i + 1] as number;
        if (lo === seen[i] && hi === seen[i + 1]) continue;
        seen[i] = lo;
        seen[i + 1] = hi;
        // the cells block firstBlock + b meets (a block may start before the window's first cell)
        const at = (this.firstBlock + b) * bf - this.start;
        const u0 = Math.max(0, Math.floor(at / this.unit));
        const u1 = Math.min(this.units, Math.ceil((at + bf) / this.unit));
        for (let u = Math.max(u0, last + 1); u < u1; u++) {
          this.recount(s, u, u + 1);
          out.push(u);
          last = u;
        }
      }
    }
    return out;
  }

  /**
   * The cells whose counts differ from other's (an overview of the same window), in order, and
   * the frames that differ at least: per cell, half the sum of its classes' differences (a frame
   * that moved from one class to another counts once).
   */
  differing(other: CellCounts): { cells: number[]; frames: number } {
    const k = FC.COUNT;
    const cells: number[] = [];
    let frames = 0;
    if (!other.fits(this.start, this.units, this.unit, this.blockFrames)) return { cells, frames };
    for (let u = 0; u < this.units; u++) {
      let apart = 0;
      for (let c = 0; c < k; c++)
        apart += Math.abs((this.counts[u * k + c] ?? 0) - (other.counts[u * k + c] ?? 0));
      if (apart) {
        cells.push(u);
        frames += apart / 2;
      }
    }
    return { cells, frames };
  }
}

/**
 * One map's overview across its renders: the same counts while the window and the geometry stay,
 * brought up to date with each state; new counts (every cell counted) when they change.
 */
export class OverviewKeeper {
  private held: CellCounts | null = null;

  /** The counts of s's cells of unit frames from start, and the cells recounted (null: all). */
  count(
    s: ModelState,
    start: number,
    units: number,
    unit: number,
  ): { ov: CellCounts; touched: number[] | null } {
    const blockFrames = 2 ** s.maxOrder;
    let ov = this.held;
    if (!ov || !ov.fits(start, units, unit, blockFrames)) {
      ov = new CellCounts(start, units, unit, blockFrames);
      this.held = ov;
    }
    return { ov, touched: ov.update(s) };
  }

  /** Forget the counts (the map is not an overview now). */
  drop(): void {
    this.held = null;
  }
}

/**
 * Paint overview units [0, units) or just `only` into pixels (one UNIT_PX square per cell, a
 * row of g.cols cells, CSS scales it to the grid): each cell its classes stacked from the bottom
 * by share. Written word by word in plain loops: a whole repaint of the 1 TiB machine's 8,192
 * cells is half a million words, and as typed-array fills of a few words each (a call apiece) it
 * cost ten times the writes. Allocates nothing per cell.
 */
export function paintUnits(
  px: Uint32Array,
  ov: CellCounts,
  g: Grid,
  colors: MapColors,
  only: readonly number[] | null,
): void {
  const k = FC.COUNT;
  const lut = colors.lut;
  const counts = ov.counts;
  const hole = lut[FC.HOLE] ?? 0;
  // a gap row and column between cells only when the bitmap is magnified: shrunk, a one-pixel
  // gap would come and go from cell to cell (moiré)
  const gap = g.cell >= UNIT_PX ? 1 : 0;
  const inner = UNIT_PX - gap;
  const stride = g.cols * UNIT_PX;
  const band = new Uint32Array(UNIT_PX); // the colour of each bitmap row of a cell, top down
  const n = only ? only.length : ov.units;
  for (let i = 0; i < n; i++) {
    const u = only ? (only[i] as number) : i;
    for (let y = 0; y < UNIT_PX; y++) band[y] = hole;
    let bottom = inner;
    for (let s = 0; s < STACK.length && bottom > 0; s++) {
      const c = STACK[s] as number;
      const frames = counts[u * k + c] ?? 0;
      if (!frames) continue;
      // at least a row (an eighth of the cell) for any class present: one frame of a thousand
      // still shows
      const h = Math.min(bottom, Math.max(1, Math.round((frames / ov.unit) * inner)));
      const color = lut[c] ?? hole;
      for (let y = bottom - h; y < bottom; y++) band[y] = color;
      bottom -= h;
    }
    const x0 = (u % g.cols) * UNIT_PX;
    const y0 = Math.floor(u / g.cols) * UNIT_PX;
    for (let y = 0; y < UNIT_PX; y++) {
      const at = (y0 + y) * stride + x0;
      const color = y < inner ? (band[y] as number) : hole;
      for (let x = 0; x < inner; x++) px[at + x] = color;
      if (gap) px[at + inner] = hole;
    }
  }
}
