// The Buddy tree's list of max-order blocks, counted per zone rather than listed: index and head
// pfn both ways, across zones that do not start on a block boundary, and on a 1 TiB zone; and the
// event's outline, drawn over the tree rather than on its nodes.
import { describe, expect, it } from 'vitest';
import { compileText } from '../app/compile';
import { renderToStaticMarkup } from '../app/static-markup';
import { EV } from '../core/events';
import { loadCore } from '../core/module';
import { Player } from '../player/player';
import { BuddyTree, maxOrderBlocks } from './BuddyTree';

describe('maxOrderBlocks', () => {
  it('numbers the blocks of each zone in pfn order, both ways', () => {
    // DMA 256..4095 (blocks 0..3), Normal from 6000 for 3000 frames (blocks at 5120..8192)
    const b = maxOrderBlocks('256+3840 6000+3000', 1024);
    expect(b.length).toBe(4 + 4);
    expect([0, 3, 4, 7].map((i) => b.at(i))).toEqual([0, 3072, 5120, 8192]);
    expect(b.at(8)).toBeUndefined();
    expect(b.indexOf(5120)).toBe(4);
    expect(b.indexOf(8192)).toBe(7);
    expect(b.indexOf(4096)).toBe(-1); // between the zones
    expect(b.indexOf(5121)).toBe(-1); // not a head
  });

  it('counts a 1 TiB zone without listing it', () => {
    const b = maxOrderBlocks(`${6428251}+${262007205}`, 1024);
    expect(b.length).toBe(262144 - Math.floor(6428251 / 1024));
    expect(b.at(b.length - 1)).toBe(268435456 - 1024);
    expect(b.indexOf(268435456 - 1024)).toBe(b.length - 1);
  });
});

describe('BuddyTree', async () => {
  const core = await loadCore();

  /**
   * The tree at the last event of kind `pick` of two allocations on tiny (64-frame blocks): the
   * first takes pfn 0 (which the views read as no pfn), the second splits the rest.
   */
  function atLast(pick: (kind: number) => boolean) {
    const out = compileText(
      'machine tiny\nprofile 6.18\ncpu 0 alloc a order=0\ncpu 0 alloc b order=3\n',
    );
    if (!out.ok) throw new Error(out.error.message);
    const sim = core.createSim(out.program.config);
    const p = new Player(sim, out.program.ops);
    p.seekOp(2);
    while (p.currentEvent && !pick(p.currentEvent.kind)) p.stepEvent(-1);
    const event = p.currentEvent;
    if (!event) throw new Error('no such event');
    const html = renderToStaticMarkup(
      <BuddyTree
        state={sim.state()}
        event={event}
        opEvents={p.currentOpEvents}
        options={{ theme: 'light', reducedMotion: true }}
      />,
    );
    sim.dispose();
    return { event, html };
  }

  it('outlines the event’s block and, for a split, the parent it came from, over the tree', () => {
    const { event, html } = atLast((k) => k === EV.BUDDY_SPLIT);
    const marked = [...html.matchAll(/data-marked="([^"]+)"/g)].map((m) => m[1]);
    expect(marked).toEqual([
      `${event.pfn}/${event.order}`,
      `${event.pfn - (1 << event.order)}/${event.order + 1}`,
    ]);
    // the nodes themselves are drawn as at any other event: no node carries the outline
    expect(html).not.toMatch(/<g data-node[^>]*>(?:(?!<\/g>).)*stroke-width="3"/);
  });

  it('outlines the allocated page alone at mm_page_alloc', () => {
    const { event, html } = atLast((k) => k === EV.MM_PAGE_ALLOC);
    expect(event.pfn).toBeGreaterThan(0);
    const marked = [...html.matchAll(/data-marked="([^"]+)"/g)].map((m) => m[1]);
    expect(marked).toEqual([`${event.pfn}/3`]);
  });
});
