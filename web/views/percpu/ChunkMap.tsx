/*
 * ChunkMap.tsx: one percpu chunk as the allocator sees it. Its units (one per possible CPU) stand
 * side by side, each a strip of cells of the allocator's granule (4 bytes for the bitmap
 * allocator, 2 for the area map), 256 bytes to a row and 16 rows to a page: allocated areas in
 * two alternating colours, boundary bits (bound_map, or the area map's entries) as dark ticks at
 * a cell's left edge, unpopulated pages hatched. Over the first unit the page blocks' hints are
 * drawn as marks: contig_hint outlined, scan_hint dashed, first_free a triangle; a table says
 * the same in numbers. The area the current event is about is outlined in every unit.
 *
 * Cells are painted on a canvas (a 1 MiB unit is 262,144 cells); the marks are SVG over it, in
 * the same coordinates. A window of pages is drawn at a time (one page close up, or four); it
 * follows the current event unless the reader picks a chunk or pages. No motion: a step
 * repaints at once.
 */
import { useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import { EV } from '../../core/events';
import type { SimEvent } from '../model';
import { eventAttrs, type ViewOptions } from '../options';
import { HIGHLIGHT, type Theme } from '../palette';
import {
  CELL,
  cellBytes,
  chunkCells,
  chunkName,
  type BlockMd,
  type ChunkDetail,
  type PercpuView,
} from './percpu-view';
import './percpu.css';

/** Okabe–Ito blue and orange for neighbouring areas; grey for the unusable head and tail. */
export const CHUNK_COLORS = {
  light: {
    a: '#0072B2',
    b: '#E69F00',
    free: '#E3E8EE',
    hole: '#FFFFFF',
    hatch: '#9AA3AE',
    unusable: '#4B5563',
    tick: '#000000',
  },
  dark: {
    a: '#56B4E9',
    b: '#E69F00',
    free: '#323A44',
    hole: '#15191E',
    hatch: '#56606C',
    unusable: '#9CA3AF',
    tick: '#FFFFFF',
  },
} as const;

const PAGE_BYTES = 4096;
const UNIT_W = 256; // px per unit strip: a row of 256 bytes
const PAGE_GAP = 3;
const UNIT_GAP = 12;
/**
 * The two scales: the overview draws 4 pages in rows of 256 bytes (4-pixel cells for 4 bytes),
 * the close-up one page in rows of 128 bytes (8-pixel cells), for areas of a few bytes.
 */
export const SCALES = {
  overview: { pages: 4, rowBytes: 256, rowH: 4 },
  close: { pages: 1, rowBytes: 128, rowH: 8 },
} as const;
/** Units drawn side by side at most (every unit is the same). */
export const UNITS_SHOWN = 4;

/** The chunk, byte range and pages the event is about, or null. */
export function eventTarget(
  e: SimEvent | null,
  cb: number,
): { chunk: number; from: number; to: number } | null {
  if (!e) return null;
  switch (e.kind) {
    case EV.PERCPU_ALLOC_PERCPU:
    case EV.PERCPU_FREE_PERCPU:
      return { chunk: e.pfn, from: e.a, to: e.a + e.b };
    case EV.PERCPU_POPULATE:
    case EV.PERCPU_DEPOPULATE:
      return { chunk: e.pfn, from: e.a * PAGE_BYTES, to: e.b * PAGE_BYTES };
    case EV.PERCPU_BLOCK_FIT:
      return { chunk: e.pfn, from: e.a * cb, to: e.a * cb + cb };
    case EV.PERCPU_BLOCK_REFRESH:
      return { chunk: e.pfn, from: e.a * PAGE_BYTES, to: (e.a + 1) * PAGE_BYTES };
    case EV.PERCPU_CREATE_CHUNK:
    case EV.PERCPU_DESTROY_CHUNK:
    case EV.PERCPU_RELOCATE:
    case EV.PERCPU_AREA_ALLOC:
    case EV.PERCPU_AREA_FREE:
    case EV.PERCPU_MAP_EXTEND:
    case EV.PERCPU_CHUNK_REFRESH:
    case EV.PERCPU_HINT_KEPT:
      return { chunk: e.pfn, from: -1, to: -1 };
    default:
      return null;
  }
}

function hatch(ctx: CanvasRenderingContext2D, colors: (typeof CHUNK_COLORS)[Theme]) {
  const p = document.createElement('canvas');
  p.width = 6;
  p.height = 6;
  const g = p.getContext('2d');
  if (!g) return colors.hole;
  g.fillStyle = colors.hole;
  g.fillRect(0, 0, 6, 6);
  g.strokeStyle = colors.hatch;
  g.beginPath();
  g.moveTo(0, 6);
  g.lineTo(6, 0);
  g.stroke();
  return ctx.createPattern(p, 'repeat') ?? colors.hole;
}

type Target = ReturnType<typeof eventTarget>;

function sameTarget(a: Target, b: Target): boolean {
  return a?.chunk === b?.chunk && a?.from === b?.from && a?.to === b?.to;
}

interface Geometry {
  cb: number; // bytes per cell
  perRow: number; // cells per row
  rowBytes: number;
  rowH: number; // px
  pageH: number; // px
  cellW: number;
  firstPage: number;
  pages: number;
  units: number;
}

function cellXY(g: Geometry, cell: number, unit: number): [number, number] {
  const row = Math.floor(cell / g.perRow);
  const page = Math.floor((row * g.rowBytes) / PAGE_BYTES) - g.firstPage;
  const rowInPage = row - ((page + g.firstPage) * PAGE_BYTES) / g.rowBytes;
  return [
    unit * (UNIT_W + UNIT_GAP) + (cell - row * g.perRow) * g.cellW,
    page * (g.pageH + PAGE_GAP) + rowInPage * g.rowH,
  ];
}

/**
 * The outline of bytes [from, to) of one unit as SVG path data, one closed shape per page: a
 * run over several rows is one outline (first row from its column, whole rows, last row to its
 * column), not a box per row.
 */
export function runPath(g: Geometry, from: number, to: number, unit: number): string {
  const out: string[] = [];
  const lo = Math.max(from, g.firstPage * PAGE_BYTES);
  const hi = Math.min(to, (g.firstPage + g.pages) * PAGE_BYTES);
  const cellsPerPage = PAGE_BYTES / g.cb;
  for (let page = Math.floor(lo / PAGE_BYTES); page * PAGE_BYTES < hi; page++) {
    const a = Math.max(lo, page * PAGE_BYTES) / g.cb - page * cellsPerPage;
    const b = Math.ceil(Math.min(hi, (page + 1) * PAGE_BYTES) / g.cb) - page * cellsPerPage;
    if (b <= a) continue;
    const [x0, y0] = cellXY(g, page * cellsPerPage, unit);
    const X = (col: number) => x0 + col * g.cellW;
    const Y = (row: number) => y0 + row * g.rowH;
    const ra = Math.floor(a / g.perRow);
    const rb = Math.floor((b - 1) / g.perRow);
    const ca = a - ra * g.perRow;
    const cb = b - rb * g.perRow;
    const rect = (c0: number, c1: number, r0: number, r1: number) =>
      `M${X(c0)},${Y(r0)}H${X(c1)}V${Y(r1)}H${X(c0)}Z`;
    if (ra === rb) out.push(rect(ca, cb, ra, ra + 1));
    else if (rb === ra + 1 && cb <= ca)
      out.push(rect(ca, g.perRow, ra, ra + 1), rect(0, cb, rb, rb + 1));
    else
      out.push(
        `M${X(ca)},${Y(ra)}H${X(g.perRow)}V${Y(rb)}H${X(cb)}V${Y(rb + 1)}H${X(0)}V${Y(ra + 1)}H${X(ca)}Z`,
      );
  }
  return out.join('');
}

function paint(
  canvas: HTMLCanvasElement,
  g: Geometry,
  d: ChunkDetail,
  cells: ReturnType<typeof chunkCells>,
  theme: Theme,
) {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const colors = CHUNK_COLORS[theme];
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const hole = hatch(ctx, colors);
  const fills = [colors.free, colors.unusable, colors.a, colors.b];
  const cellsPerPage = PAGE_BYTES / g.cb;
  for (let u = 0; u < g.units; u++) {
    for (let p = 0; p < g.pages; p++) {
      const page = g.firstPage + p;
      const populated = d.populated[page] ?? false;
      const [px, py] = cellXY(g, page * cellsPerPage, u);
      ctx.fillStyle = populated ? colors.free : hole;
      ctx.fillRect(px, py, UNIT_W, g.pageH);
      for (let i = page * cellsPerPage; i < (page + 1) * cellsPerPage; i++) {
        const k = cells.cells[i] ?? 0;
        const [x, y] = cellXY(g, i, u);
        if (k !== CELL.FREE) {
          ctx.fillStyle = fills[k] ?? colors.free;
          ctx.fillRect(x, y, g.cellW, g.rowH);
        }
        if (cells.bound[i]) {
          ctx.fillStyle = colors.tick;
          ctx.fillRect(x, y, Math.max(1, g.cellW / 4), g.rowH);
        }
      }
    }
  }
}

/** The hints of one page block as SVG marks over the first unit. */
function BlockMarks({ g, md, page }: { g: Geometry; md: BlockMd; page: number }) {
  const base = page * PAGE_BYTES;
  const marks: ReactElement[] = [];
  const outline = (from: number, to: number, cls: string, key: string) => (
    <path key={key} d={runPath(g, base + from * 4, base + to * 4, 0)} className={cls} />
  );
  if (md.contigHint > 0)
    marks.push(outline(md.contigHintStart, md.contigHintStart + md.contigHint, 'hint-contig', 'c'));
  if (md.scanHint > 0)
    marks.push(outline(md.scanHintStart, md.scanHintStart + md.scanHint, 'hint-scan', 's'));
  if (md.firstFree < md.nrBits) {
    const [x, y] = cellXY(g, (base + md.firstFree * 4) / g.cb, 0);
    marks.push(<path key="f" d={`M${x},${y + g.rowH} l-3,-5 h6 z`} className="hint-first" />);
  }
  return <g data-block={page}>{marks}</g>;
}

export interface ChunkMapViewProps {
  view: PercpuView;
  event: SimEvent | null;
  options: ViewOptions;
}

export function ChunkMapView({ view, event, options }: ChunkMapViewProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const cb = cellBytes(view);
  const target = eventTarget(event, cb);
  const [pick, setPick] = useState<{ chunk: number; page: number } | null>(null);
  const follow = pick === null;
  const chunks = view.chunks;
  const followed = target && chunks.some((c) => c.index === target.chunk) ? target : null;
  // The last percpu place an event pointed at: kept while events of other subsystems go by.
  const [lastFollowed, setLastFollowed] = useState(followed);
  if (follow && followed && !sameTarget(followed, lastFollowed)) setLastFollowed(followed);
  const chunkIndex = pick?.chunk ?? lastFollowed?.chunk ?? chunks[0]?.index ?? 0;
  const c = chunks.find((x) => x.index === chunkIndex) ?? chunks[0];
  const nrPages = c?.nrPages ?? 0;
  const [close, setClose] = useState(true);
  const scale = close ? SCALES.close : SCALES.overview;
  const pages = Math.min(scale.pages, nrPages);
  const wanted =
    pick?.page ??
    (lastFollowed && lastFollowed.from >= 0 && lastFollowed.chunk === c?.index
      ? Math.floor(lastFollowed.from / PAGE_BYTES) - (pages > 1 ? 1 : 0)
      : 0);
  const firstPage = Math.max(0, Math.min(nrPages - pages, wanted));
  const units = Math.min(UNITS_SHOWN, view.nrUnits);
  const g: Geometry = {
    cb,
    perRow: scale.rowBytes / cb,
    cellW: (UNIT_W * cb) / scale.rowBytes,
    rowBytes: scale.rowBytes,
    rowH: scale.rowH,
    pageH: (PAGE_BYTES / scale.rowBytes) * scale.rowH,
    firstPage,
    pages,
    units,
  };
  const width = units * UNIT_W + (units - 1) * UNIT_GAP;
  const height = pages * g.pageH + Math.max(0, pages - 1) * PAGE_GAP;
  // The state object changes when the cursor moves, so the detail is read once per position.
  const detail = useMemo(() => (c ? c.detail() : null), [c]);
  const cells = useMemo(
    () => (c && detail ? chunkCells(view, c, detail) : null),
    [view, c, detail],
  );

  useEffect(() => {
    if (canvas.current && detail && cells) paint(canvas.current, g, detail, cells, options.theme);
    // g is derived from the values listed
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [detail, cells, options.theme, firstPage, pages, units, cb, close]);

  if (!c || !cells || !detail) {
    return (
      <section className="view percpu-chunk-map" {...eventAttrs(event)}>
        <header className="view-head">
          <h3>Percpu chunk map</h3>
        </header>
        <p className="muted">This machine has no percpu chunk.</p>
      </section>
    );
  }
  const eventHere = target && target.chunk === c.index && target.from >= 0;
  const shownBlocks =
    view.allocator === 'bitmap' ? detail.mdBlocks.slice(firstPage, firstPage + pages) : [];
  const populatedShown = detail.populated
    .slice(firstPage, firstPage + pages)
    .filter(Boolean).length;
  const movePages = (delta: number) =>
    setPick({ chunk: c.index, page: Math.max(0, Math.min(nrPages - pages, firstPage + delta)) });
  const highlight = HIGHLIGHT[options.theme];
  return (
    <section className="view percpu-chunk-map" {...eventAttrs(event)}>
      <header className="view-head">
        <h3>Percpu chunk map</h3>
        <p className="muted small">
          {view.allocator === 'bitmap'
            ? 'Bitmap allocator: a cell is 4 bytes (one alloc_map bit); ticks are bound_map bits.'
            : 'Area map allocator: a cell is 2 bytes; ticks are the starts in map[].'}
        </p>
      </header>
      <div className="pcm-controls">
        <label>
          Chunk{' '}
          <select
            value={c.index}
            onChange={(e) => setPick({ chunk: Number(e.target.value), page: 0 })}
          >
            {chunks.map((x) => (
              <option key={x.index} value={x.index}>
                {chunkName(x)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={firstPage === 0} onClick={() => movePages(-pages)}>
          ◀ Earlier pages
        </button>
        <button
          type="button"
          disabled={firstPage + pages >= nrPages}
          onClick={() => movePages(pages)}
        >
          Later pages ▶
        </button>
        <label>
          <input type="checkbox" checked={close} onChange={(e) => setClose(e.target.checked)} />{' '}
          Close-up (one page)
        </label>
        <label>
          <input
            type="checkbox"
            checked={follow}
            onChange={(e) => setPick(e.target.checked ? null : { chunk: c.index, page: firstPage })}
          />{' '}
          Follow the current event
        </label>
      </div>
      <p className="small pcm-summary" data-chunk={c.index} data-first-page={firstPage}>
        <strong>{chunkName(c)}</strong>: {c.nrPages} pages per unit, {c.nrPopulated} populated (
        {c.nrEmptyPopPages} empty), {c.freeBytes} bytes free, slot {c.slot}
        {c.isolated ? ', isolated' : ''}. Showing pages {firstPage}–{firstPage + pages - 1} of units
        0–{units - 1}
        {view.nrUnits > units ? ` (${view.nrUnits - units} more units look the same)` : ''}.
      </p>
      <div
        className="pcm-figure"
        style={{ aspectRatio: `${width} / ${height}`, maxWidth: `${width * 1.5}px` }}
      >
        <canvas
          ref={canvas}
          width={width}
          height={height}
          role="img"
          aria-label={`${chunkName(c)}, pages ${firstPage} to ${firstPage + pages - 1} of ${units} units side by side: ${cells.areas} ${cells.areas === 1 ? 'area' : 'areas'} allocated in the chunk, ${populatedShown} of the ${pages} pages shown populated.`}
        />
        <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true">
          {[...Array(units).keys()].map((u) => (
            <text key={u} x={u * (UNIT_W + UNIT_GAP) + 2} y={8} className="pcm-unit-label">
              unit {u}
            </text>
          ))}
          {shownBlocks.map((md, i) => (
            <BlockMarks key={firstPage + i} g={g} md={md} page={firstPage + i} />
          ))}
          {view.allocator === 'area-map' && detail.map && c.firstFree < c.mapUsed && (
            <path
              d={(() => {
                const [x, y] = cellXY(g, ((detail.map?.[c.firstFree] ?? 0) & ~1) / cb, 0);
                return `M${x},${y + g.rowH} l-3,-5 h6 z`;
              })()}
              className="hint-first"
            />
          )}
          {eventHere &&
            [...Array(units).keys()].map((u) => (
              <path
                key={`e${u}`}
                d={runPath(g, target.from, target.to, u)}
                className="event-area"
                stroke={highlight}
              />
            ))}
        </svg>
      </div>
      <ul className="pcm-legend small" aria-label="Legend">
        <li>
          <span className="swatch" style={{ background: CHUNK_COLORS[options.theme].a }} />
          <span className="swatch" style={{ background: CHUNK_COLORS[options.theme].b }} />
          allocated areas (neighbours alternate)
        </li>
        <li>
          <span className="swatch" style={{ background: CHUNK_COLORS[options.theme].free }} /> free,
          populated
        </li>
        <li>
          <span className="swatch hatched" /> not populated
        </li>
        <li>
          <span className="swatch" style={{ background: CHUNK_COLORS[options.theme].unusable }} />{' '}
          start/end offset (never served)
        </li>
        <li>
          <span className="swatch tick" /> boundary bit
        </li>
        {view.allocator === 'bitmap' && (
          <>
            <li>
              <span className="swatch contig" /> contig_hint
            </li>
            <li>
              <span className="swatch scan" /> scan_hint
            </li>
          </>
        )}
        <li>▼ first_free</li>
      </ul>
      {view.allocator === 'bitmap' ? (
        <details className="pcm-details">
          <summary className="small">
            Block metadata (pcpu_block_md, in bits) of the pages shown
          </summary>
          <table className="small pcm-blocks">
            <caption className="visually-hidden">
              Block metadata of pages {firstPage} to {firstPage + pages - 1}
            </caption>
            <thead>
              <tr>
                <th scope="col">page</th>
                <th scope="col">populated</th>
                <th scope="col">contig_hint @ start</th>
                <th scope="col">scan_hint @ start</th>
                <th scope="col">first_free</th>
                <th scope="col">left_free</th>
                <th scope="col">right_free</th>
              </tr>
            </thead>
            <tbody>
              {shownBlocks.map((md, i) => (
                <tr key={firstPage + i} data-block={firstPage + i}>
                  <th scope="row">{firstPage + i}</th>
                  <td>{detail.populated[firstPage + i] ? 'yes' : 'no'}</td>
                  <td>
                    {md.contigHint} @ {md.contigHintStart}
                  </td>
                  <td>{md.scanHint ? `${md.scanHint} @ ${md.scanHintStart}` : '—'}</td>
                  <td>{md.firstFree}</td>
                  <td>{md.leftFree}</td>
                  <td>{md.rightFree}</td>
                </tr>
              ))}
              {c.chunkMd && (
                <tr data-block="chunk">
                  <th scope="row">chunk</th>
                  <td>{c.nrPopulated}</td>
                  <td>
                    {c.chunkMd.contigHint} @ {c.chunkMd.contigHintStart}
                  </td>
                  <td>
                    {c.chunkMd.scanHint
                      ? `${c.chunkMd.scanHint} @ ${c.chunkMd.scanHintStart}`
                      : '—'}
                  </td>
                  <td>{c.chunkMd.firstFree}</td>
                  <td>{c.chunkMd.leftFree}</td>
                  <td>{c.chunkMd.rightFree}</td>
                </tr>
              )}
            </tbody>
          </table>
        </details>
      ) : (
        <p className="small">
          contig_hint {c.contigHint} bytes; first_free is map entry {c.firstFree} of {c.mapUsed}{' '}
          (map_alloc {c.mapAlloc}).
        </p>
      )}
    </section>
  );
}
