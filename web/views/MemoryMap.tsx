/*
 * MemoryMap.tsx: every page frame as a cell, coloured by what holds it: free on a buddy list (by
 * migratetype), on CPU n's per-CPU list, allocated, or corrupt. Pageblocks show as boundaries and
 * a stripe in their migratetype's colour once cells are big enough to carry them. Zoom from 64
 * frames to the whole machine (4M frames); the current event's block is outlined at every zoom.
 *
 * Drawing: two stacked canvases. The frames are one ImageData over pixels the core keeps in the
 * wasm heap (FrameImage, web/core/frame-image.ts), put onto a canvas of one pixel per frame, which
 * CSS scales to cells; a step repaints and puts only the blocks whose frames changed. Above it, an overlay at screen resolution holds the few strokes
 * that follow the event, the cursor and the zoom. React owns both elements; effects only paint.
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
import { allZones, PG } from './model';
import {
  frameInfo,
  mapColors,
  pageblockIndex,
  pfnExtent,
  zoneOfPfn,
  type MapWindow,
} from './memory-map-paint';
import { eventAttrs, type ViewProps } from './options';
import { HIGHLIGHT, MIGRATETYPE_COLORS, migratetypeName } from './palette';
import { MapLegend } from './MapLegend';
import { formatCount } from '../core/count';

/** The legend depends on the theme alone: a step (a new state) leaves it as it is. */
const Legend = memo(MapLegend);

const MIN_VISIBLE = 64;
const HEIGHT = 320;

function pow2ceil(n: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(1, n)));
}

/** Columns for `count` frames in a width x height box: the power of two giving the largest cells. */
function layout(
  count: number,
  width: number,
  height: number,
): { cols: number; rows: number; cell: number } {
  let best = { cols: count, rows: 1, cell: width / count };
  for (let cols = 1; cols <= count; cols *= 2) {
    const rows = Math.ceil(count / cols);
    const cell = Math.min(width / cols, height / rows);
    if (cell > best.cell) best = { cols, rows, cell };
  }
  return best;
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

export function MemoryMap({ state, event, options }: ViewProps) {
  const hid = useId();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(640);
  const extent = useMemo(() => pfnExtent(state), [state]);
  const zones = allZones(state).filter((z) => z.managed > 0);
  const total = pow2ceil(extent.hi - extent.lo);
  const [zoom, setZoom] = useState<{ count: number; center: number } | null>(null);
  const [hover, setHover] = useState<number | null>(null);
  const [follow, setFollow] = useState(false);
  const [cursor, setCursor] = useState<number | null>(null);
  const drag = useRef<{ y: number; x: number; center: number } | null>(null);
  // The frames layer: one canvas pixel per frame, scaled to cells by CSS (the compositor scales,
  // not the main thread).
  const base = useRef<HTMLCanvasElement>(null);
  // The map's pixels in the wasm heap, which the core repaints where frames changed (a step
  // changes a few blocks of a million frames), and an ImageData over them, kept while they stay
  // where they are (a grown heap or another window size moves them).
  const frameImage = useRef<FrameImage | null>(null);
  const heapImage = useRef<{ words: Uint32Array; image: ImageData } | null>(null);
  // The image the frames canvas last got whole: only then can a put of the changed rows do.
  const onCanvas = useRef<ImageData | null>(null);
  // Whether the overlay holds any ink: a blank overlay with nothing to draw is left alone.
  const overlayInk = useRef(true);
  const colors = useMemo(() => mapColors(options.theme), [options.theme]);

  // Following the event: keep its block in the middle, zoomed in enough to see it on a big machine.
  const following = follow && !!event && event.pfn > 0;
  const count = Math.max(
    MIN_VISIBLE,
    Math.min(total, following && !zoom ? 4096 : (zoom?.count ?? total)),
  );
  const { cols, rows, cell } = layout(count, width, HEIGHT);
  const centre = following && event ? event.pfn : (zoom?.center ?? extent.lo + count / 2);
  const start = Math.max(
    extent.lo - (extent.lo % cols),
    Math.floor((centre - count / 2) / cols) * cols,
  );
  const win: MapWindow = useMemo(() => ({ start, count: rows * cols, cols }), [start, rows, cols]);

  useEffect(() => {
    const el = canvas.current?.parentElement;
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
  // event, the cursor or a hover (those are the overlay's).
  useEffect(() => {
    const c = base.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
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
    if (spans && onCanvas.current === held.image) {
      // Only the rows the core repainted: the canvas holds the rest already.
      for (const [lo, hi] of spans) {
        const y = Math.floor(lo / cols);
        ctx.putImageData(held.image, 0, 0, 0, y, cols, Math.ceil(hi / cols) - y);
      }
    } else {
      ctx.putImageData(held.image, 0, 0);
    }
    onCanvas.current = held.image;
  }, [state, colors, win, cols, rows]);

  // The overlay: pageblock stripes, block outlines, the keyboard cursor and the event's block.
  useEffect(() => {
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    const w = cols * cell;
    const h = rows * cell;
    const cw = Math.ceil(w * dpr);
    const ch = Math.ceil(h * dpr);
    const pb = state.pageblockNrPages;
    // What there is to draw (below 8 px a stripe would cover too much of the cell's own colour).
    const stripes = cell >= 8 && pb > 0;
    const outlines = cell >= 10;
    const cursorShown = cursor !== null && cursor >= win.start && cursor < win.start + win.count;
    const eventShown = !!event && event.pfn > 0 && !!zoneOfPfn(state, event.pfn);
    const ink = stripes || outlines || cursorShown || eventShown;
    // A size assignment clears the canvas, so only on change; a blank overlay staying blank (the
    // whole map at a small zoom with no event) needs no clearing either.
    const resized = c.width !== cw || c.height !== ch;
    if (c.width !== cw) c.width = cw;
    if (c.height !== ch) c.height = ch;
    if (!ink && (resized || !overlayInk.current)) {
      overlayInk.current = false;
      return;
    }
    overlayInk.current = ink;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);

    const xy = (pfn: number): [number, number] => {
      const i = pfn - win.start;
      return [(i % cols) * cell, Math.floor(i / cols) * cell];
    };
    const line = options.theme === 'dark' ? 'rgba(255,255,255,0.55)' : 'rgba(0,0,0,0.45)';

    // Pageblocks: a stripe in the pageblock's migratetype along the top of each row segment, and
    // a boundary line between pageblocks, once cells are big enough to show them.
    if (stripes) {
      const seg = Math.min(pb, cols);
      const stripe = Math.max(2, Math.round(cell / 6));
      for (let p = win.start; p < win.start + win.count; p += seg) {
        const z = zoneOfPfn(state, p);
        if (!z) continue;
        const tag = state.pageblocks[pageblockIndex(state, z, p)] ?? 0;
        const [x, y] = xy(p);
        ctx.fillStyle = MIGRATETYPE_COLORS[tag & 0x7f] ?? '#999';
        ctx.fillRect(x, y, seg * cell, stripe);
        if (p % pb === 0) {
          ctx.strokeStyle = line;
          ctx.lineWidth = 1;
          ctx.beginPath();
          if (pb >= cols) {
            ctx.moveTo(0, y + 0.5);
            ctx.lineTo(cols * cell, y + 0.5);
          } else {
            ctx.moveTo(x + 0.5, y);
            ctx.lineTo(x + 0.5, y + cell);
          }
          ctx.stroke();
        }
      }
    }
    // Block outlines when each cell is large: where one free or allocated block ends.
    if (outlines) {
      ctx.strokeStyle = options.theme === 'dark' ? 'rgba(0,0,0,0.6)' : 'rgba(255,255,255,0.8)';
      ctx.lineWidth = 1;
      for (let p = win.start; p < win.start + win.count; p++) {
        const info = frameInfo(state, p);
        if (!info || info.head !== p) continue;
        const size = 1 << info.order;
        for (let q = p; q < p + size && q < win.start + win.count; q += cols - (q % cols)) {
          const [x, y] = xy(q);
          const len = Math.min(p + size - q, cols - (q % cols));
          ctx.strokeRect(x + 0.5, y + 0.5, len * cell - 1, cell - 1);
        }
      }
    }
    // The keyboard cursor: a dashed frame around one cell.
    if (cursorShown) {
      const [x, y] = xy(cursor);
      ctx.save();
      ctx.setLineDash([3, 2]);
      ctx.strokeStyle = HIGHLIGHT[options.theme];
      ctx.lineWidth = 2;
      ctx.strokeRect(x - 1, y - 1, Math.max(4, cell + 2), Math.max(4, cell + 2));
      ctx.restore();
    }
    // The current event's block: outlined, and ringed when cells are too small to see.
    if (eventShown && event) {
      const size = 1 << event.order;
      ctx.strokeStyle = HIGHLIGHT[options.theme];
      ctx.lineWidth = 2;
      for (let q = event.pfn; q < event.pfn + size; q += cols - (q % cols)) {
        if (q < win.start || q >= win.start + win.count) continue;
        const [x, y] = xy(q);
        const len = Math.min(event.pfn + size - q, cols - (q % cols));
        ctx.strokeRect(x + 1, y + 1, Math.max(2, len * cell - 2), Math.max(2, cell - 2));
      }
      if (cell < 4 && event.pfn >= win.start && event.pfn < win.start + win.count) {
        const [x, y] = xy(event.pfn);
        ctx.beginPath();
        ctx.arc(x + cell / 2, y + cell / 2, 7, 0, Math.PI * 2);
        ctx.stroke();
      }
    }
  }, [state, event, options.theme, cols, rows, cell, win, cursor]);

  const pfnAt = (clientX: number, clientY: number): number | null => {
    const r = canvas.current?.getBoundingClientRect();
    if (!r) return null;
    const x = Math.floor((clientX - r.left) / cell);
    const y = Math.floor((clientY - r.top) / cell);
    if (x < 0 || x >= cols || y < 0 || y >= rows) return null;
    return win.start + y * cols + x;
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
  const showAll = useCallback(() => setZoom(null), []);
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
    else if (k === '0') setZoom(null);
    else if (k === 'ArrowLeft') moveCursor(-1);
    else if (k === 'ArrowRight') moveCursor(1);
    else if (k === 'ArrowUp') moveCursor(-cols);
    else if (k === 'ArrowDown') moveCursor(cols);
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
      const dy = Math.round((d.y - e.clientY) / cell);
      if (dy !== 0) setZoom({ count, center: d.center + dy * cols });
    }
  };

  const inspectPfn = hover ?? cursor ?? (event && event.pfn > 0 ? event.pfn : null);
  const info = inspectPfn !== null ? frameInfo(state, inspectPfn) : null;
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
  const shown = `pfn ${win.start}–${win.start + win.count - 1}`;

  return (
    <section
      className="view memory-map"
      {...eventAttrs(event)}
      data-highlight-pfn={event?.pfn ?? -1}
    >
      <header className="view-head">
        <h3 id={hid}>Memory map</h3>
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
        <div style={{ position: 'relative', width: cols * cell, height: rows * cell }}>
          <canvas
            ref={base}
            data-layer="frames"
            data-start={win.start}
            aria-hidden="true"
            // Magnified cells stay crisp; shrunk ones are filtered rather than picked one in n.
            style={{
              width: cols * cell,
              height: rows * cell,
              imageRendering: cell >= 1 ? 'pixelated' : 'auto',
            }}
          />
          <canvas
            ref={canvas}
            data-layer="overlay"
            style={{
              position: 'absolute',
              left: 0,
              top: 0,
              width: cols * cell,
              height: rows * cell,
            }}
            tabIndex={0}
            role="img"
            aria-label={`Memory map, ${shown}, ${cols} frames per row. Arrow keys inspect frames, Page Up and Down pan, plus and minus zoom, 0 shows all.`}
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
          {shown} · {formatCount(count)} frames · {cols}/row ·{' '}
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
      <Legend theme={options.theme} />
    </section>
  );
}
