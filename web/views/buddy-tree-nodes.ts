/*
 * buddy-tree-nodes.ts: the Buddy tree's node elements (those wide enough to be elements: see
 * BuddyTree.tsx), kept in step with the tree by hand rather than by Preact. Each node is the
 * group a JSX node would be, <g data-node data-kind><title/><rect/>[<text/>]</g>, in the tree's
 * order; a node at the same place in the block keeps its elements, and only what changed of it is
 * written (its pfn, its kind, its fill). A seek shows another block, whose hundred-odd nodes all
 * differ from the last one's in their pfn: as components they cost ~500 vnodes and their diffing a
 * move, most of the views' time on the 1 TiB machine; written here they cost their DOM writes.
 * Only the DOM calls the unit tests' fake DOM has (web/app/fake-dom.ts), so a static render of
 * the tree shows its nodes too.
 */
/** A row of the tree (one order), in viewBox units. */
export const ROW = 26;

const SVG = 'http://www.w3.org/2000/svg';

/** One node to draw: where it is, what it is, and its words. */
export interface NodeDraw {
  place: number; // its offset in the block and its order: the same place keeps its elements
  pfn: number;
  order: number;
  leaf: boolean;
  fill: string; // 'none' for a split
  state: number; // a leaf's state, list and CPU (its title's words); -2 for a split
  list: number;
  cpu: number;
  x: number;
  y: number;
  w: number;
}

/** A node's elements as drawn, with what they were last written from. */
interface NodeElements {
  g: SVGGElement;
  title: Text;
  rect: SVGRectElement;
  label: Text | null;
  labelEl: SVGTextElement | null;
  pfn: number;
  leaf: boolean;
  fill: string;
  state: number;
  list: number;
  cpu: number;
}

/** Label a node wider than this (viewBox units) with its order. */
const LABEL_MIN_W = 34;

function create(d: NodeDraw): NodeElements {
  const g = document.createElementNS(SVG, 'g');
  const title = document.createElementNS(SVG, 'title');
  const titleText = document.createTextNode('');
  title.appendChild(titleText);
  const rect = document.createElementNS(SVG, 'rect');
  // the box: fixed by the place and the geometry, which a new geometry draws afresh
  rect.setAttribute('x', String(d.x + 0.5));
  rect.setAttribute('y', String(d.y + 0.5));
  rect.setAttribute('width', String(Math.max(0.5, d.w - 1)));
  rect.setAttribute('height', String(ROW - 3));
  rect.setAttribute('rx', '2');
  g.appendChild(title);
  g.appendChild(rect);
  let labelEl: SVGTextElement | null = null;
  let label: Text | null = null;
  if (d.w >= LABEL_MIN_W) {
    labelEl = document.createElementNS(SVG, 'text');
    labelEl.setAttribute('x', String(d.x + d.w / 2));
    labelEl.setAttribute('y', String(d.y + ROW / 2));
    label = document.createTextNode('');
    labelEl.appendChild(label);
    g.appendChild(labelEl);
  }
  return {
    g,
    title: titleText,
    rect,
    label,
    labelEl,
    pfn: -1,
    leaf: !d.leaf,
    fill: '',
    state: -3,
    list: -1,
    cpu: -1,
  };
}

/**
 * Write what differs between the node as drawn and d (all of it when fresh), as Preact would; its
 * title (title(d)) only when its block or fields changed.
 */
function update(
  e: NodeElements,
  d: NodeDraw,
  fresh: boolean,
  title: (d: NodeDraw) => string,
): void {
  const kind = fresh || e.leaf !== d.leaf;
  if (fresh || e.pfn !== d.pfn) e.g.setAttribute('data-node', `${d.pfn}/${d.order}`);
  if (kind) e.g.setAttribute('data-kind', d.leaf ? 'block' : 'split');
  if (fresh || e.pfn !== d.pfn || e.state !== d.state || e.list !== d.list || e.cpu !== d.cpu) {
    const t = title(d);
    if (e.title.data !== t) e.title.data = t;
  }
  if (fresh || e.fill !== d.fill) e.rect.setAttribute('fill', d.fill);
  if (fresh) {
    e.rect.setAttribute('stroke', 'currentColor');
    e.rect.setAttribute('stroke-width', '1');
  }
  if (kind) {
    if (d.leaf) e.rect.removeAttribute('stroke-dasharray');
    else e.rect.setAttribute('stroke-dasharray', '3 2');
    e.rect.setAttribute('opacity', d.leaf ? '1' : '0.7');
    if (e.labelEl && e.label) {
      e.labelEl.setAttribute('class', d.leaf ? 'tree-label on-fill' : 'tree-label');
      e.label.data = d.leaf ? `o${d.order}` : 'split';
    }
  }
  e.pfn = d.pfn;
  e.leaf = d.leaf;
  e.fill = d.fill;
  e.state = d.state;
  e.list = d.list;
  e.cpu = d.cpu;
}

/** The node elements of one tree view, across its drawings. */
export class TreeNodes {
  private nodes = new Map<number, NodeElements>();
  private drawnAs = '';

  /**
   * Make layer's children the nodes, in order: elements at a place drawn before are kept (what
   * changed of them written), the others made, and those of places not drawn now removed. A new
   * geometry (another max order or width) draws every node afresh. title(d) is a node's tooltip.
   */
  draw(
    layer: Element,
    nodes: readonly NodeDraw[],
    geometry: string,
    title: (d: NodeDraw) => string,
  ): void {
    if (geometry !== this.drawnAs) {
      this.nodes.clear();
      while (layer.firstChild) layer.removeChild(layer.firstChild);
      this.drawnAs = geometry;
    }
    const kept = new Map<number, NodeElements>();
    let at = layer.firstChild;
    for (const d of nodes) {
      let e = this.nodes.get(d.place);
      const fresh = !e;
      e ??= create(d);
      update(e, d, fresh, title);
      kept.set(d.place, e);
      if (e.g === at) at = at.nextSibling;
      else layer.insertBefore(e.g, at);
    }
    // what is left after the last node drawn is the nodes of places not drawn now
    while (at) {
      const next = at.nextSibling;
      layer.removeChild(at);
      at = next;
    }
    this.nodes = kept;
  }
}
