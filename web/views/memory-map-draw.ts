/*
 * memory-map-draw.ts: the memory map's strokes, as functions of a 2D context and plain numbers
 * (memory-map-blocks.ts): block outlines with their orders, zone and pageblock boundaries, what a
 * step changed, frames that differ from the compared machine, and the current event, including a
 * split (one block becoming two halves) and a merge (two buddies becoming one) drawn at a point
 * t of their animation (t = 1 is the end, and all reduced motion shows).
 */
import { EV } from '../core/events';
import { boundaryBefore, type Rect } from './memory-map-blocks';
import type { SimEvent } from './model';
import type { Theme } from './palette';

/** Where the grid's items are: `per` frames each (1 for frames, a unit in the overview). */
export interface Grid {
  start: number; // pfn of item 0
  per: number;
  cols: number; // items per row
  rows: number;
  cell: number; // CSS px per item
  label: number; // CSS px of the text drawn on the map (LABEL_PX, or PRESENTING_LABEL_PX)
}

/** Text on the map is never under 12 px (issue 14: no view text under 12 px anywhere)... */
export const LABEL_PX = 12;
/** ...and at least 18 px when presenting at 1920x1080, like every other view's text. */
export const PRESENTING_LABEL_PX = 18;

/** The canvas font of the map's labels on grid `g`. */
export function labelFont(g: Grid): string {
  return `600 ${g.label}px system-ui, sans-serif`;
}

/** The rectangle of `size` frames from pfn (aligned to size) on the grid. */
export function rectOn(g: Grid, pfn: number, size: number): Rect {
  const i = Math.floor((pfn - g.start) / g.per);
  const n = Math.max(1, size / g.per);
  const row = Math.floor(i / g.cols);
  if (n <= g.cols)
    return { x: (i - row * g.cols) * g.cell, y: row * g.cell, w: n * g.cell, h: g.cell };
  return { x: 0, y: row * g.cell, w: g.cols * g.cell, h: (n / g.cols) * g.cell };
}

/** Ink for strokes over cells, by theme: strong enough on every class colour. */
export function ink(theme: Theme) {
  return theme === 'dark'
    ? {
        line: 'rgba(255,255,255,0.85)',
        edge: 'rgba(0,0,0,0.75)',
        text: '#000',
        halo: 'rgba(255,255,255,0.8)',
        hi: '#FFFFFF',
        zone: '#FFFFFF',
        diff: '#FFFFFF',
      }
    : {
        line: 'rgba(0,0,0,0.8)',
        edge: 'rgba(255,255,255,0.9)',
        text: '#000',
        halo: 'rgba(255,255,255,0.85)',
        hi: '#000000',
        zone: '#000000',
        diff: '#000000',
      };
}

/** Outline each block (one path, one stroke), and print its order inside where it fits. */
export function drawBlocks(
  ctx: CanvasRenderingContext2D,
  g: Grid,
  blocks: readonly { pfn: number; order: number }[],
  theme: Theme,
): number {
  const k = ink(theme);
  ctx.lineWidth = 1;
  ctx.strokeStyle = k.line;
  ctx.beginPath();
  for (const b of blocks) {
    const r = rectOn(g, b.pfn, 1 << b.order);
    ctx.rect(r.x + 0.5, r.y + 0.5, Math.max(1, r.w - 1), Math.max(1, r.h - 1));
  }
  ctx.stroke();
  // Orders where a label fits: a digit and its halo across, the text's height down.
  ctx.font = labelFont(g);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const b of blocks) {
    const r = rectOn(g, b.pfn, 1 << b.order);
    if (r.w < g.label * 1.3 || r.h < g.label + 1) continue;
    const label = r.w >= g.label * 2.8 ? `o${b.order}` : String(b.order);
    const cx = r.x + r.w / 2;
    const cy = r.y + r.h / 2;
    const w = ctx.measureText(label).width + 4;
    ctx.fillStyle = k.halo;
    ctx.fillRect(cx - w / 2, cy - g.label / 2, w, g.label);
    ctx.fillStyle = k.text;
    ctx.fillText(label, cx, cy + 0.5);
  }
  return blocks.length;
}

/** Pageblock boundaries (thin, dashed) every `pb` frames, where they are 6 px apart or more. */
export function drawPageblocks(
  ctx: CanvasRenderingContext2D,
  g: Grid,
  pb: number,
  lo: number,
  hi: number,
  theme: Theme,
): void {
  if (pb <= g.per) return; // in the overview, each unit is a pageblock or more: its cells show them
  const first = rectOn(g, lo, pb);
  if (Math.max(first.w, first.h) < 6) return;
  ctx.save();
  ctx.strokeStyle = ink(theme).line;
  ctx.setLineDash([2, 2]);
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let p = lo - (lo % pb) + pb; p < hi; p += pb) {
    for (const [x1, y1, x2, y2] of boundaryBefore(
      Math.floor((p - g.start) / g.per),
      0,
      g.cols,
      g.cell,
    )) {
      ctx.moveTo((x1 ?? 0) + 0.5, (y1 ?? 0) + 0.5);
      ctx.lineTo((x2 ?? 0) + 0.5, (y2 ?? 0) + 0.5);
    }
  }
  ctx.stroke();
  ctx.restore();
}

/** Zone boundaries (thick) with the zone's name where it begins. Returns how many were drawn. */
export function drawZones(
  ctx: CanvasRenderingContext2D,
  g: Grid,
  zones: readonly { name: string; lo: number; hi: number }[],
  theme: Theme,
): number {
  const k = ink(theme);
  const end = g.start + g.cols * g.rows * g.per;
  let n = 0;
  // labels already drawn: a zone that begins in the same cell (DMA and DMA32 on a 1 TiB map) is
  // named beside the one before it, not over it
  const placed: { x: number; y: number; w: number }[] = [];
  ctx.save();
  ctx.font = labelFont(g);
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  for (const z of zones) {
    for (const p of [z.lo, z.hi]) {
      if (p <= g.start || p >= end) continue;
      const segs = boundaryBefore(Math.floor((p - g.start) / g.per), 0, g.cols, g.cell);
      for (const [width, colour] of [
        [4, k.edge],
        [2, k.zone],
      ] as const) {
        ctx.lineWidth = width;
        ctx.strokeStyle = colour;
        ctx.beginPath();
        for (const [x1, y1, x2, y2] of segs) {
          ctx.moveTo(x1 ?? 0, y1 ?? 0);
          ctx.lineTo(x2 ?? 0, y2 ?? 0);
        }
        ctx.stroke();
      }
      n++;
    }
    // The zone's name at its first visible frame.
    const from = Math.max(z.lo, g.start);
    if (from < end && z.hi > g.start) {
      const r = rectOn(g, from, 1);
      const w = ctx.measureText(z.name).width + 6;
      let x = Math.min(r.x + 2, g.cols * g.cell - w - 2);
      let y = r.y + 2;
      // bounded: each step moves past one placed label, or down a line
      for (let tries = 0; tries <= placed.length * 2; tries++) {
        const hit = placed.find((p) => p.y === y && x < p.x + p.w + 2 && p.x < x + w + 2);
        if (!hit) break;
        x = hit.x + hit.w + 4;
        if (x + w > g.cols * g.cell) {
          x = Math.min(r.x + 2, g.cols * g.cell - w - 2);
          y += 16;
        }
      }
      placed.push({ x, y, w });
      ctx.fillStyle = k.halo;
      ctx.fillRect(x, y, w, 14);
      ctx.fillStyle = k.text;
      ctx.fillText(z.name, x + 3, y + 1);
    }
  }
  ctx.restore();
  return n;
}

/** A dashed mark around each rectangle, never smaller than `min` px (a one-frame change shows). */
export function drawMarks(
  ctx: CanvasRenderingContext2D,
  rects: readonly Rect[],
  colour: string,
  min: number,
  dash: number[],
): void {
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2;
  ctx.setLineDash(dash);
  ctx.beginPath();
  for (const r of rects) {
    const w = Math.max(min, r.w + 4);
    const h = Math.max(min, r.h + 4);
    ctx.rect(r.x + r.w / 2 - w / 2, r.y + r.h / 2 - h / 2, w, h);
  }
  ctx.stroke();
  ctx.restore();
}

/** What the current event draws: the blocks before and after it, and a label. */
export interface EventShape {
  kind: 'split' | 'merge' | 'move' | 'block';
  before: { pfn: number; size: number }[];
  after: { pfn: number; size: number }[];
  label: string;
}

/**
 * The shape of event e on the map, or null when it names no block. A split, a merge and a block
 * moving between the buddy and a per-CPU list always name one (pfn 0 included); other kinds name
 * none with pfn 0.
 */
export function eventShape(e: SimEvent | null): EventShape | null {
  if (!e) return null;
  const size = 1 << e.order;
  if (e.kind === EV.BUDDY_SPLIT) {
    // The upper half put on a list: its parent was the block of twice its size just below it.
    const parent = e.pfn - size;
    return {
      kind: 'split',
      before: [{ pfn: parent, size: 2 * size }],
      after: [
        { pfn: parent, size },
        { pfn: e.pfn, size },
      ],
      label: `split: order ${e.order + 1} → 2 × order ${e.order}`,
    };
  }
  if (e.kind === EV.BUDDY_MERGE && e.order > 0) {
    const half = size / 2;
    return {
      kind: 'merge',
      before: [
        { pfn: e.pfn, size: half },
        { pfn: e.pfn + half, size: half },
      ],
      after: [{ pfn: e.pfn, size }],
      label: `merge: 2 × order ${e.order - 1} → order ${e.order}`,
    };
  }
  if (e.kind === EV.MM_PAGE_ALLOC_ZONE_LOCKED)
    return {
      kind: 'move',
      before: [],
      after: [{ pfn: e.pfn, size }],
      label: `→ CPU ${e.cpu}'s list`,
    };
  if (e.kind === EV.MM_PAGE_PCPU_DRAIN)
    return { kind: 'move', before: [], after: [{ pfn: e.pfn, size }], label: '→ buddy free list' };
  if (e.pfn <= 0) return null;
  return { kind: 'block', before: [], after: [{ pfn: e.pfn, size }], label: '' };
}

/** Ease in and out (0..1 to 0..1). */
function ease(t: number): number {
  return t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
}

/**
 * The event at point t (0..1) of its animation: a split's parent outline gives way to its two
 * halves pulling apart; a merge's two halves close into one outline; a move's block is ringed
 * and its label slides in. At t = 1 the final picture.
 */
export function drawEvent(
  ctx: CanvasRenderingContext2D,
  g: Grid,
  shape: EventShape,
  t: number,
  theme: Theme,
): void {
  const k = ink(theme);
  const e = ease(Math.min(1, Math.max(0, t)));
  ctx.save();
  ctx.strokeStyle = k.hi;
  const outline = (r: Rect, inset: number, width: number) => {
    ctx.lineWidth = width;
    ctx.strokeRect(
      r.x + inset,
      r.y + inset,
      Math.max(2, r.w - 2 * inset),
      Math.max(2, r.h - 2 * inset),
    );
  };
  if (shape.kind === 'split' || shape.kind === 'merge') {
    // before fades out while after fades in; the halves stand 3 px apart when apart
    const apart = shape.kind === 'split' ? e : 1 - e;
    const whole = shape.kind === 'split' ? shape.before : shape.after;
    const halves = shape.kind === 'split' ? shape.after : shape.before;
    ctx.globalAlpha = 1 - apart;
    for (const b of whole) outline(rectOn(g, b.pfn, b.size), 1, 3);
    ctx.globalAlpha = Math.max(apart, 0.001);
    for (const b of halves) outline(rectOn(g, b.pfn, b.size), 1 + 2 * apart, 2);
    ctx.globalAlpha = 1;
  } else {
    for (const b of shape.after) {
      const r = rectOn(g, b.pfn, b.size);
      outline(r, 1, 2);
      if (r.w < 6 || r.h < 6) {
        ctx.beginPath();
        ctx.arc(r.x + r.w / 2, r.y + r.h / 2, 8, 0, Math.PI * 2);
        ctx.stroke();
      }
    }
  }
  const first = shape.after[0] ?? shape.before[0];
  if (shape.label && first) {
    const r = rectOn(g, first.pfn, first.size);
    ctx.font = labelFont(g);
    const w = ctx.measureText(shape.label).width + 8;
    const width = g.cols * g.cell;
    const x = Math.max(0, Math.min(width - w, r.x + (shape.kind === 'move' ? (1 - e) * 12 : 0)));
    const y =
      r.y + r.h + 2 + g.label + 3 <= g.rows * g.cell
        ? r.y + r.h + 2
        : Math.max(0, r.y - g.label - 5);
    ctx.globalAlpha = shape.kind === 'move' ? e : 1;
    ctx.fillStyle = k.hi;
    ctx.fillRect(x, y, w, g.label + 3);
    ctx.fillStyle = theme === 'dark' ? '#000' : '#fff';
    ctx.textBaseline = 'top';
    ctx.textAlign = 'left';
    ctx.fillText(shape.label, x + 4, y + 1.5);
  }
  ctx.restore();
}
