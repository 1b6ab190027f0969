/*
 * MemoryMap.tsx: every page frame as a cell, coloured by what holds it: free on a buddy list (by
 * migratetype), on CPU n's per-CPU list, allocated, or corrupt. Each free block and each
 * allocation is outlined at its order (labelled where the label fits); zone and pageblock
 * boundaries are drawn; pointing at a block marks its buddy (pfn XOR 2^order); what the last step
 * changed is marked; a split animates one block becoming two halves and a merge two buddies
 * becoming one. Compared with another machine, the frames whose class differs are marked. Zoom
 * from 64 frames to the whole machine.
 *
 * Where a frame would be smaller than 2 px, the map is an overview: one cell per pageblock (or
 * larger aligned unit) filled by the share of its frames in each class, so a step that changes
 * one frame of a million still visibly changes a cell, and that cell is marked. The cells are
 * counted from block heads, never from painted frames (memory-map-overview.ts), so the overview
 * of a 1 TiB machine costs its 262,144 max-order blocks once and a step the blocks it changed.
 *
 * Drawing: stacked canvases. Zoomed in, the frames are one ImageData over pixels the core keeps
 * in the wasm heap (FrameImage, web/core/frame-image.ts), put onto a canvas of one pixel per
 * frame, which CSS scales to cells; a step repaints and puts only the blocks whose frames
 * changed, and the spans it repainted say which blocks the step changed. In the overview, the
 * cells recounted are those the step changed, and only they are drawn again (a bitmap of 8x8 px
 * a cell). Above, at screen resolution: the outlines and boundaries (redrawn per
 * state), then the event, the pointer's block and buddy and the cursor (redrawn per event and
 * pointer, animated). React owns the elements; effects only paint.
 */
import {
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type WheelEvent,
  useId,
} from 'react';
import { FrameImage } from '../core/frame-image';
import { allZones, FC, PG, type ModelState } from './model';
import {
  frameInfo,
  mapColors,
  pageblockIndex,
  paintFrames,
  pfnExtent,
  zoneOfPfn,
  type MapColors,
  type MapWindow,
} from './memory-map-paint';
import { blocksIn, buddyOf, overviewUnit, type Rect } from './memory-map-blocks';
import {
  OverviewKeeper,
  overviewOf,
  paintUnits,
  UNIT_PX,
  type CellCounts,
} from './memory-map-overview';
import {
  drawBlocks,
  drawEvent,
  drawMarks,
  drawPageblocks,
  drawZones,
  labelFont,
  LABEL_PX,
  PRESENTING_LABEL_PX,
  eventShape,
  ink,
  rectOn,
  type Grid,
} from './memory-map-draw';
import { eventAttrs, type ViewProps, type ViewSetting } from './options';
import { HIGHLIGHT, MIGRATETYPE_COLORS, migratetypeName } from './palette';
import { MapLegend } from './MapLegend';
import { formatCount } from '../core/count';
import { cpusLabel } from './numa/node-counters';

/** The legend depends on the theme alone: a step (a new state) leaves it as it is. */
const Legend = memo(MapLegend);

const MIN_VISIBLE = 64;
/** The map's height in px; presenting a lesson at 1920x1080 it takes over half the screen. */
const HEIGHT = 320;
const PRESENTING_HEIGHT = 640;
/** Presenting a step that points at another view: that view and the map fit one 1080 px screen. */
const ASIDE_HEIGHT = 400;
/** Frames shown around the event while the map follows it. */
const FOLLOW_FRAMES = 4096;
/** Below this many px per frame the map is the overview (cells of a pageblock or more). */
const MIN_FRAME_PX = 2;
/** The overview's cells are at least this many px square. */
const MIN_UNIT_PX = 6;
/** A split or merge takes this long (ms); reduced motion shows its end at once. */
const ANIMATION_MS = 450;
/** More changed spans than this is a seek, not a step: no marks. */
const MAX_MARKS = 64;

/** The map's options from the registry: the machine it is compared with, if any. */
export interface MemoryMapOptions {
  compare?: ModelState | null;
  /** One node's memory alone, headed with its CPUs (numa/NodeMaps.tsx draws one map per node). */
  node?: number;
  /** Whether to draw the legend (NodeMaps draws it once, under the last node's map). */
  legend?: boolean;
}

/** The frames of window w whose class differs between a and b (their colours under one palette). */
function differingFrames(a: ModelState, b: ModelState, w: MapWindow, colors: MapColors): number[] {
  const pa = new Uint32Array(w.count);
  const pb = new Uint32Array(w.count);
  paintFrames(a, w, colors, pa);
  paintFrames(b, w, colors, pb);
  const out: number[] = [];
  for (let i = 0; i < w.count; i++) if (pa[i] !== pb[i]) out.push(i);
  return out;
}

/** Runs of consecutive window indexes within one row: [first, length]. */
function runs(indexes: readonly number[], cols: number): [number, number][] {
  const out: [number, number][] = [];
  for (const i of indexes) {
    const last = out[out.length - 1];
    if (last && last[0] + last[1] === i && i % cols !== 0) last[1]++;
    else out.push([i, 1]);
  }
  return out;
}

/** Cells [a, b) of a grid as at most three rectangles: the rest of a's row, whole rows, b's row. */
function cellRects(g: Grid, a: number, b: number): Rect[] {
  if (b <= a) return [];
  const out: Rect[] = [];
  const ra = Math.floor(a / g.cols);
  const rb = Math.floor(b / g.cols);
  if (ra === rb)
    return [{ x: (a % g.cols) * g.cell, y: ra * g.cell, w: (b - a) * g.cell, h: g.cell }];
  let row = ra;
  if (a % g.cols) {
    out.push({
      x: (a % g.cols) * g.cell,
      y: ra * g.cell,
      w: (g.cols - (a % g.cols)) * g.cell,
      h: g.cell,
    });
    row++;
  }
  if (rb > row) out.push({ x: 0, y: row * g.cell, w: g.cols * g.cell, h: (rb - row) * g.cell });
  if (b % g.cols) out.push({ x: 0, y: rb * g.cell, w: (b % g.cols) * g.cell, h: g.cell });
  return out;
}

/** Milliseconds on the page's clock (the animation's). */
function now(): number {
  return performance.now();
}

function pow2ceil(n: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(1, n)));
}

/**
 * Columns for `count` items in a width x height box: the power of two giving the largest cells;
 * on a tie, the fewer columns (frames), or with `wide` the more (overview cells, which read best
 * filling the panel's width).
 */
function layout(
  count: number,
  width: number,
  height: number,
  wide = false,
): { cols: number; rows: number; cell: number } {
  let best = { cols: count, rows: 1, cell: width / count };
  for (let cols = 1; cols <= count; cols *= 2) {
    const rows = Math.ceil(count / cols);
    const cell = Math.min(width / cols, height / rows);
    if (cell > best.cell || (wide && cell === best.cell && cols <= count))
      best = { cols, rows, cell };
  }
  return best;
}

/**
 * The overview's unit for `frames` frames in a panel `width` wide: the smallest (a pageblock or
 * more) whose cells are MIN_UNIT_PX on average, or half of it when its grid of power-of-two
 * columns covers more of the panel with cells still 4 px or more (4096 cells of a 16 GiB
 * machine make a 64 x 64 square; 8192 fill the width).
 */
function overviewUnitFor(frames: number, pageblock: number, width: number, height: number): number {
  const unit = overviewUnit(frames, pageblock, Math.floor((width * height) / MIN_UNIT_PX ** 2));
  const area = (u: number) => {
    const g = layout(Math.ceil(frames / u), width, height, true);
    return g.cell >= 4 ? g.cols * g.rows * g.cell * g.cell : 0;
  };
  return unit / 2 >= pageblock && area(unit / 2) > area(unit) ? unit / 2 : unit;
}

/**
 * Whether a map follows the event until the reader says otherwise: in lessons, where the whole
 * machine would be an overview (under MIN_FRAME_PX a frame), so a step's change is drawn as blocks
 * rather than as a share of a cell.
 */
function followsByDefault(
  setting: ViewSetting | undefined,
  total: number,
  width: number,
  height: number,
): boolean {
  if (setting === undefined || total <= FOLLOW_FRAMES) return false;
  return layout(total, width, height).cell < MIN_FRAME_PX;
}

interface ToolbarProps {
  canZoomIn: boolean;
  canZoomOut: boolean;
  showFollow: boolean;
  follow: boolean;
  zoomBy: (factor: number) => void;
  showAll: () => void;
  setFollow: (on: boolean) => void;
}

/**
 * The zoom buttons and the follow switch, memoised on their few props: a step hands the map a new
 * state but changes none of them, and re-rendering a controlled checkbox rewrites its attributes.
 */
const MapToolbar = memo(function MapToolbar({
  canZoomIn,
  canZoomOut,
  showFollow,
  follow,
  zoomBy,
  showAll,
  setFollow,
}: ToolbarProps) {
  return (
    <div className="toolbar" role="group" aria-label="Memory map zoom">
      <button type="button" onClick={() => zoomBy(0.5)} disabled={!canZoomIn} aria-label="Zoom in">
        +
      </button>
      <button type="button" onClick={() => zoomBy(2)} disabled={!canZoomOut} aria-label="Zoom out">
        −
      </button>
      <button type="button" onClick={showAll} disabled={!canZoomOut}>
        All
      </button>
      {showFollow && (
        <label className="inline small">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} />{' '}
          Follow the event
        </label>
      )}
    </div>
  );
});

function describe(state: number): string {
  return (
    ['inside a block', 'free (buddy)', 'on a per-CPU list', 'allocated', 'corrupt'][state] ??
    'unknown'
  );
}

export function MemoryMap({ state, event, options }: ViewProps<MemoryMapOptions>) {
  const hid = useId();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(640);
  const node = options.node;
  const extent = useMemo(() => pfnExtent(state, node), [state, node]);
  const zones = allZones(state).filter(
    (z) => z.managed > 0 && (node === undefined || z.node === node),
  );
  const total = pow2ceil(extent.hi - extent.lo);
  const [zoom, setZoom] = useState<{ count: number; center: number } | null>(null);
  const [hover, setHover] = useState<number | null>(null);
  // null until the reader chooses: then the setting's default (below)
  const [followChoice, setFollow] = useState<boolean | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const drag = useRef<{ y: number; x: number; center: number } | null>(null);
  // The frames layer: one canvas pixel per frame, scaled to cells by CSS (the compositor scales,
  // not the main thread).
  const base = useRef<HTMLCanvasElement>(null);
  // The overview layer (one cell per unit) and the outlines layer (blocks, boundaries, marks).
  const overviewCanvas = useRef<HTMLCanvasElement>(null);
  const outlines = useRef<HTMLCanvasElement>(null);
  // The map's pixels in the wasm heap, which the core repaints where frames changed (a step
  // changes a few blocks of a million frames), and an ImageData over them, kept while they stay
  // where they are (a grown heap or another window size moves them).
  const frameImage = useRef<FrameImage | null>(null);
  const heapImage = useRef<{ words: Uint32Array; image: ImageData } | null>(null);
  // The image the frames canvas last got whole: only then can a put of the changed rows do.
  const onCanvas = useRef<ImageData | null>(null);
  // What the last repaint changed (window pixel ranges), null after a whole repaint.
  const changed = useRef<readonly (readonly [number, number])[] | null>(null);
  // The overview counts its canvas shows as they are.
  const overviewDrawn = useRef<CellCounts | null>(null);
  const overviewColors = useRef<MapColors | null>(null);
  const overviewImage = useRef<ImageData | null>(null);
  // The overview canvas those cells were put on (a zoom in and out again mounts another).
  const overviewTarget = useRef<HTMLCanvasElement | null>(null);
  // Whether the top layer holds any ink: a blank layer with nothing to draw is left alone.
  const overlayInk = useRef(true);
  const colors = useMemo(() => mapColors(options.theme), [options.theme]);
  const compare = options.compare ?? null;
  const height =
    options.setting === 'presenting'
      ? PRESENTING_HEIGHT
      : options.setting === 'presenting-aside'
        ? ASIDE_HEIGHT
        : HEIGHT;

  const labelPx =
    options.setting === 'presenting' || options.setting === 'presenting-aside'
      ? PRESENTING_LABEL_PX
      : LABEL_PX;

  // Following the event: keep its block in the middle, zoomed in enough to see it on a big machine.
  const setting = options.setting;
  const followDefault = useMemo(
    () => followsByDefault(setting, total, width, height),
    [setting, total, width, height],
  );
  const follow = followChoice ?? followDefault;
  // On one node's map, the event is drawn (and followed) only when it is in that node's memory.
  const eventZone = event ? zoneOfPfn(state, event.pfn) : undefined;
  const eventInMap = !!eventZone && (node === undefined || eventZone.node === node);
  const following = follow && eventInMap && !!event && event.pfn > 0;
  const count = Math.max(
    MIN_VISIBLE,
    Math.min(total, following && !zoom ? FOLLOW_FRAMES : (zoom?.count ?? total)),
  );
  const { cols, rows, cell } = layout(count, width, height);
  const pb = state.pageblockNrPages;
  // The overview when frames would be under MIN_FRAME_PX: units of a pageblock or more.
  const unit =
    cell >= MIN_FRAME_PX ? 1 : overviewUnitFor(rows * cols, Math.max(1, pb), width, height);
  const align = Math.max(cols, unit);
  // (a following map zoomed out to the whole machine shows it from its start)
  const centre =
    following && event && count < total ? event.pfn : (zoom?.center ?? extent.lo + count / 2);
  const start = Math.max(
    extent.lo - (extent.lo % align),
    Math.floor((centre - count / 2) / align) * align,
  );
  const win: MapWindow = useMemo(() => ({ start, count: rows * cols, cols }), [start, rows, cols]);
  const units = unit > 1 ? Math.ceil(win.count / unit) : 0;
  const unitLayout = useMemo(
    () => (units ? layout(units, width, height, true) : null),
    [units, width, height],
  );
  // The grid the strokes and the pointer use: frames, or overview units.
  const grid: Grid = useMemo(
    () =>
      unitLayout
        ? {
            start,
            per: unit,
            cols: unitLayout.cols,
            rows: unitLayout.rows,
            cell: unitLayout.cell,
            label: labelPx,
          }
        : { start, per: 1, cols, rows, cell, label: labelPx },
    [unitLayout, start, unit, cols, rows, cell, labelPx],
  );
  const boxW = grid.cols * grid.cell;
  const boxH = grid.rows * grid.cell;

  // The overview's counts, brought up to date with this state: only the cells that meet a block
  // the core stamped since (touched; null when every cell was counted), and the compared
  // machine's the same way, so compare mode costs what changed too.
  const [keepers] = useState(() => ({ own: new OverviewKeeper(), other: new OverviewKeeper() }));
  const cells = useMemo(() => {
    if (!units || !state.frames.live()) {
      keepers.own.drop();
      keepers.other.drop();
      return null;
    }
    const { ov, touched } = keepers.own.count(state, win.start, units, unit);
    const apart = compare?.frames.live()
      ? ov.differing(keepers.other.count(compare, win.start, units, unit).ov)
      : null;
    return { ov, touched, apart };
  }, [keepers, state, compare, win.start, units, unit]);

  useEffect(() => {
    const el = canvas.current?.parentElement?.parentElement;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(Math.max(240, Math.floor(el.clientWidth))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useEffect(
    () => () => {
      frameImage.current?.free();
      frameImage.current = null;
    },
    [],
  );

  // Frames: repainted only when the frames, the colours or the window change, never for the
  // event, the cursor or a hover (those are the top layer's).
  useEffect(() => {
    // The overview: its cells drawn from the counts, only those recounted unless the counts,
    // the canvas or the palette are new. The frames layer is not painted (it is hidden): at
    // 1 TiB it would be a gigabyte of pixels.
    if (cells) {
      const ov = cells.ov;
      const oc = overviewCanvas.current;
      const octx = oc?.getContext('2d');
      if (oc && octx) {
        const bw = grid.cols * UNIT_PX;
        const bh = grid.rows * UNIT_PX;
        let img = overviewImage.current;
        if (oc.width !== bw || oc.height !== bh || !img || img.width !== bw || img.height !== bh) {
          oc.width = bw;
          oc.height = bh;
          img = new ImageData(bw, bh);
          overviewImage.current = img;
          overviewDrawn.current = null;
        }
        // every cell when the counts were all counted again (another Sim), or are new, or the
        // palette is
        const whole =
          cells.touched === null ||
          overviewDrawn.current !== ov ||
          overviewColors.current !== colors ||
          overviewTarget.current !== oc;
        const words = new Uint32Array(img.data.buffer);
        if (whole) words.fill(colors.hole);
        const only = whole ? null : cells.touched;
        paintUnits(words, ov, grid, colors, only);
        if (only) {
          // Only the rows of cells repainted (touched is in order): the canvas holds the rest,
          // and a whole put of the 1 TiB map's bitmap is 2 MiB.
          const first = only[0];
          const last = only[only.length - 1];
          if (first !== undefined && last !== undefined) {
            const y0 = Math.floor(first / grid.cols) * UNIT_PX;
            const y1 = (Math.floor(last / grid.cols) + 1) * UNIT_PX;
            octx.putImageData(img, 0, 0, 0, y0, bw, y1 - y0);
          }
        } else {
          octx.putImageData(img, 0, 0);
        }
        overviewColors.current = colors;
        overviewDrawn.current = ov;
        overviewTarget.current = oc;
      }
      onCanvas.current = null; // the frames canvas is stale: painted whole when it shows again
      changed.current = null;
      return;
    }
    overviewDrawn.current = null;
    const c = base.current;
    const ctx = c?.getContext('2d');
    // A run that replaced the machine between this render and its effect disposed its Sim: the
    // next render brings the new one.
    if (!c || !ctx || !state.frames.live()) return;
    if (c.width !== cols || c.height !== rows) {
      c.width = cols; // assigning a canvas size clears it: only on change
      c.height = rows;
      onCanvas.current = null;
    }
    // The core's class map through the palette, in wasm, put straight from the heap (ImageData
    // over a heap view is not a copy; putImageData copies once, as it must).
    frameImage.current ??= new FrameImage();
    const { words, spans } = state.frames.paint(
      frameImage.current,
      win.start,
      win.count,
      colors.lut,
    );
    let held = heapImage.current;
    if (
      !held ||
      held.words.buffer !== words.buffer ||
      held.words.byteOffset !== words.byteOffset ||
      held.image.width !== cols ||
      held.image.height !== rows
    ) {
      // (The wasm heap is a plain ArrayBuffer, never shared.)
      const heap = words.buffer as ArrayBuffer;
      const bytes = new Uint8ClampedArray(heap, words.byteOffset, words.byteLength);
      held = { words, image: new ImageData(bytes, cols, rows) };
      heapImage.current = held;
    }
    const partial = !!spans && onCanvas.current === held.image;
    if (partial) {
      // Only the rows the core repainted: the canvas holds the rest already.
      for (const [lo, hi] of spans) {
        const y = Math.floor(lo / cols);
        ctx.putImageData(held.image, 0, 0, 0, y, cols, Math.ceil(hi / cols) - y);
      }
    } else {
      ctx.putImageData(held.image, 0, 0);
    }
    onCanvas.current = held.image;
    // (spans name what changed even when the image moved in a grown heap and is put whole)
    changed.current = spans;
  }, [state, colors, win, cols, rows, cells, grid]);

  // Frames that differ from the compared machine (window indexes), in compare mode only.
  // In the overview, the cells whose counts differ (cells.apart) instead: the window may be a
  // whole machine of hundreds of millions of frames.
  const differing = useMemo(
    () => (compare && unit === 1 ? differingFrames(state, compare, win, colors) : []),
    [state, compare, win, colors, unit],
  );

  // The blocks of the window, when each frame is big enough to outline (not in the overview).
  const blocks = useMemo(
    () => (unit === 1 ? blocksIn(state, win.start, win.start + win.count) : []),
    [state, win, unit],
  );
  const zoneSpans = useMemo(
    () => zones.map((z) => ({ name: z.name, lo: z.memPfn, hi: z.memPfn + z.managed })),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [state],
  );
  // The section: the outlines effect writes what it drew into its data attributes (for tests and
  // curious readers), without a render of its own.
  const section = useRef<HTMLElement>(null);

  // The outlines layer: pageblock stripes and boundaries, block outlines with their orders, zone
  // boundaries, what the last step changed, and frames that differ from the compared machine.
  useEffect(() => {
    const c = outlines.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    const cw = Math.ceil(boxW * dpr);
    const ch = Math.ceil(boxH * dpr);
    if (c.width !== cw) c.width = cw;
    if (c.height !== ch) c.height = ch;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, boxW, boxH);
    const lo = win.start;
    const hi = win.start + win.count;
    // Pageblock stripes: the pageblock's migratetype along the top of each row segment, once
    // cells are big enough to carry them (below 8 px a stripe would cover the cell's own colour).
    if (unit === 1 && cell >= 8 && pb > 0) {
      const seg = Math.min(pb, cols);
      const stripe = Math.max(2, Math.round(cell / 6));
      for (let p = lo; p < hi; p += seg) {
        const z = zoneOfPfn(state, p);
        if (!z) continue;
        const tag = state.pageblocks[pageblockIndex(state, z, p)] ?? 0;
        const r = rectOn(grid, p, 1);
        ctx.fillStyle = MIGRATETYPE_COLORS[tag & 0x7f] ?? '#999';
        ctx.fillRect(r.x, r.y, seg * cell, stripe);
      }
    }
    if (pb > 0) drawPageblocks(ctx, grid, pb, lo, hi, options.theme);
    const nBlocks = unit === 1 ? drawBlocks(ctx, grid, blocks, options.theme) : 0;
    const zoneLines = drawZones(ctx, grid, zoneSpans, options.theme);
    // What the last step changed: the blocks the core repainted, or the overview cells
    // recounted.
    const spans = changed.current;
    let marks = 0;
    const touched = cells?.touched;
    if (touched && touched.length <= MAX_MARKS) {
      const rects = touched.map((u) => rectOn(grid, lo + u * unit, unit));
      drawMarks(ctx, rects, HIGHLIGHT[options.theme], 10, [4, 3]);
      marks = rects.length;
    } else if (!cells && spans && spans.length <= MAX_MARKS) {
      const rects: Rect[] = [];
      for (const [a, b] of spans) {
        {
          // a span is whole rows, or part of one row
          const first = Math.floor(a / cols);
          const last = Math.ceil(b / cols);
          rects.push(
            last - first > 1
              ? { x: 0, y: first * cell, w: cols * cell, h: (last - first) * cell }
              : { x: (a % cols) * cell, y: first * cell, w: (b - a) * cell, h: cell },
          );
        }
      }
      drawMarks(ctx, rects, HIGHLIGHT[options.theme], 10, [4, 3]);
      marks = rects.length;
    }
    // Frames whose class differs from the compared machine: a hatch over each run (or cell).
    if (differing.length || cells?.apart?.cells.length) {
      const k = ink(options.theme);
      ctx.save();
      ctx.strokeStyle = k.diff;
      ctx.fillStyle = options.theme === 'dark' ? 'rgba(255,255,255,0.35)' : 'rgba(0,0,0,0.35)';
      ctx.lineWidth = 2;
      if (cells) {
        for (const u of cells.apart?.cells ?? []) {
          const r = rectOn(grid, lo + u * unit, unit);
          ctx.fillRect(r.x, r.y, r.w, r.h);
          ctx.strokeRect(r.x + 1, r.y + 1, r.w - 2, r.h - 2);
        }
      } else {
        for (const [i, n] of runs(differing, cols)) {
          const r = rectOn(grid, lo + i, 1);
          ctx.fillRect(r.x, r.y, n * cell, cell);
          ctx.strokeRect(r.x + 1, r.y + 1, Math.max(2, n * cell - 2), Math.max(2, cell - 2));
        }
      }
      ctx.restore();
    }
    // One node's map: its power-of-two window runs on into the next node's memory (or starts in
    // the previous one's); those frames are covered as holes, whole cells only.
    if (node !== undefined) {
      const h = colors.hole;
      ctx.fillStyle = `rgb(${h & 255},${(h >>> 8) & 255},${(h >>> 16) & 255})`;
      const before = Math.floor((extent.lo - lo) / grid.per);
      const after = Math.ceil((extent.hi - lo) / grid.per);
      for (const r of cellRects(grid, 0, before)) ctx.fillRect(r.x, r.y, r.w, r.h);
      for (const r of cellRects(grid, after, grid.cols * grid.rows))
        ctx.fillRect(r.x, r.y, r.w, r.h);
    }
    const el = section.current;
    if (el && cells) overviewOf.set(el, cells.ov);
    else if (el) overviewOf.delete(el);
    const d = el?.dataset;
    if (d) {
      // in the overview, the frames that differ at least (cells.apart.frames)
      d.differingFrames = String(
        compare ? (cells ? (cells.apart?.frames ?? 0) : differing.length) : -1,
      );
      d.blocks = String(nBlocks);
      d.zoneLines = String(zoneLines);
      d.changedMarks = String(marks);
    }
  }, [
    state,
    blocks,
    zoneSpans,
    differing,
    cells,
    compare,
    grid,
    boxW,
    boxH,
    win,
    unit,
    cell,
    cols,
    pb,
    options.theme,
    node,
    extent.lo,
    extent.hi,
    colors,
  ]);

  // The block under the pointer (or the cursor) and its buddy, in the frames view.
  const inspectPfn = hover ?? cursor ?? (event && event.pfn > 0 && eventInMap ? event.pfn : null);
  const info = inspectPfn !== null ? frameInfo(state, inspectPfn) : null;
  const pointedPfn = hover ?? cursor;
  const pointedInfo = pointedPfn !== null && unit === 1 ? frameInfo(state, pointedPfn) : null;
  const buddy =
    pointedInfo && pointedInfo.order < state.maxOrder
      ? buddyOf(pointedInfo.head, pointedInfo.order)
      : null;
  const buddyInfo = buddy !== null ? frameInfo(state, buddy) : null;
  const buddyInZone = !!buddyInfo && pointedInfo !== null && buddyInfo.zone === pointedInfo.zone;
  const pointedHead = pointedInfo?.head ?? -1;
  const pointedOrder = pointedInfo?.order ?? 0;

  // The overview cell under the pointer (or the keyboard cursor): its frames by class, from the
  // overview's counts.
  const cellPfn = unit > 1 ? (hover ?? cursor) : null;
  const cellIndex = cellPfn !== null ? Math.floor((cellPfn - win.start) / unit) : -1;
  const hoverCell =
    cells && cellIndex >= 0 && cellIndex < cells.ov.units
      ? {
          lo: win.start + cellIndex * unit,
          counts: cells.ov.counts.subarray(cellIndex * FC.COUNT, (cellIndex + 1) * FC.COUNT),
        }
      : null;

  // The top layer: the event (animated), the pointed block and its buddy, the keyboard cursor.
  const shape = useMemo(() => eventShape(event), [event]);
  const animStart = useRef<{ seq: number; at: number }>({ seq: -1, at: 0 });
  useEffect(() => {
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    const cw = Math.ceil(boxW * dpr);
    const ch = Math.ceil(boxH * dpr);
    const resized = c.width !== cw || c.height !== ch;
    if (c.width !== cw) c.width = cw;
    if (c.height !== ch) c.height = ch;
    const cursorShown = cursor !== null && cursor >= win.start && cursor < win.start + win.count;
    const eventShown = !!shape && !!event && eventInMap;
    const hasInk = eventShown || cursorShown || pointedHead >= 0;
    if (!hasInk && (resized || !overlayInk.current)) {
      overlayInk.current = false;
      return;
    }
    overlayInk.current = hasInk;
    const seq = event?.seq ?? -1;
    if (animStart.current.seq !== seq) animStart.current = { seq, at: now() };
    const animated = eventShown && !options.reducedMotion && shape.kind !== 'block';
    let raf = 0;
    const draw = () => {
      const t = animated ? (now() - animStart.current.at) / ANIMATION_MS : 1;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, boxW, boxH);
      if (pointedHead >= 0) {
        const r = rectOn(grid, pointedHead, 1 << pointedOrder);
        drawMarks(ctx, [r], HIGHLIGHT[options.theme], 0, [5, 3]);
        if (buddy !== null && buddyInZone) {
          const b = rectOn(grid, buddy, 1 << pointedOrder);
          drawMarks(ctx, [b], HIGHLIGHT[options.theme], 0, [2, 2]);
          ctx.font = labelFont(grid);
          ctx.fillStyle = HIGHLIGHT[options.theme];
          ctx.textBaseline = 'top';
          const label = 'buddy';
          const lw = ctx.measureText(label).width + 6;
          const x = Math.max(0, Math.min(boxW - lw, b.x + 2));
          ctx.fillRect(x, b.y + 2, lw, grid.label + 3);
          ctx.fillStyle = options.theme === 'dark' ? '#000' : '#fff';
          ctx.fillText(label, x + 3, b.y + 3);
        }
      }
      if (cursorShown) {
        const r = rectOn(grid, cursor, 1);
        ctx.save();
        ctx.setLineDash([3, 2]);
        ctx.strokeStyle = HIGHLIGHT[options.theme];
        ctx.lineWidth = 2;
        ctx.strokeRect(r.x - 1, r.y - 1, Math.max(4, r.w + 2), Math.max(4, r.h + 2));
        ctx.restore();
      }
      if (eventShown) drawEvent(ctx, grid, shape, t, options.theme);
      if (animated && t < 1) raf = requestAnimationFrame(draw);
    };
    draw();
    return () => cancelAnimationFrame(raf);
  }, [
    state,
    event,
    eventInMap,
    shape,
    options.theme,
    options.reducedMotion,
    grid,
    boxW,
    boxH,
    win,
    cursor,
    pointedHead,
    pointedOrder,
    buddy,
    buddyInZone,
  ]);

  const pfnAt = (clientX: number, clientY: number): number | null => {
    const r = canvas.current?.getBoundingClientRect();
    if (!r) return null;
    const x = Math.floor((clientX - r.left) / grid.cell);
    const y = Math.floor((clientY - r.top) / grid.cell);
    if (x < 0 || x >= grid.cols || y < 0 || y >= grid.rows) return null;
    return grid.start + (y * grid.cols + x) * grid.per;
  };

  // Stable while the view stays put (its inputs are numbers), so the memoised toolbar is too.
  const lo = extent.lo;
  const mid = win.start + win.count / 2;
  const zoomBy = useCallback(
    (factor: number, at?: number) => {
      const next = Math.max(MIN_VISIBLE, Math.min(total, pow2ceil(count * factor)));
      setZoom({ count: next, center: next >= total ? lo + total / 2 : (at ?? mid) });
    },
    [total, count, lo, mid],
  );
  // While following, no zoom means the event's neighbourhood: All asks for the whole machine.
  const showAll = useCallback(
    () => setZoom(following ? { count: total, center: lo + total / 2 } : null),
    [following, total, lo],
  );
  const panRows = (n: number) => setZoom({ count, center: centre + n * cols });

  const onWheel = (e: WheelEvent<HTMLCanvasElement>) => {
    if (!e.ctrlKey && !e.altKey) return; // plain wheel scrolls the page; ctrl/alt+wheel zooms
    zoomBy(e.deltaY > 0 ? 2 : 0.5, pfnAt(e.clientX, e.clientY) ?? undefined);
  };
  // Keyboard inspection: arrows move a cursor over the frames (the map pans to keep it in view),
  // Page Up/Down pan, + and - zoom, 0 shows everything. Shift+arrows still step the timeline.
  const moveCursor = (d: number) => {
    const from = cursor ?? (event && event.pfn > 0 ? event.pfn : win.start);
    const next = Math.max(extent.lo, Math.min(extent.hi - 1, from + d));
    setCursor(next);
    if (next < win.start || next >= win.start + win.count) setZoom({ count, center: next });
  };
  const onKey = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const k = e.key;
    if (e.shiftKey && k.startsWith('Arrow')) return;
    if (k === '+' || k === '=') zoomBy(0.5);
    else if (k === '-') zoomBy(2);
    else if (k === '0') showAll();
    else if (k === 'ArrowLeft') moveCursor(-grid.per);
    else if (k === 'ArrowRight') moveCursor(grid.per);
    else if (k === 'ArrowUp') moveCursor(-grid.cols * grid.per);
    else if (k === 'ArrowDown') moveCursor(grid.cols * grid.per);
    else if (k === 'PageUp') panRows(-Math.max(1, rows / 2));
    else if (k === 'PageDown') panRows(Math.max(1, rows / 2));
    else if (k === 'Escape') setCursor(null);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    drag.current = { x: e.clientX, y: e.clientY, center: centre };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    setHover(pfnAt(e.clientX, e.clientY));
    const d = drag.current;
    if (d && count < total) {
      const dy = Math.round((d.y - e.clientY) / grid.cell);
      if (dy !== 0) setZoom({ count, center: d.center + dy * grid.cols * grid.per });
    }
  };

  let infoText = 'Point at a cell (or step to an event) to see what holds that frame.';
  if (info) {
    const where =
      info.state === PG.BUDDY
        ? ` on the ${migratetypeName(info.list)} free list`
        : info.state === PG.PCP || info.state === PG.ALLOCATED
          ? ` (CPU ${info.cpu})`
          : '';
    infoText =
      `pfn ${info.pfn} (${info.zone.name}): ${describe(info.state)}${where}, in the order-${info.order} block at pfn ${info.head}; ` +
      `pageblock ${migratetypeName(info.pageblockMt)}.`;
  }
  if (pointedInfo && buddy !== null) {
    infoText +=
      buddyInZone && buddyInfo
        ? ` Its buddy (pfn ${pointedInfo.head} XOR 2^${pointedInfo.order}) is pfn ${buddy}: ${describe(buddyInfo.state)}, in the order-${buddyInfo.order} block at pfn ${buddyInfo.head}.`
        : ` Its buddy (pfn ${pointedInfo.head} XOR 2^${pointedInfo.order}) is pfn ${buddy}, outside the zone.`;
  }
  if (hoverCell) {
    const n = (c: number) => hoverCell.counts[c] ?? 0;
    let free = 0;
    for (let mt = 0; mt < FC.PCP_EVEN - FC.BUDDY; mt++) free += n(FC.BUDDY + mt);
    const pct = (x: number) => `${Math.round((100 * x) / unit)}%`;
    infoText = `pfn ${hoverCell.lo}–${hoverCell.lo + unit - 1} (one cell of ${formatCount(unit)} frames): ${pct(free)} free, ${pct(n(FC.PCP_EVEN) + n(FC.PCP_ODD))} on per-CPU lists, ${pct(n(FC.ALLOCATED))} allocated. Zoom in to see its blocks.`;
  }
  // A node's map window is a power of two that may run into the next node's frames (covered as
  // holes): the caption names only this node's part of it.
  const shownLo = node === undefined ? win.start : Math.max(win.start, extent.lo);
  const shownHi =
    node === undefined ? win.start + win.count : Math.min(win.start + win.count, extent.hi);
  const shown = `pfn ${shownLo}–${shownHi - 1}`;
  const mode = unit > 1 ? 'overview' : 'blocks';
  const mapName = node === undefined ? 'Memory map' : `Memory map of node ${node}`;

  return (
    <section
      ref={section}
      className="view memory-map"
      {...eventAttrs(event)}
      data-highlight-pfn={event?.pfn ?? -1}
      data-node={node ?? -1}
      data-event-here={eventInMap}
      data-mode={mode}
      data-unit={unit}
      data-pointed-block={pointedInfo ? `${pointedInfo.head}/${pointedInfo.order}` : ''}
      data-buddy-pfn={buddy !== null && buddyInZone ? buddy : -1}
      data-event-shape={shape?.kind ?? ''}
    >
      <header className="view-head">
        <h3 id={hid}>
          {node === undefined ? 'Memory map' : `Node ${node} · ${cpusLabel(state.nodes[node])}`}
        </h3>
        <MapToolbar
          canZoomIn={count > MIN_VISIBLE}
          canZoomOut={count < total}
          showFollow={total > 256}
          follow={follow}
          zoomBy={zoomBy}
          showAll={showAll}
          setFollow={setFollow}
        />
      </header>
      <div className="canvas-box">
        <div style={{ position: 'relative', width: boxW, height: boxH }}>
          <canvas
            ref={base}
            data-layer="frames"
            data-start={win.start}
            aria-hidden="true"
            // Magnified cells stay crisp. In the overview it is hidden and not painted (the
            // cells layer is drawn from counts instead).
            style={{
              width: cols * cell,
              height: rows * cell,
              imageRendering: 'pixelated',
              visibility: unit > 1 ? 'hidden' : 'visible',
            }}
          />
          {unit > 1 && (
            <canvas
              ref={overviewCanvas}
              data-layer="overview"
              aria-hidden="true"
              style={{
                position: 'absolute',
                left: 0,
                top: 0,
                width: boxW,
                height: boxH,
                imageRendering: grid.cell >= UNIT_PX ? 'pixelated' : 'auto',
              }}
            />
          )}
          <canvas
            ref={outlines}
            data-layer="outlines"
            aria-hidden="true"
            style={{ position: 'absolute', left: 0, top: 0, width: boxW, height: boxH }}
          />
          <canvas
            ref={canvas}
            data-layer="overlay"
            style={{ position: 'absolute', left: 0, top: 0, width: boxW, height: boxH }}
            tabIndex={0}
            role="img"
            aria-label={
              unit > 1
                ? `${mapName} overview, ${shown}, one cell per ${unit} frames, ${grid.cols} cells per row. Arrow keys inspect cells, Page Up and Down pan, plus and minus zoom, 0 shows all.`
                : `${mapName}, ${shown}, ${cols} frames per row, each block outlined. Arrow keys inspect frames, Page Up and Down pan, plus and minus zoom, 0 shows all.`
            }
            onWheel={onWheel}
            onKeyDown={onKey}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={() => (drag.current = null)}
            onPointerLeave={() => {
              drag.current = null;
              setHover(null);
            }}
          />
        </div>
      </div>
      <span className="visually-hidden" aria-live="polite">
        {cursor !== null ? infoText : ''}
      </span>
      <p className="map-info" data-testid="map-info">
        <span className="muted">
          {shown} · {formatCount(node === undefined ? count : shownHi - shownLo)} frames ·{' '}
          {unit > 1 ? `overview, ${formatCount(unit)} frames a cell` : `${cols}/row`} ·{' '}
        </span>
        {infoText}
      </p>
      {zones.length > 1 && (
        <p className="small zone-jumps">
          Zones:{' '}
          {zones.map((z) => (
            <button
              key={`${z.node}-${z.idx}`}
              type="button"
              className="link-like"
              onClick={() =>
                setZoom({
                  count: Math.max(MIN_VISIBLE, pow2ceil(z.managed)),
                  center: z.memPfn + z.managed / 2,
                })
              }
            >
              {state.nodes.length > 1 ? `node ${z.node} ` : ''}
              {z.name} (pfn {formatCount(z.memPfn)}–{formatCount(z.memPfn + z.managed - 1)})
            </button>
          ))}
        </p>
      )}
      {options.legend !== false && <Legend theme={options.theme} />}
    </section>
  );
}
