// Workloads in the browser, end to end: the editor's live errors, saved drafts, share links in a
// fresh browser, embeds, real kernel traces (read from $BUDDYSCOPE_SHARED/traces) and bad input of
// every kind.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { failOnConsoleProblems } from './console.ts';
import { PlaygroundPage } from './pages/PlaygroundPage.ts';

const shared = process.env.BUDDYSCOPE_SHARED ?? join(process.cwd(), '..', 'shared');
const GOLDEN = JSON.parse(readFileSync('web/share/fixtures/golden-links.json', 'utf8')) as {
  link: string;
  state: { position: { op: number; event: number } };
  currentSeq: number;
}[];

async function position(page: Page) {
  return page.evaluate(() => {
    const api = window.__buddyscope;
    if (!api) throw new Error('no test API');
    const s = api.state();
    return {
      op: api.player.position.op,
      event: api.player.position.event,
      length: api.player.length,
      totalEvents: api.player.totalEvents,
      seq: api.currentEvent()?.seq ?? -1,
      profile: s.profile,
      free: s.nodes.flatMap((n) => n.zones.map((z) => z.nrFreePages)),
    };
  });
}

test.describe('workloads', () => {
  test.describe.configure({ timeout: 90_000 });
  failOnConsoleProblems(['error']);

  test('an error shows at its line and column as you type; the fix runs; a reload keeps the edit', async ({
    page,
  }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.setText('machine tiny\nseed 3\ncpu 0 alloc a order=1 GFP_KERNAL\n');
    const err = page.locator('#workload-error');
    await expect(err).toContainText('Line 3, column 23');
    await expect(err).toContainText('did you mean GFP_KERNEL?');
    await expect(page.locator('.cm-lintRange-error')).toHaveText('GFP_KERNAL');
    await page.screenshot({ path: 'test-results/workloads-error.png', fullPage: false });

    // Fix it: the simulation follows the edit after a pause (no Run click).
    await pg.setText(
      'machine tiny\nseed 3\ncpu 0 alloc a order=1 GFP_KERNEL\ncpu 1 alloc b order=2 GFP_KERNEL\n',
    );
    await expect(err).toHaveCount(0);
    await expect.poll(async () => (await position(page)).length).toBe(2);

    // Ctrl+Enter runs from the editor too.
    await pg.editor.press('End');
    await page.keyboard.type('\ncpu 0 free a');
    await pg.editor.press('Control+Enter');
    await expect.poll(async () => (await position(page)).length).toBe(3);

    await page.waitForTimeout(600); // the draft is saved 400 ms after the last keystroke
    await page.reload();
    await expect(page.locator('.cm-content')).toContainText('cpu 0 free a');
    await expect.poll(async () => (await position(page)).length).toBe(3);
  });

  test('a share link opens the same step with the same state in a fresh browser', async ({
    page,
    browser,
    baseURL,
  }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run(
      'machine tiny\nprofile 5.13\nseed 11\nrepeat 6 {\n  cpu 0 alloc a order=0 GFP_KERNEL\n  cpu 1 alloc b order=1 GFP_KERNEL\n}\ndrain all\n',
    );
    await pg.key('Home');
    await pg.key('ArrowRight', 5);
    await pg.key('Shift+ArrowRight', 2);
    const here = await position(page);
    expect(here.op).toBeGreaterThan(0);
    await page.getByText('Share', { exact: true }).click();
    await page.getByRole('button', { name: 'Copy share link' }).click();
    const url = await page.getByTestId('share-url').inputValue();
    expect(url).toMatch(/#\/playground\?s=1\.\d+\./);

    const fresh = await browser.newContext({ baseURL });
    const other = await fresh.newPage();
    await other.goto(url);
    await other.waitForFunction(
      () => !!window.__buddyscope && window.__buddyscope.player.length > 0,
    );
    await expect.poll(async () => position(other)).toEqual(here);
    await expect(other.locator('.cm-content')).toContainText('profile 5.13');
    await other.screenshot({ path: 'test-results/workloads-shared.png' });

    // The embed form: the views and the player alone, at the same step.
    const embedUrl = url.replace('#/playground?', '#/embed?');
    await other.goto(embedUrl);
    await expect(other.getByRole('group', { name: 'Timeline' })).toBeVisible();
    await expect(other.getByRole('navigation', { name: 'Site' })).toHaveCount(0);
    await expect.poll(async () => position(other)).toEqual(here);
    await other.screenshot({ path: 'test-results/workloads-embed.png' });
    await fresh.close();
  });

  test('a golden link and an embed with start, end and loop open and play', async ({ page }) => {
    const g = GOLDEN[0];
    if (!g) throw new Error('no golden link');
    await page.goto(`./#/playground?s=${g.link}`);
    await page.waitForFunction(() => !!window.__buddyscope);
    await expect.poll(async () => (await position(page)).seq).toBe(g.currentSeq);
    await page.goto(`./#/embed?s=${g.link}&start=2&end=5&loop=1`);
    await page.waitForFunction(() => !!window.__buddyscope);
    // Playing and looping: the op stays within [2, 5] and moves.
    const seen = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const p = await position(page);
      expect(p.op).toBeGreaterThanOrEqual(2);
      expect(p.op).toBeLessThanOrEqual(5);
      seen.add(p.op);
      await page.waitForTimeout(150);
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  test('a broken link says why and keeps the saved draft', async ({ page }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.setText('machine tiny\ncpu 0 alloc mine order=2\n');
    await page.waitForTimeout(700);
    const g = GOLDEN[0]?.link ?? '';
    for (const bad of [g.slice(0, g.length - 20), 'https://example.org/', '99.1.AAAA']) {
      await page.goto(`./#/playground?s=${encodeURIComponent(bad)}`);
      await expect(page.getByRole('alert')).toContainText('This link cannot be opened');
      await expect(page.locator('.cm-content')).toContainText('alloc mine order=2');
    }
    await page.screenshot({ path: 'test-results/workloads-bad-link.png' });
  });

  for (const name of ['touch8-cpu0.trace.gz', 'tcp-loopback-8m.trace.gz']) {
    test(`imports and replays the real trace ${name}`, async ({ page }) => {
      const path = join(shared, 'traces', name);
      test.skip(!existsSync(path), `${path} is not there`);
      const pg = new PlaygroundPage(page);
      await pg.goto();
      await page.getByText('Files and kernel traces', { exact: true }).click();
      await page.getByTestId('trace-file').setInputFiles(path);
      const summary = page.getByLabel('What was imported');
      await expect(summary).toContainText(`From ${name}`);
      await expect(summary).toContainText('frees of pages not allocated in the trace');
      const imported = await summary.locator('strong').allInnerTexts();
      // page allocations and frees, then percpu allocations and frees when the trace has them
      const ops = imported.slice(1, 5).reduce((n, t) => n + Number(t), 0);
      expect(ops).toBeGreaterThan(100);
      await expect.poll(async () => (await position(page)).length, { timeout: 30_000 }).toBe(ops);
      await pg.key('End');
      const end = await position(page);
      expect(end.op).toBe(ops);
      expect(end.totalEvents).toBeGreaterThan(ops);
      await page.screenshot({ path: `test-results/workloads-trace-${name}.png` });
    });
  }

  test('a file that is not text, and a workload over the limits, get a clear message', async ({
    page,
  }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await page.getByText('Files and kernel traces', { exact: true }).click();
    await page.getByTestId('trace-file').setInputFiles({
      name: 'core.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]),
    });
    await expect(page.getByRole('alert')).toContainText(
      'core.bin: this is not a text file: byte 4 is 0x00',
    );
    await pg.setText('machine tiny\nrepeat 3000000 {\n  tick\n}\n');
    await expect(page.locator('#workload-error')).toContainText('above the limit of 2,000,000 ops');
    await expect(page.locator('.cm-content')).toContainText('repeat 3000000');
  });

  test('a long workload loads in slices and the page stays responsive', async ({ page }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.setText('machine tiny\nseed 1\nrepeat 150000 {\n  cpu 0 alloc a\n  cpu 0 free a\n}\n');
    await page.getByRole('button', { name: 'Run workload' }).click();
    // While it loads, the page answers within a frame or two.
    const lag = await page.evaluate(async () => {
      let worst = 0;
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        await new Promise((r) => setTimeout(r, 0));
        worst = Math.max(worst, performance.now() - t);
      }
      return worst;
    });
    expect(lag).toBeLessThan(500);
    await expect.poll(async () => (await position(page)).length, { timeout: 60_000 }).toBe(300000);
  });

  test('your machine: a real zoneinfo builds the machine and opens the playground on it', async ({
    page,
  }) => {
    const zoneinfo = join('traces', 'zoneinfo-at-capture.txt');
    await page.goto('./#/your-machine');
    await expect(page.getByRole('heading', { level: 1, name: 'Your machine' })).toBeVisible();
    await page.getByLabel('Paste /proc/zoneinfo').fill(readFileSync(zoneinfo, 'utf8'));
    await page.getByRole('button', { name: 'Build the machine' }).click();
    await expect(page.getByRole('heading', { name: '3. Your machine' })).toBeVisible();
    await page.screenshot({ path: 'test-results/workloads-your-machine.png', fullPage: true });
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    await page.getByRole('button', { name: 'Open the playground on this machine' }).click();
    await page.waitForFunction(
      () => !!window.__buddyscope && window.__buddyscope.player.length > 0,
    );
    await expect(page.getByText('Machine: yours, from /proc/zoneinfo')).toBeVisible();
    const s = await page.evaluate(() =>
      window.__buddyscope?.state().nodes[0]?.zones.map((z) => z.name),
    );
    expect(s).toEqual(expect.arrayContaining(['DMA', 'DMA32', 'Normal']));
    await page.screenshot({ path: 'test-results/workloads-playground-your-machine.png' });
  });

  test('your machine: a capture builds the machine in its captured state; a bad file names its line and column and nothing typed is lost', async ({
    page,
  }) => {
    const dir = join('traces', 'captured', 'thp');
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    await page.goto('./#/your-machine');
    await page.getByLabel('Paste /proc/zoneinfo').fill(read('zoneinfo'));
    const buddy = page.getByLabel('Paste /proc/buddyinfo');
    const bad = read('buddyinfo').replace(/(zone\s+Normal\s+\d+\s+)\d+/, '$1x9');
    await buddy.fill(bad);
    await page.getByLabel('Paste /proc/pagetypeinfo').fill(read('pagetypeinfo'));
    await page.getByRole('button', { name: 'Build the machine' }).click();
    await expect(page.getByRole('alert')).toContainText(
      'buddyinfo, line 3, column 31: expected a count of free blocks, found "x9"',
    );
    await expect(buddy).toHaveAttribute('aria-invalid', 'true');
    // what was typed is still there, in all three boxes
    await expect(buddy).toHaveValue(bad);
    await expect(page.getByLabel('Paste /proc/pagetypeinfo')).toHaveValue(read('pagetypeinfo'));
    await buddy.fill(read('buddyinfo'));
    await page.getByRole('button', { name: 'Build the machine' }).click();
    await expect(page.getByRole('table', { name: /The state the files show/ })).toContainText(
      'Unmovable 141, Movable 2389, Reclaimable 94',
    );
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    await page.screenshot({
      path: 'test-results/workloads-your-machine-captured.png',
      fullPage: true,
    });
    await page.getByRole('button', { name: 'Open the playground on this machine' }).click();
    await page.waitForFunction(
      () => !!window.__buddyscope && window.__buddyscope.player.length > 0,
    );
    // the playground's machine booted in the captured state: Normal's free pages are the capture's
    const free = await page.evaluate(
      () =>
        window.__buddyscope?.state().nodes[0]?.zones.find((z) => z.name === 'Normal')?.nrFreePages,
    );
    const expected = read('pagetypeinfo')
      .split('\n')
      .filter((l) => /zone\s+Normal, type\s+(Unmovable|Movable|Reclaimable|HighAtomic)\b/.test(l))
      .reduce(
        (n, l) =>
          n +
          l
            .trim()
            .split(/\s+/)
            .slice(6)
            .reduce((m, c, o) => m + Number(c) * 2 ** o, 0),
        0,
      );
    expect(Number(free)).toBeLessThanOrEqual(expected);
    expect(Number(free)).toBeGreaterThan(expected - 2048);
  });
});
