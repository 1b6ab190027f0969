/*
 * BuddyTree.tsx: one max-order block as the binary tree the buddy allocator keeps implicitly.
 * The root is the whole block (order MAX_PAGE_ORDER); each node is either a block that exists
 * (free on a list, on a per-CPU list, or allocated: a leaf, coloured as on the memory map) or
 * a split node whose two halves are its children, one order down. Drawn as rows by order (an
 * icicle): a node's width is its size, so buddies stand side by side under their parent. The
 * current event's block is outlined; a split event also outlines the parent it came from.
 *
 * The nodes wide enough to be elements are written into their layer of the SVG by
 * buddy-tree-nodes.ts (the same elements JSX would make, kept by their place in the block), not
 * rendered as components; the narrower ones are painted on a canvas beneath.
 */
import { useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { allZones, PG, type ModelState } from './model';
import { blocksIn } from './memory-map-blocks';
import { frameFields, frameInfo } from './memory-map-paint';
import { ROW, TreeNodes, type NodeDraw } from './buddy-tree-nodes';
import { EV } from '../core/events';
import { eventAttrs, type ViewProps } from './options';
import {
  ALLOCATED_COLOR,
  CORRUPT_COLOR,
  HIGHLIGHT,
  migratetypeColor,
  migratetypeName,
  PCP_COLORS,
  type Theme,
} from './palette';

/** One node of the tree: a block (leaf) or a split block (two children). */
interface TreeNode {
  pfn: number;
  order: number;
  leaf: { state: number; list: number; cpu: number } | null; // null: split
  children: readonly TreeNode[];
}

/** A leaf's children: none, one array for every leaf (a block has up to a thousand). */
const NO_CHILDREN: readonly TreeNode[] = [];

/** The tree of the max-order block at base, from the blocks inside it. */
function buildTree(s: ModelState, base: number): TreeNode {
  const heads = new Map<number, number>();
  const sorted: number[] = [];
  for (const b of blocksIn(s, base, base + (1 << s.maxOrder))) {
    if (b.state === PG.TAIL || b.pfn < base) continue;
    heads.set(b.pfn, b.order);
    sorted.push(b.pfn);
  }
  /** Whether a block starts in [lo, hi): a binary search of the heads, in pfn order. */
  const anyIn = (lo: number, hi: number) => {
    let a = 0;
    let b = sorted.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if ((sorted[m] ?? 0) < lo) a = m + 1;
      else b = m;
    }
    return a < sorted.length && (sorted[a] ?? 0) < hi;
  };
  const node = (pfn: number, order: number): TreeNode => {
    if (!anyIn(pfn, pfn + (1 << order)))
      return { pfn, order, leaf: { state: -1, list: 0, cpu: 0 }, children: NO_CHILDREN };
    if (heads.get(pfn) === order)
      return { pfn, order, leaf: frameFields(s, pfn), children: NO_CHILDREN };
    if (order === 0) {
      // a frame no head of its order starts at (a corrupted state): the block that covers it
      const info = frameInfo(s, pfn);
      const leaf = info ? { state: info.state, list: info.list, cpu: info.cpu } : null;
      return { pfn, order, leaf: leaf ?? { state: -1, list: 0, cpu: 0 }, children: NO_CHILDREN };
    }
    const half = 1 << (order - 1);
    return {
      pfn,
      order,
      leaf: null,
      children: [node(pfn, order - 1), node(pfn + half, order - 1)],
    };
  };
  return node(base, s.maxOrder);
}

/** Whether the tree has a node for the block of 2^order pages at pfn (a walk down, order deep). */
function hasNode(tree: TreeNode, pfn: number, order: number): boolean {
  let n: TreeNode | undefined = tree;
  while (n && n.order > order) {
    const half: number = 1 << (n.order - 1);
    n = n.children[pfn >= n.pfn + half ? 1 : 0];
  }
  return !!n && n.pfn === pfn && n.order === order;
}

function leafColor(leaf: NonNullable<TreeNode['leaf']>, theme: Theme): string {
  if (leaf.state === PG.BUDDY) return migratetypeColor(leaf.list);
  if (leaf.state === PG.PCP) return PCP_COLORS[leaf.cpu & 1] ?? PCP_COLORS[0];
  if (leaf.state === PG.ALLOCATED) return ALLOCATED_COLOR[theme];
  if (leaf.state === -1) return 'transparent';
  return CORRUPT_COLOR;
}

/** A drawn node's tooltip: its block and what holds it. */
function nodeTitle(d: NodeDraw): string {
  const words = d.leaf ? leafWords(d) : 'split into two halves';
  return `pfn ${d.pfn}, order ${d.order}: ${words}`;
}

function leafWords(leaf: NonNullable<TreeNode['leaf']>): string {
  if (leaf.state === PG.BUDDY) return `free on the ${migratetypeName(leaf.list)} list`;
  if (leaf.state === PG.PCP) return `on CPU ${leaf.cpu}'s per-CPU list`;
  if (leaf.state === PG.ALLOCATED) return `allocated (CPU ${leaf.cpu})`;
  if (leaf.state === -1) return 'outside the zone';
  return 'corrupt';
}

const W = 640;
const LABEL = 70;
/**
 * Nodes narrower than this (in viewBox units: an order-3 node of a 1024-frame block is 4.5) are
 * painted on a canvas under the SVG rather than as SVG elements: a fragmented block has hundreds
 * of them, and as elements they cost a seek on the 1 TiB machine ~15 ms of diffing, style and
 * layout. The event's outline is drawn over the tree (TreeMark), whatever the node's width.
 */
const MIN_ELEMENT = 8;
/** The canvas's pixels per viewBox unit (the SVG is drawn at the section's width, about that). */
const CANVAS_SCALE = 2;

/**
 * The nodes painted on the canvas, node i in entry i of each: its box in viewBox units and its
 * fill (null: a split, dashed). Columns of plain numbers rather than an object per node: a
 * fragmented block has hundreds, made again at every step that changes the block.
 */
interface PaintedNodes {
  x: number[];
  y: number[];
  w: number[];
  fill: (string | null)[];
}

/** The max-order blocks of zones given as "memPfn+managed" words, as runs: index <-> head pfn. */
export function maxOrderBlocks(spans: string, size: number) {
  const runs: { first: number; count: number; before: number }[] = [];
  let length = 0;
  for (const word of spans.split(' ')) {
    if (!word) continue;
    const [memPfn = 0, managed = 0] = word.split('+').map(Number);
    const first = memPfn - (memPfn % size);
    const count = Math.ceil((memPfn + managed - first) / size);
    runs.push({ first, count, before: length });
    length += count;
  }
  return {
    length,
    /** The head pfn of block i, undefined past the last. */
    at(i: number): number | undefined {
      for (const r of runs)
        if (i >= r.before && i < r.before + r.count) return r.first + (i - r.before) * size;
      return undefined;
    },
    /** The index of the block headed at pfn, -1 when no zone has it. */
    indexOf(pfn: number): number {
      for (const r of runs) {
        const k = (pfn - r.first) / size;
        if (Number.isInteger(k) && k >= 0 && k < r.count) return r.before + k;
      }
      return -1;
    },
  };
}

/**
 * The frame stamp of the max-order block at base (frame_changed, base/state.h: the history digest
 * of its last change), as a memo key: equal keys of one Sim mean equal frames in the block, so the
 * tree is not built again for a step that changed other blocks. Without a stamp (a block past the
 * stamped range) the state itself is the key.
 */
function blockStamp(s: ModelState, base: number): string | ModelState {
  const st = s.frames.stamps();
  const i = 2 * Math.floor(base / (1 << s.maxOrder));
  if (i + 1 >= st.length) return s;
  return `${base}:${st[i]}:${st[i + 1]}`;
}

export function BuddyTree({ state, event, options }: ViewProps) {
  const hid = useId();
  const size = 1 << state.maxOrder;
  // The max-order blocks of every zone, in pfn order: a run of blocks per zone, counted rather
  // than listed (a 1 TiB machine has 262,144), and only when the zones change, not per step.
  const spans = allZones(state)
    .filter((z) => z.managed > 0)
    .map((z) => `${z.memPfn}+${z.managed}`)
    .join(' ');
  const bases = useMemo(() => maxOrderBlocks(spans, size), [spans, size]);
  const [picked, setPicked] = useState<number | null>(null);
  // The event's block when it names one, else the one picked, else the first.
  const eventBase = event && event.pfn > 0 ? event.pfn - (event.pfn % size) : null;
  const base = picked ?? eventBase ?? bases.at(0) ?? 0;
  const index = Math.max(0, bases.indexOf(base));
  // Built again only when the block's frames changed (its stamp), or the machine did.
  const stamp = blockStamp(state, base);
  const owner = state.frames.owner;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the stamp stands for the state here
  const tree = useMemo(() => buildTree(state, base), [owner, stamp, base]);

  // What the event outlines: its block, and for a split the parent it was cut from.
  let marked = '';
  if (event && eventBase === base) {
    marked = `${event.pfn}/${event.order}`;
    if (event.kind === EV.BUDDY_SPLIT)
      marked += ` ${event.pfn - (1 << event.order)}/${event.order + 1}`;
  }
  const theme = options.theme;
  const maxOrder = state.maxOrder;
  const scale = (W - LABEL) / size;

  // The tree as drawn, without the event's outline: a step that only moves the event (most steps
  // within an op) keeps every node and the canvas as they are.
  const drawn = useMemo(() => {
    const nodes: NodeDraw[] = [];
    const painted: PaintedNodes = { x: [], y: [], w: [], fill: [] };
    let leaves = 0;
    let splits = 0;
    const walk = (n: TreeNode) => {
      if (n.leaf) leaves++;
      else splits++;
      // (the box only for a node drawn: most of a fragmented block's are too narrow)
      const w = (1 << n.order) * scale;
      const x = w >= 1.5 ? LABEL + (n.pfn - base) * scale : 0;
      const y = w >= 1.5 ? (maxOrder - n.order) * ROW : 0;
      if (w >= 1.5 && w < MIN_ELEMENT) {
        painted.x.push(x);
        painted.y.push(y);
        painted.w.push(w);
        painted.fill.push(n.leaf ? leafColor(n.leaf, theme) : null);
      } else if (w >= 1.5) {
        nodes.push({
          // by the place in the block, so another block reuses the same elements
          place: (n.pfn - base) * 32 + n.order,
          pfn: n.pfn,
          order: n.order,
          leaf: !!n.leaf,
          fill: n.leaf ? leafColor(n.leaf, theme) : 'none',
          state: n.leaf ? n.leaf.state : -2,
          list: n.leaf ? n.leaf.list : 0,
          cpu: n.leaf ? n.leaf.cpu : 0,
          x,
          y,
          w,
        });
      }
      for (let i = 0; i < n.children.length; i++) walk(n.children[i] as TreeNode);
    };
    walk(tree);
    return { nodes, painted, leaves, splits };
  }, [tree, base, theme, scale, maxOrder]);
  const { nodes, painted, leaves, splits } = drawn;
  // the rows' names, the same at every step
  const orderLabels = useMemo(
    () =>
      Array.from({ length: maxOrder + 1 }, (_, i) => (
        <text key={i} x={2} y={i * ROW + ROW / 2} className="tree-order">
          order {maxOrder - i}
        </text>
      )),
    [maxOrder],
  );
  // the event's nodes that are in the tree, outlined over it
  const marks = marked
    .split(' ')
    .map((id) => {
      const [pfn = 0, order = 0] = id.split('/').map(Number);
      return { id, pfn, order };
    })
    .filter(({ id, pfn, order }) => id && hasNode(tree, pfn, order))
    .map(({ id, pfn, order }) => {
      return {
        id,
        x: LABEL + (pfn - base) * scale,
        y: (maxOrder - order) * ROW,
        w: (1 << order) * scale,
      };
    });
  const height = (state.maxOrder + 1) * ROW;

  // The nodes wide enough to be elements, written into their layer of the SVG (buddy-tree-nodes.ts)
  // when the tree as drawn changes.
  const layer = useRef<SVGGElement>(null);
  const [treeNodes] = useState(() => new TreeNodes());
  useLayoutEffect(() => {
    if (layer.current) treeNodes.draw(layer.current, nodes, `${scale} ${maxOrder}`, nodeTitle);
  }, [treeNodes, nodes, scale, maxOrder]);

  // The small nodes, painted as the SVG would draw them (its stroke is its currentColor).
  const svg = useRef<SVGSVGElement>(null);
  const paint = useRef<HTMLCanvasElement>(null);
  const ink = useRef<{ theme: Theme; color: string } | null>(null);
  useLayoutEffect(() => {
    const c = paint.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    if (c.width !== W * CANVAS_SCALE) c.width = W * CANVAS_SCALE;
    if (c.height !== height * CANVAS_SCALE) c.height = height * CANVAS_SCALE;
    ctx.setTransform(CANVAS_SCALE, 0, 0, CANVAS_SCALE, 0, 0);
    ctx.clearRect(0, 0, W, height);
    if (!painted.x.length) return;
    // the stroke colour is read once per theme (a style read, no layout)
    if (ink.current?.theme !== theme && svg.current)
      ink.current = { theme, color: getComputedStyle(svg.current).color };
    ctx.strokeStyle = ink.current?.color ?? '#888';
    ctx.lineWidth = 1;
    // in tree order, the context's state set only where it changes from the node before (a
    // fill is a colour string the context parses; most neighbours share it)
    const solid: number[] = [];
    const dashed = [3, 2];
    let lastFill: string | null | undefined;
    let lastSplit: boolean | undefined;
    for (let i = 0; i < painted.x.length; i++) {
      const x = painted.x[i] ?? 0;
      const y = painted.y[i] ?? 0;
      const w = Math.max(0.5, (painted.w[i] ?? 0) - 1);
      const fill = painted.fill[i] ?? null;
      const split = fill === null;
      if (split !== lastSplit) {
        ctx.globalAlpha = split ? 0.7 : 1;
        ctx.setLineDash(split ? dashed : solid);
        lastSplit = split;
      }
      if (fill) {
        if (fill !== lastFill) ctx.fillStyle = fill;
        lastFill = fill;
        ctx.fillRect(x + 0.5, y + 0.5, w, ROW - 3);
      }
      ctx.strokeRect(x + 0.5, y + 0.5, w, ROW - 3);
    }
    ctx.globalAlpha = 1;
    ctx.setLineDash([]);
  }, [painted, height, theme]);

  return (
    <section
      className="view buddy-tree"
      aria-labelledby={hid}
      {...eventAttrs(event)}
      data-base={base}
    >
      <header className="view-head">
        <h3 id={hid}>Buddy tree</h3>
        <div className="toolbar" role="group" aria-label="Which max-order block">
          <button
            type="button"
            onClick={() => setPicked(bases.at(Math.max(0, index - 1)) ?? base)}
            disabled={index === 0}
            aria-label="Previous max-order block"
          >
            ‹
          </button>
          <button
            type="button"
            onClick={() => setPicked(bases.at(Math.min(bases.length - 1, index + 1)) ?? base)}
            disabled={index >= bases.length - 1}
            aria-label="Next max-order block"
          >
            ›
          </button>
          {picked !== null && (
            <button type="button" onClick={() => setPicked(null)}>
              Follow the event
            </button>
          )}
        </div>
      </header>
      <p className="small muted">
        The order-{state.maxOrder} block at pfn {base} ({index + 1} of {bases.length}): {leaves}{' '}
        block
        {leaves === 1 ? '' : 's'}, {splits} split{splits === 1 ? '' : 's'}. A block&apos;s buddy
        stands beside it under the same parent.
      </p>
      <div className="tree-box">
        <canvas ref={paint} className="tree-paint" aria-hidden="true" />
        <svg
          ref={svg}
          viewBox={`0 0 ${W} ${height}`}
          width="100%"
          role="img"
          aria-label={`Buddy tree of the order-${state.maxOrder} block at pfn ${base}: ${leaves} blocks, ${splits} split nodes.`}
          className="tree-svg"
          data-painted={painted.x.length}
        >
          {orderLabels}
          <g ref={layer} className="tree-nodes" />
          {marks.map((m) => (
            <rect
              key={m.id}
              className="tree-mark"
              data-marked={m.id}
              x={m.x + 0.5}
              y={m.y + 0.5}
              width={Math.max(0.5, m.w - 1)}
              height={ROW - 3}
              rx={2}
              fill="none"
              stroke={HIGHLIGHT[theme]}
              strokeWidth={3}
              pointerEvents="none"
            />
          ))}
        </svg>
      </div>
    </section>
  );
}
