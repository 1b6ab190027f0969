/*
 * FreeLists.tsx: each zone's free_area[order].free_list[migratetype] drawn as what it is, a
 * doubly linked list of blocks: the head, then each block's next, a box per block (its pfn), a
 * link between boxes both ways. Read from the frames themselves (struct page next and prev), so
 * a link whose prev does not point back is shown as broken. Lists longer than SHOWN show their
 * first blocks and how many more; empty lists are left out.
 */
import { memo, useId, type ReactNode } from 'react';
import { EV } from '../core/events';
import { allZones, type ModelState, type ZoneState } from './model';
import { eventAttrs, type ViewProps } from './options';
import { migratetypeColor, migratetypeName } from './palette';

const PFN_NONE = 0xffffffff;
/** Blocks shown of one list; the rest are counted. */
const SHOWN = 8;

/** u32 field `off` of pfn's struct page in zone z. */
function pageU32(s: ModelState, z: ZoneState, pfn: number, off: number): number {
  const f = s.frames;
  if (pfn < z.memPfn || pfn >= z.memPfn + z.managed) return PFN_NONE;
  const at = f.at(pfn) + off;
  const b = f.bytes;
  return (
    ((b[at] ?? 0) |
      ((b[at + 1] ?? 0) << 8) |
      ((b[at + 2] ?? 0) << 16) |
      ((b[at + 3] ?? 0) << 24)) >>>
    0
  );
}

interface Link {
  pfn: number;
  backOk: boolean; // its prev is the block before it (PFN_NONE for the head)
}

/** The first `limit` blocks of the list from head, following next (bounded by limit). */
function walk(s: ModelState, z: ZoneState, head: number, limit: number): Link[] {
  const out: Link[] = [];
  let prev = PFN_NONE;
  for (let p = head; p !== PFN_NONE && out.length < limit;) {
    out.push({ pfn: p, backOk: pageU32(s, z, p, s.frames.off.prev) === prev });
    prev = p;
    p = pageU32(s, z, p, s.frames.off.next);
  }
  return out;
}

/** Event kinds whose pfn is a block going onto or off a free list. */
const LIST_KINDS: ReadonlySet<number> = new Set([
  EV.BUDDY_ENQUEUE,
  EV.BUDDY_SPLIT,
  EV.BUDDY_MERGE,
  EV.MM_PAGE_ALLOC_ZONE_LOCKED,
]);

/** One drawn list: its name, colour and first blocks. */
interface ListRowProps {
  prefix: string; // the zone's name and a space when several zones are drawn, else ''
  order: number;
  mt: number;
  n: number; // blocks on the list
  links: readonly Link[];
  lit: number; // the event's pfn when it is one of links, else -1
}

function sameLinks(a: readonly Link[], b: readonly Link[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y || x.pfn !== y.pfn || x.backOk !== y.backOk) return false;
  }
  return true;
}

/**
 * One list, drawn again only when what it shows changed: a step moves a block or two of a few
 * lists, and the rest (dozens on a big machine, each a dozen elements) keep what they drew.
 */
const ListRow = memo(
  function ListRow({ prefix, order, mt, n, links, lit }: ListRowProps) {
    const name = `free_area[${order}].free_list[${migratetypeName(mt)}]`;
    return (
      <div className="free-list" data-order={order} data-mt={mt}>
        <span className="free-list-name">
          {prefix}
          order {order}{' '}
          <span
            className="swatch"
            style={{ background: migratetypeColor(mt) }}
            aria-hidden="true"
          />{' '}
          {migratetypeName(mt)} ({n})
        </span>
        <ol className="chain" aria-label={`${prefix}${name}: ${n} block${n === 1 ? '' : 's'}`}>
          <li className="chain-head" aria-hidden="true">
            head
          </li>
          {links.map((l) => (
            <li
              key={l.pfn}
              className={`chain-block${l.pfn === lit ? ' lit' : ''}${l.backOk ? '' : ' broken'}`}
              data-pfn={l.pfn}
              aria-current={l.pfn === lit ? 'true' : undefined}
            >
              <span className="visually-hidden">{l.backOk ? '' : 'broken link: '}block at </span>
              pfn {l.pfn}
            </li>
          ))}
          {n > links.length && <li className="chain-more">+{n - links.length} more</li>}
        </ol>
      </div>
    );
  },
  (a, b) =>
    a.prefix === b.prefix &&
    a.order === b.order &&
    a.mt === b.mt &&
    a.n === b.n &&
    a.lit === b.lit &&
    sameLinks(a.links, b.links),
);

export function FreeLists({ state, event }: ViewProps) {
  const hid = useId();
  const lit = event && LIST_KINDS.has(event.kind) ? event.pfn : -1;
  const zones = allZones(state).filter((z) => z.managed > 0);
  const rows: ReactNode[] = [];
  for (const z of zones) {
    const prefix = zones.length > 1 ? `${z.name} ` : '';
    for (let order = state.maxOrder; order >= 0; order--) {
      const fa = z.freeArea[order];
      if (!fa) continue;
      fa.count.forEach((n, mt) => {
        if (!n) return;
        const head = fa.head[mt] ?? PFN_NONE;
        const links = walk(state, z, head, Math.min(n, SHOWN));
        rows.push(
          <ListRow
            key={`${z.node}-${z.idx}-${order}-${mt}`}
            prefix={prefix}
            order={order}
            mt={mt}
            n={n}
            links={links}
            lit={links.some((l) => l.pfn === lit) ? lit : -1}
          />,
        );
      });
    }
  }
  return (
    <section className="view free-lists" aria-labelledby={hid} {...eventAttrs(event)}>
      <header className="view-head">
        <h3 id={hid}>Free lists</h3>
      </header>
      <p className="small muted">
        Each list from its head, block by block (next ⇄ prev); a red ⇢ marks a block whose prev does
        not point back. Empty lists are left out; long ones show their first {SHOWN} blocks.
      </p>
      <div
        className="free-lists-box"
        tabIndex={0}
        role="region"
        aria-label="Every non-empty free list, as chains"
      >
        {rows.length ? rows : <p className="muted">Every free list is empty.</p>}
      </div>
    </section>
  );
}
