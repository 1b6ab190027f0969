// The playground end to end: run a workload, walk its timeline at both grains, scrub, branch,
// switch profile, compare; every view highlights the core's current event at every step; no
// console errors; no accessibility violations; a screenshot of every view for a human to look at.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { failOnConsoleProblems } from './console.ts';
import { PlaygroundPage } from './pages/PlaygroundPage.ts';

const WORKLOAD = `# e2e: refills, a split, frees, a drain
machine tiny
profile 6.18
seed 5
repeat 3 {
  cpu 0 alloc a order=0 GFP_KERNEL
  cpu 1 alloc b order=1 GFP_HIGHUSER_MOVABLE
}
cpu 0 alloc big order=3
cpu 1 free b *
drain all
cpu 0 free a *
tick 1
`;

const VIEWS = [
  'Memory map',
  'Event log',
  'Allocation walk',
  'Free areas',
  'Free lists',
  'Buddy tree',
  'Per-CPU lists',
  'Zones and watermarks',
  'Counters',
  '/proc',
  'Code',
];

test.describe('playground', () => {
  // Each step checks every view against the core: the walk-through tests take a while.
  test.describe.configure({ timeout: 120_000 });
  failOnConsoleProblems();

  test('steps by op and by event, forward and back, with every view on the current event', async ({
    page,
  }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run(WORKLOAD);
    await pg.key('Home');
    let m = await pg.expectViewsInSync();
    expect(m.length).toBe(15); // repeat 3 x 2 allocs, big, 3 frees of b, drain, 3 frees of a, tick
    expect(m.op).toBe(0);

    // Forward one op at a time to the end, then back.
    for (let i = 1; i <= m.length; i++) {
      await pg.key('ArrowRight');
      m = await pg.expectViewsInSync();
      expect(m.op).toBe(i);
    }
    await pg.key('ArrowRight');
    expect((await pg.model()).op).toBe(15);
    for (let i = 14; i >= 10; i--) {
      await pg.key('ArrowLeft');
      m = await pg.expectViewsInSync();
      expect(m.op).toBe(i);
    }

    // Event grain from the start: global event index advances by one each step.
    await pg.key('Home');
    m = await pg.expectViewsInSync();
    expect(m.globalEvent).toBe(-1);
    for (let i = 0; i < 25; i++) {
      await pg.key('Shift+ArrowRight');
      m = await pg.expectViewsInSync();
      expect(m.globalEvent).toBe(i);
      expect(m.seq).toBeGreaterThanOrEqual(0);
    }
    for (let i = 23; i >= 20; i--) {
      await pg.key('Shift+ArrowLeft');
      m = await pg.expectViewsInSync();
      expect(m.globalEvent).toBe(i);
    }
    await pg.key('End');
    m = await pg.expectViewsInSync();
    expect(m.globalEvent).toBe(m.totalEvents - 1);
  });

  test('scrubs, plays, branches, switches profile and compares', async ({ page }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run(WORKLOAD);
    const total = (await pg.model()).totalEvents;

    // Scrub to a few points of the history.
    for (const g of [Math.floor(total / 2), 3, total - 1]) {
      await pg.scrubber.fill(String(g));
      const m = await pg.expectViewsInSync();
      expect(m.globalEvent).toBe(g);
    }

    // Play from the start at the fastest speed until the end.
    await pg.key('Home');
    await page.getByLabel('Speed', { exact: true }).selectOption('1000');
    await pg.key('Space');
    await expect.poll(async () => (await pg.model()).op, { timeout: 5000 }).toBe(15);
    await pg.expectViewsInSync();

    // Change an op in the past: a new branch; the old future is still there.
    await pg.scrubber.fill('5');
    const before = (await pg.model()).branches;
    await pg.run(WORKLOAD.replace('cpu 0 alloc big order=3', 'cpu 0 alloc big order=2'));
    let m = await pg.model();
    expect(m.branches).toBe(before + 1);
    const branch = page.getByLabel('Branch', { exact: true });
    await expect(branch.locator('option')).toHaveCount(before + 1);
    await branch.selectOption({ index: before - 1 }); // the branch the edit forked from
    m = await pg.expectViewsInSync();
    await pg.key('End');
    m = await pg.expectViewsInSync();
    expect(m.length).toBe(15);
    expect(m.op).toBe(15);

    // Switch the kernel profile: a new machine, same workload.
    await page.getByLabel('Kernel', { exact: true }).selectOption('5.13');
    await expect.poll(async () => (await pg.model()).profile).toBe('5.13');
    await pg.key('End');
    await pg.expectViewsInSync();

    // Compare 5.13 with 6.18: the second machine follows the cursor.
    await page.getByLabel('Compare with').check();
    await page.getByLabel('Profile to compare with').selectOption('6.18');
    const cmp = page.getByRole('region', { name: /5\.13 against 6\.18/ });
    await expect(cmp).toBeVisible();
    await pg.key('ArrowLeft', 3);
    m = await pg.model();
    expect(m.compareOp).toBe(m.op);
    await expect(cmp.locator('.diff').first()).toBeVisible();
    await pg.unstickTransport();
    await cmp.screenshot({ path: 'test-results/screenshots/compare.png' });
  });

  test('the memory map of a 16 GiB machine follows every move, pixel for pixel', async ({
    page,
  }) => {
    // The map repaints the blocks whose frames changed (wasm-core/src/base/state.h, frame_changed):
    // each move below is followed by a pixel-for-pixel check of its canvas against the model.
    const big =
      'machine laptop\nseed 3\ncpu 0 random 3000 max_order=3 free=40 GFP_KERNEL\ncpu 5 random 2000 max_order=2 free=45 GFP_HIGHUSER_MOVABLE\n';
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run(big);
    await pg.key('End');
    await pg.expectViewsInSync();
    for (const chord of ['ArrowLeft', 'ArrowLeft', 'ArrowRight', 'Shift+ArrowLeft', 'Home', 'End'])
      await pg.key(chord).then(() => pg.expectViewsInSync());
    const total = (await pg.model()).totalEvents;
    for (const g of [Math.floor(total / 3), Math.floor(total / 3) + 40, 7]) {
      await pg.scrubber.fill(String(g));
      expect((await pg.expectViewsInSync()).globalEvent).toBe(g);
    }
    // Zoomed in, following the event: another window, then steps inside it.
    await pg.view('Memory map').getByRole('button', { name: 'Zoom in' }).click();
    await pg.key('ArrowRight', 3);
    await pg.expectViewsInSync();
    // A branch: the first stream's 3000 ops the same, the second stream on another CPU.
    await pg.key('End');
    await pg.scrubber.fill(String(Math.floor(total / 2)));
    await pg.run(big.replace('cpu 5 random 2000', 'cpu 6 random 2000'));
    await pg.key('End');
    await pg.expectViewsInSync();
    await pg.key('ArrowLeft', 2);
    await pg.expectViewsInSync();
    await pg.unstickTransport();
    await pg
      .view('Memory map')
      .screenshot({ path: 'test-results/screenshots/memory-map-16gib.png' });
  });

  test('keyboard help lists every key and closes with Escape', async ({ page }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.key('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard' });
    await expect(dialog).toBeVisible();
    for (const label of [
      'Play / pause',
      'Forward one op',
      'Back one event',
      'To the end',
      'Show keyboard shortcuts',
    ]) {
      await expect(dialog.getByRole('rowheader', { name: label })).toBeVisible();
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // Inside the memory map, arrows inspect frames instead of stepping the timeline.
    await pg.key('ArrowRight', 3);
    const before = await pg.model();
    await page.getByRole('img', { name: /^Memory map/ }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    expect((await pg.model()).op).toBe(before.op);
    await expect(page.getByTestId('map-info')).toContainText(/pfn \d+ \(Normal\)/);
  });

  test('has no accessibility violations, and every view gets a screenshot', async ({ page }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run(WORKLOAD);
    await pg.key('ArrowRight', 7);
    await pg.key('Shift+ArrowLeft', 2);
    await pg.expectViewsInSync();
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    expect(
      results.violations.map(
        (v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
    ).toEqual([]);
    // The sticky transport would cover the top of each element screenshot.
    await pg.unstickTransport();
    for (const name of VIEWS) {
      const view = pg.view(name);
      await expect(view).toBeVisible();
      await view.screenshot({
        path: `test-results/screenshots/${
          name
            .replace(/[^a-z]+/gi, '-')
            .replace(/^-|-$/g, '')
            .toLowerCase() || 'proc'
        }.png`,
      });
    }
    await pg.transport.screenshot({ path: 'test-results/screenshots/transport.png' });
    await page.screenshot({ path: 'test-results/screenshots/playground-full.png', fullPage: true });
  });

  test('dark theme and reduced motion', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run(WORKLOAD);
    await pg.key('ArrowRight', 4);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await pg.expectViewsInSync();
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await page.screenshot({ path: 'test-results/screenshots/playground-dark.png', fullPage: true });
  });
});
