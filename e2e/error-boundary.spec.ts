// A share link the core refuses shows what failed, a view that throws while drawing shows a
// panel in its place while the rest of the page works, and Try again or following a good link in
// the same tab afterwards recovers: nothing stays blank or broken (issue 19, item 1).
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { ExplicitMachine } from '../web/core/machine-config.ts';
import { encodeState } from '../web/share/link.ts';
import { PLAYGROUND_VIEWS, PlaygroundPage } from './pages/PlaygroundPage.ts';

const GOLDEN = JSON.parse(readFileSync('web/share/fixtures/golden-links.json', 'utf8')) as {
  link: string;
  currentSeq: number;
}[];

/** Two zones of one node that overlap: the link's checks may pass it, the core refuses it. */
const OVERLAPPING: ExplicitMachine = {
  kind: 'explicit',
  nodes: 1,
  cpusPerNode: 2,
  maxOrder: 10,
  pageblockOrder: 9,
  thp: false,
  zones: [
    [
      { startPfn: 0, spanned: 4096, present: 4096, managed: 4096 },
      { startPfn: 2048, spanned: 4096, present: 4096, managed: 4096 },
    ],
  ],
};

test('a link the core refuses says so, and a good link followed in the same tab works', async ({
  page,
}) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const bad = await encodeState(
    {
      text: 'cpu 0 alloc a order=0\n',
      machine: OVERLAPPING,
      position: { op: 1, event: -1 },
      views: { compare: null },
    },
    1,
  );
  await page.goto(`./#/playground?s=${bad}`);
  await expect(page.getByRole('alert')).toContainText(/refused|cannot be opened/);
  // The site around it still works.
  await expect(page.getByRole('navigation', { name: 'Site' })).toBeVisible();

  const good = GOLDEN[0];
  if (!good) throw new Error('no golden link');
  await page.evaluate((l) => {
    window.location.hash = `#/playground?s=${l}`;
  }, good.link);
  const pg = new PlaygroundPage(page);
  await expect(pg.transport).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => window.__buddyscope?.currentEvent()?.seq ?? -1))
    .toBe(good.currentSeq);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.locator('.view-failed, .route-failed')).toHaveCount(0);
  await pg.expectViewsInSync();
  expect(pageErrors).toEqual([]);
});

test('an embed of a bad link says why, and a good link followed in the same frame opens', async ({
  page,
}) => {
  await page.goto('./#/embed?s=1.1.AAAA');
  await expect(page.locator('body')).toContainText(/cannot/);
  const good = GOLDEN[0]?.link ?? '';
  await page.evaluate((l) => {
    window.location.hash = `#/embed?s=${l}&start=0&end=0`;
  }, good);
  await expect(page.getByRole('group', { name: 'Timeline' })).toBeVisible();
});

/**
 * Make the memory map's canvases refuse to draw (as a lost context or an exhausted heap would),
 * or stop. Only the map's: the buddy tree paints its smallest nodes on a canvas too, and one
 * failed view is what the test follows.
 */
async function breakCanvas(page: Page, broken: boolean): Promise<void> {
  await page.evaluate((on) => {
    const w = window as unknown as {
      keptGetContext?: typeof HTMLCanvasElement.prototype.getContext;
    };
    const kept = (w.keptGetContext ??= HTMLCanvasElement.prototype.getContext);
    HTMLCanvasElement.prototype.getContext = on
      ? (function (this: HTMLCanvasElement, ...args: Parameters<typeof kept>) {
          if (this.closest('.memory-map')) throw new Error('the canvas is gone');
          return kept.apply(this, args);
        } as typeof kept)
      : kept;
  }, broken);
}

test('a view that throws shows a panel in its place, the rest works, and it recovers', async ({
  page,
}) => {
  const pg = new PlaygroundPage(page);
  await pg.goto();
  await pg.run(
    'machine tiny\nseed 2\nrepeat 4 {\n  cpu 0 alloc a order=0\n}\ncpu 1 alloc b order=2\n',
  );
  await pg.key('Home');
  await breakCanvas(page, true);
  await pg.key('ArrowRight'); // the memory map repaints its canvas for the new state, and throws
  const failed = page.locator('.view-failed');
  await expect(failed).toHaveCount(1);
  await expect(failed.getByRole('heading', { name: 'Memory map' })).toBeVisible();
  await expect(failed).toContainText('This view failed: the canvas is gone');
  const axe = await new AxeBuilder({ page }).include('.view-failed').analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await expect(page.getByTestId('narration')).toHaveText('Memory map failed: the canvas is gone');
  // The rest of the page works: the other views are drawn and follow the timeline.
  await expect(page.locator('.views section.view[data-event-seq]')).toHaveCount(
    PLAYGROUND_VIEWS - 1,
  );
  const before = (await pg.model()).globalEvent;
  await pg.key('ArrowRight');
  await expect.poll(async () => (await pg.model()).globalEvent).toBeGreaterThan(before);
  await expect(pg.view('Event log')).toBeVisible();

  // Try again, once drawing works again.
  await breakCanvas(page, false);
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect(failed).toHaveCount(0);
  await pg.expectViewsInSync();

  // Broken again; then a good link followed in the same tab draws everything.
  await breakCanvas(page, true);
  await pg.key('ArrowRight');
  await expect(failed).toHaveCount(1);
  await breakCanvas(page, false);
  const good = GOLDEN[0];
  if (!good) throw new Error('no golden link');
  await page.evaluate((l) => {
    window.location.hash = `#/playground?s=${l}`;
  }, good.link);
  await expect
    .poll(() => page.evaluate(() => window.__buddyscope?.currentEvent()?.seq ?? -1))
    .toBe(good.currentSeq);
  await expect(failed).toHaveCount(0);
  await pg.expectViewsInSync();
});
