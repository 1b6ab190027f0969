// Issue 18 in the browser: a 1 TiB machine (traces/captured/zoneinfo-1tib.txt, 268M frames)
// pasted into the Your machine page, opened in the playground, a workload run on it, stepped and
// sought; the memory map an overview counted from block heads (held against the core's class map
// of its cells), zoomed from the keyboard down to single frames; the model's memory said in the
// readout, for both machines in compare mode. No timings here: those are npm run bench's rows.
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { failOnConsoleProblems } from './console.ts';
import { PlaygroundPage } from './pages/PlaygroundPage.ts';

const ZONEINFO = readFileSync(
  new URL('../traces/captured/zoneinfo-1tib.txt', import.meta.url),
  'utf8',
);

const WORKLOAD =
  'profile 6.18\ncpu 0 random 3000 max_order=3 free=45 GFP_KERNEL\ncpu 1 random 3000 max_order=2 free=50 GFP_HIGHUSER_MOVABLE\n';

/** Over the 20,000 ops that load in slices (web/runner/sliced-load.ts). */
const LONG_WORKLOAD =
  'profile 6.18\ncpu 0 random 12000 max_order=3 free=45 GFP_KERNEL\ncpu 1 random 12000 max_order=2 free=50 GFP_HIGHUSER_MOVABLE\n';

/** Build the 1 TiB machine from its zoneinfo and open the playground on it. */
async function openBigMachine(page: Page): Promise<PlaygroundPage> {
  await page.goto('./#/your-machine');
  await page.getByLabel(/Paste \/proc\/zoneinfo/).fill(ZONEINFO);
  await page.getByRole('button', { name: 'Build the machine' }).click();
  // 1 TiB of managed pages, in the machine's own table
  await expect(page.getByRole('heading', { name: '3. Your machine' })).toBeVisible();
  await page.getByRole('button', { name: 'Open the playground on this machine' }).click();
  const pg = new PlaygroundPage(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Playground' })).toBeVisible();
  await page.waitForFunction(() => !!window.__buddyscope, null, { timeout: 60_000 });
  await expect(page.locator('.cm-content')).toBeVisible();
  return pg;
}

const map = (page: Page) => page.locator('.views section.memory-map').first();

test.describe('a 1 TiB machine', () => {
  test.setTimeout(180_000);
  failOnConsoleProblems();

  test('loads from its zoneinfo, runs, steps and seeks, its map an overview that zooms to frames', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const pg = await openBigMachine(page);
    const frames = await page.evaluate(() => window.__buddyscope?.state().frames.count ?? 0);
    expect(frames).toBeGreaterThan(250_000_000); // 1 TiB less what the firmware and kernel keep
    await pg.run(WORKLOAD);
    await expect
      .poll(() => page.evaluate(() => window.__buddyscope?.player.length ?? 0), { timeout: 60_000 })
      .toBe(6000);

    // the whole machine: an overview of cells of many frames, counted as the core paints them
    const m = map(page);
    await pg.key('End');
    await expect(m).toHaveAttribute('data-mode', 'overview');
    expect(Number(await m.getAttribute('data-unit'))).toBeGreaterThanOrEqual(2 ** 14);
    await pg.expectViewsInSync();
    // a step back and forward, a seek to the middle and back to the start
    await pg.key('ArrowLeft');
    await pg.expectViewsInSync();
    await pg.key('ArrowRight');
    await expect(m).toHaveAttribute('data-changed-marks', /^[1-9]/);
    await pg.expectViewsInSync();
    await pg.scrubber.focus();
    await pg.scrubber.press('PageDown');
    await pg.expectViewsInSync();
    await pg.key('Home');
    expect((await pg.model()).op).toBe(0);
    await pg.expectViewsInSync();
    await pg.key('End');
    // a long workload loads in slices on a machine of its own, which the player adopts: the
    // map's overview is counted and drawn again, every cell
    await pg.run(LONG_WORKLOAD);
    await expect
      .poll(() => page.evaluate(() => window.__buddyscope?.player.length ?? 0), {
        timeout: 120_000,
      })
      .toBe(24_000);
    await pg.key('End');
    await pg.expectViewsInSync();

    // the memory the model holds: a 1 TiB machine's arena, the frames its workload touched
    const memory = page.getByTestId('model-memory');
    await expect(memory.locator('tr[data-row="arena"] td')).toHaveText(/MiB$/);
    const used = Number(await memory.locator('tr[data-row="frames"] td').getAttribute('data-used'));
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThan(
      Number(await memory.locator('tr[data-row="frames"] td').getAttribute('data-pool')),
    );
    await expect(memory.locator('tr[data-row="checkpoints"] td')).toHaveText(/ × .* = /);

    // zoom from the keyboard down to single frames, following the cursor
    const overlay = m.locator('canvas[data-layer="overlay"]');
    await overlay.focus();
    for (let i = 0; i < 24; i++) {
      if ((await m.getAttribute('data-mode')) === 'blocks') break;
      await page.keyboard.press('+');
    }
    await expect(m).toHaveAttribute('data-mode', 'blocks');
    await expect(m).toHaveAttribute('data-unit', '1');
    await expect(m.getByTestId('map-info')).toContainText('/row');
    await expect
      .poll(() => page.evaluate(() => window.__buddyscope?.mapMismatch() ?? 'no test API'))
      .toBeNull();
    // the keyboard cursor says what holds a frame
    await page.keyboard.press('ArrowRight');
    await expect(m.getByTestId('map-info')).toContainText(/pfn \d+ \(Normal\)/);
    // and back out to the whole machine
    await page.keyboard.press('0');
    await expect(m).toHaveAttribute('data-mode', 'overview');
    await expect
      .poll(() => page.evaluate(() => window.__buddyscope?.mapMismatch() ?? 'no test API'))
      .toBeNull();

    const results = await new AxeBuilder({ page })
      .include('.playground')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    expect(
      results.violations.map(
        (v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
    ).toEqual([]);
  });

  test('compare mode: both machines in the memory readout, the maps mark the cells that differ', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const pg = await openBigMachine(page);
    await pg.run('profile 6.18\ncpu 0 random 400 max_order=1 free=40 GFP_KERNEL\n');
    await pg.key('End');
    await page.getByLabel('Compare with').check();
    await page.getByLabel('Profile to compare with').selectOption('5.13');
    const cmp = page.getByRole('region', { name: /6\.18 against 5\.13/ });
    const maps = cmp.locator('section.memory-map');
    await expect(maps).toHaveCount(2, { timeout: 60_000 });
    await expect(maps.nth(0)).toHaveAttribute('data-mode', 'overview');
    // 5.13 keeps order-0 pages alone on its per-CPU lists: the machines differ somewhere
    await expect
      .poll(async () => Number(await maps.nth(0).getAttribute('data-differing-frames')), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    const memory = page.getByTestId('model-memory');
    await expect(memory.getByRole('columnheader')).toHaveText(['6.18', '5.13']);
    await expect(memory.locator('tr[data-row="arena"] td')).toHaveCount(2);
    for (const i of [0, 1])
      expect(
        Number(await memory.locator('tr[data-row="frames"] td').nth(i).getAttribute('data-used')),
      ).toBeGreaterThan(0);
    // at the start the machines are the same: no cell marked
    await pg.key('Home');
    await expect(maps.nth(0)).toHaveAttribute('data-differing-frames', '0');
  });
});
