// The memory map and the Code view teach at a glance (issue 14): blocks outlined at their order,
// the buddy of the pointed block marked, zone boundaries, splits and merges drawn, an overview on
// big machines in which a step visibly changes something, compare mode marking the frames whose
// class differs, and the Code view on the line of the model that emitted the current event.
// Each check reads what the map says it drew (data attributes set from what it drew) and the
// canvas pixels themselves.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { failOnConsoleProblems } from './console.ts';
import { PlaygroundPage } from './pages/PlaygroundPage.ts';

/** The alpha (or the RGBA words) of a canvas layer of the first memory map, read through a copy. */
async function layerPixels(page: Page, layer: string, map = 0): Promise<number[]> {
  return page.evaluate(
    ([name, index]) => {
      const maps = document.querySelectorAll('section.memory-map');
      const c = maps[index as number]?.querySelector<HTMLCanvasElement>(
        `canvas[data-layer="${name}"]`,
      );
      if (!c) return [];
      const copy = document.createElement('canvas');
      copy.width = c.width;
      copy.height = c.height;
      const ctx = copy.getContext('2d', { willReadFrequently: true });
      if (!ctx) return [];
      ctx.drawImage(c, 0, 0);
      return Array.from(new Uint32Array(ctx.getImageData(0, 0, c.width, c.height).data.buffer));
    },
    [layer, map] as const,
  );
}

/** How many pixels differ between two reads of a layer. */
function changedPixels(a: number[], b: number[]): number {
  let n = 0;
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) n++;
  return n;
}

/** Step forward by events until the current event is of kind `kind` (at most `max` steps). */
async function stepToKind(pg: PlaygroundPage, kind: number, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await pg.model()).kind === kind) return;
    await pg.key('Shift+ArrowRight');
  }
  throw new Error(`no event of kind ${kind} in ${max} steps`);
}

function map(page: Page): Locator {
  return page.locator('.views section.memory-map');
}

const EV_BUDDY_SPLIT = 11;
const EV_BUDDY_MERGE = 12;

test.describe('memory map and code view', () => {
  test.describe.configure({ timeout: 90_000 });
  failOnConsoleProblems();
  test.use({ viewport: { width: 1440, height: 900 } });

  test('outlines each block at its order: the booted tiny machine is four order-6 blocks', async ({
    page,
  }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run('machine tiny\ncpu 0 alloc a order=0\n');
    await pg.key('Home');
    const m = map(page);
    await expect(m).toHaveAttribute('data-mode', 'blocks');
    await expect(m).toHaveAttribute('data-blocks', '4');
    // The outlines are ink on the canvas: between the blocks (rows 4, 8, 12 of 16) there is a
    // line, and the middle of a block's first row is clear.
    const box = await m.locator('canvas[data-layer="outlines"]').boundingBox();
    const px = await layerPixels(page, 'outlines');
    const w = await m
      .locator('canvas[data-layer="outlines"]')
      .evaluate((c: HTMLCanvasElement) => c.width);
    expect(box && px.length).toBeTruthy();
    const dpr = w / (box?.width ?? 1);
    const cell = (box?.width ?? 0) / 16;
    const alpha = (x: number, y: number) =>
      ((px[Math.floor(y * dpr) * w + Math.floor(x * dpr)] ?? 0) >>> 24) & 255;
    const x = (box?.width ?? 0) / 5; // left of the order label
    expect(alpha(x, 4 * cell + 0.5)).toBeGreaterThan(100);
    expect(alpha(x, 4 * cell + cell / 2)).toBe(0);
    // One step later an order-0 allocation has split the first block: more blocks, labelled.
    await pg.key('End');
    await expect.poll(async () => Number(await m.getAttribute('data-blocks'))).toBeGreaterThan(4);
  });

  test('marks the buddy of the block under the pointer', async ({ page }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run('machine tiny\ncpu 0 alloc a order=0\n');
    await pg.key('Home');
    const m = map(page);
    const overlay = m.locator('canvas[data-layer="overlay"]');
    const box = await overlay.boundingBox();
    if (!box) throw new Error('no map');
    const cell = box.width / 16;
    await pg.key('End');
    const before = await layerPixels(page, 'overlay');
    // tiny's blocks of order 6 are its largest (max order): they have no buddy. After the
    // order-0 allocation split pfn 0's block, pfn 32 is a free order-5 block (rows 2-3): its
    // buddy is 32 XOR 32 = 0.
    await page.mouse.move(box.x + 3 * cell, box.y + 2.5 * cell);
    await expect(m).toHaveAttribute('data-pointed-block', '32/5');
    await expect(m).toHaveAttribute('data-buddy-pfn', '0');
    await expect(page.getByTestId('map-info')).toContainText('Its buddy (pfn 32 XOR 2^5) is pfn 0');
    expect(changedPixels(before, await layerPixels(page, 'overlay'))).toBeGreaterThan(200);
    // pfn 0 is the allocated order-0 page: its buddy is pfn 1.
    await page.mouse.move(box.x + cell / 2, box.y + cell / 2);
    await expect(m).toHaveAttribute('data-pointed-block', '0/0');
    await expect(m).toHaveAttribute('data-buddy-pfn', '1');
    // A block of the largest order has none.
    await page.mouse.move(box.x + 3 * cell, box.y + 5.5 * cell);
    await expect(m).toHaveAttribute('data-pointed-block', '64/6');
    await expect(m).toHaveAttribute('data-buddy-pfn', '-1');
  });

  test('draws zone boundaries', async ({ page }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run('machine small\ncpu 0 alloc a order=0\n');
    const m = map(page);
    // small: DMA32 then Normal; the boundary between them is drawn (a line and the zone's name).
    await expect
      .poll(async () => Number(await m.getAttribute('data-zone-lines')))
      .toBeGreaterThan(0);
    const px = await layerPixels(page, 'outlines');
    expect(px.filter((v) => v >>> 24 > 200).length).toBeGreaterThan(100);
  });

  test('shows a split as two halves and a merge as one block, at once under reduced motion', async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run('machine tiny\ncpu 0 alloc a order=2 GFP_ATOMIC\ncpu 0 free a *\ndrain all\n');
    await pg.key('Home');
    await pg.key('ArrowRight');
    await pg.key('Home');
    const m = map(page);
    await stepToKind(pg, EV_BUDDY_SPLIT);
    await expect(m).toHaveAttribute('data-event-shape', 'split');
    const split = await layerPixels(page, 'overlay');
    // The split's two halves are outlined apart: ink on the overlay where the event is.
    expect(split.filter((v) => v >>> 24 > 200).length).toBeGreaterThan(100);
    await stepToKind(pg, EV_BUDDY_MERGE, 200);
    await expect(m).toHaveAttribute('data-event-shape', 'merge');
    const merge = await layerPixels(page, 'overlay');
    expect(changedPixels(split, merge)).toBeGreaterThan(100);
  });

  for (const preset of ['classroom', 'laptop']) {
    test(`on ${preset}, the overview changes visibly when one page is allocated`, async ({
      page,
    }) => {
      const pg = new PlaygroundPage(page);
      await pg.goto();
      await pg.run(`machine ${preset}\ncpu 0 alloc a order=0\ncpu 1 alloc b order=0\n`);
      await pg.key('Home');
      const m = map(page);
      await expect(m).toHaveAttribute('data-mode', 'overview');
      const cells = await layerPixels(page, 'overview');
      const marks = await layerPixels(page, 'outlines');
      await pg.key('ArrowRight');
      await pg.expectViewsInSync();
      await expect(m).toHaveAttribute('data-changed-marks', /^[1-9]/);
      const changed =
        changedPixels(cells, await layerPixels(page, 'overview')) +
        changedPixels(marks, await layerPixels(page, 'outlines'));
      // one page of millions: still a marked cell of dozens of pixels
      expect(changed).toBeGreaterThan(60);
    });
  }

  test('compare mode marks the frames whose class differs', async ({ page }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    // 6.18 keeps a freed order-1 block on a per-CPU list; 5.13's lists hold order 0 only.
    await pg.run('machine tiny\nprofile 5.13\ncpu 0 alloc a order=1\ncpu 0 free a *\n');
    await pg.key('End');
    await page.getByLabel('Compare with').check();
    await page.getByLabel('Profile to compare with').selectOption('6.18');
    const cmp = page.getByRole('region', { name: /5\.13 against 6\.18/ });
    const maps = cmp.locator('section.memory-map');
    await expect(maps).toHaveCount(2);
    for (const i of [0, 1])
      await expect
        .poll(async () => Number(await maps.nth(i).getAttribute('data-differing-frames')))
        .toBeGreaterThan(0);
    // Back at the start the machines are the same: nothing marked.
    await pg.key('Home');
    await expect(maps.nth(0)).toHaveAttribute('data-differing-frames', '0');
  });

  test('draws each free list as a chain of blocks, and the buddy tree of a max-order block', async ({
    page,
  }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run('machine tiny\ncpu 0 alloc a order=0\n');
    await pg.key('Home');
    // Booted: free_area[6].free_list[Movable] holds pfn 0, 64, 128, 192 in that order.
    const lists = page.locator('.views section.free-lists');
    const movable6 = lists.getByRole('list', { name: 'free_area[6].free_list[Movable]: 4 blocks' });
    await expect(movable6.locator('li.chain-block')).toHaveText([
      /pfn 0$/,
      /pfn 64$/,
      /pfn 128$/,
      /pfn 192$/,
    ]);
    await expect(lists.locator('li.broken')).toHaveCount(0);
    // The tree of the first max-order block: one leaf, the whole block.
    const tree = page.locator('.views section.buddy-tree');
    await expect(tree.locator('[data-kind="block"]')).toHaveCount(1);
    // After an order-0 allocation the block is split down to order 0: six splits, seven blocks,
    // and the lists gained a block at each order 0..5.
    await pg.key('End');
    await expect(tree.locator('[data-kind="split"]')).toHaveCount(6);
    await expect(tree.locator('[data-kind="block"]')).toHaveCount(7);
    for (const order of [0, 1, 2, 3, 4, 5])
      await expect(lists.locator(`.free-list[data-order="${order}"]`)).toHaveCount(1);
  });

  test('the Code view highlights the line that emitted the current event', async ({ page }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run('machine tiny\ncpu 0 alloc a order=0\ncpu 1 alloc b order=3\ncpu 0 free a *\n');
    await pg.key('Home');
    const code = page.locator('.views section.code-view');
    const seen = new Set<string>();
    for (let i = 0; i < 8; i++) {
      await pg.key('Shift+ArrowRight');
      const e = await page.evaluate(() => window.__buddyscope?.currentEvent() ?? null);
      if (!e) continue;
      await expect(code).toHaveAttribute('data-src-line', String(e.srcLine));
      const current = code.locator('.code-line.current[data-current="true"]');
      await expect(current).toHaveAttribute('data-line', String(e.srcLine));
      await expect(current).toContainText('ev_emit(');
      seen.add(`${await code.getAttribute('data-src-path')}:${e.srcLine}`);
    }
    // Stepping by event walks the code: several lines, not one.
    expect(seen.size).toBeGreaterThan(2);
    const link = code.getByRole('link').first();
    await expect(link).toHaveAttribute(
      'href',
      /^https:\/\/elixir\.bootlin\.com\/linux\/v6\.18\/A\/ident\/\w+$/,
    );
  });

  test('has no accessibility violations with the new views drawn', async ({ page }) => {
    // (reduced motion: the per-CPU view's moving blocks are checked once they have landed)
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run('machine tiny\ncpu 0 alloc a order=0\ncpu 1 alloc b order=3\n');
    await pg.key('ArrowRight');
    await pg.key('Shift+ArrowRight', 2);
    await expect(page.locator('.views section.code-view .code-line.current')).not.toHaveCount(0);
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`),
    ).toEqual([]);
  });

  for (const theme of ['light', 'dark']) {
    test(`the per-CPU view's "moved" line reads at 4.5:1 while it slides in (${theme})`, async ({
      page,
    }) => {
      // Motion on: axe looks at the line as it arrives, when a fade would have thinned it.
      await page.emulateMedia({ reducedMotion: 'no-preference' });
      await page.addInitScript((t) => localStorage.setItem('buddyscope.theme', t), theme);
      const pg = new PlaygroundPage(page);
      await pg.goto();
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await pg.run('machine tiny\ncpu 0 alloc a order=0\ncpu 1 alloc b order=3\n');
      // Step event by event to the first refill or hit, which the view says in its "moved" line.
      const moved = page.locator('.pcp-move').first();
      for (let i = 0; i < 20 && (await moved.count()) === 0; i++) await pg.key('Shift+ArrowRight');
      await expect(moved).toBeVisible();
      const results = await new AxeBuilder({ page })
        .include('.pcp-move')
        .withRules(['color-contrast'])
        .analyze();
      expect(results.violations.map((v) => v.nodes.map((n) => n.failureSummary))).toEqual([]);
      expect(results.passes.length + results.incomplete.length).toBeGreaterThan(0);
    });
  }
});
