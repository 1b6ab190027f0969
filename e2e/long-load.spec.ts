// A 2M-op workload loads in the playground without taking the page from the reader: a progress
// bar moves while it loads, no task runs over 200 ms, input is handled within 100 ms, and Cancel
// stops the load with the previous run left in place.
import { expect, test, type Page } from '@playwright/test';
import { failOnConsoleProblems } from './console.ts';
import { PlaygroundPage } from './pages/PlaygroundPage.ts';

const LONG = `machine tiny
seed 3
cpu 0 random 1000000 max_order=3 free=50 GFP_KERNEL
cpu 1 random 1000000 GFP_KERNEL
`;
const LONG_OPS = 2_000_000;

const SHORT = `machine tiny
seed 3
cpu 0 alloc a order=1 GFP_KERNEL
cpu 1 alloc b order=2 GFP_KERNEL
cpu 0 free a
`;

/** The fields of a long-animation-frame entry read here (not yet in TypeScript's DOM types). */
interface LongFrame extends PerformanceEntry {
  scripts: { invoker: string; sourceFunctionName: string; duration: number }[];
}

declare global {
  interface Window {
    __longLoad?: { tasks: number[]; delays: number[]; values: string[]; frames: string[] };
  }
}

/** Record every long task and how long each input waited for its handler, from now on. */
async function watch(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = {
      tasks: [] as number[],
      delays: [] as number[],
      values: [] as string[],
      frames: [] as string[],
    };
    window.__longLoad = w;
    // Every value the progress bar takes.
    new MutationObserver((changes) => {
      for (const c of changes) {
        const v = c.target instanceof HTMLProgressElement ? c.target.getAttribute('value') : null;
        if (v !== null && !w.values.includes(v)) w.values.push(v);
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['value'] });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.tasks.push(e.duration);
    }).observe({ type: 'longtask' });
    // What a long frame ran, so a failure says which code took the time.
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as LongFrame[]) {
        if (e.duration < 150) continue;
        const scripts = e.scripts.map(
          (x) => `${x.invoker} ${x.sourceFunctionName} ${Math.round(x.duration)} ms`,
        );
        w.frames.push(`${Math.round(e.duration)} ms: ${scripts.join('; ')}`);
      }
    }).observe({ type: 'long-animation-frame' });
    // A trusted event's timeStamp is when the input happened: the wait is the input delay.
    const delay = (e: Event) => w.delays.push(performance.now() - e.timeStamp);
    window.addEventListener('pointerdown', delay, { capture: true });
    window.addEventListener('keydown', delay, { capture: true });
  });
}

async function watched(
  page: Page,
): Promise<{ tasks: number[]; delays: number[]; values: string[]; frames: string[] }> {
  return page.evaluate(
    () => window.__longLoad ?? { tasks: [], delays: [], values: [], frames: [] },
  );
}

function progressOf(page: Page) {
  return page.getByRole('progressbar', { name: /^Loading the workload/ });
}

async function percent(page: Page): Promise<number> {
  return Number((await progressOf(page).getAttribute('value')) ?? 0);
}

test.describe('long workloads', () => {
  // A 2M-op load takes a few seconds on a fast machine and tens on a loaded 2-core one.
  test.describe.configure({ timeout: 180_000 });
  failOnConsoleProblems();

  test('a 2M-op workload loads with a progress bar and the page stays responsive', async ({
    page,
  }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run(SHORT);
    await watch(page);
    await pg.run(LONG);
    await expect(progressOf(page)).toBeVisible({ timeout: 30_000 });
    // Click and type while it loads, as a reader would; each input's delay is recorded.
    while (await progressOf(page).isVisible()) {
      await page
        .locator('h1')
        .click({ timeout: 5_000 })
        .catch(() => undefined);
      await page.keyboard.press('Shift');
      await page.waitForTimeout(20);
    }
    await expect.poll(async () => (await pg.model()).length, { timeout: 60_000 }).toBe(LONG_OPS);
    const { tasks, delays, values, frames } = await watched(page);
    expect(values.length, 'the bar moved').toBeGreaterThan(2);
    expect(delays.length, 'inputs measured while loading').toBeGreaterThanOrEqual(4);
    const longest = Math.max(0, ...tasks);
    const worstDelay = Math.max(0, ...delays);
    console.log(
      `long load: ${tasks.length} long tasks, longest ${longest.toFixed(0)} ms; ` +
        `${delays.length} inputs, worst delay ${worstDelay.toFixed(0)} ms`,
    );
    expect(longest, `longest task (ms); long frames: ${frames.join(' | ')}`).toBeLessThan(200);
    expect(worstDelay, 'worst input delay (ms)').toBeLessThan(100);
    const m = await pg.model();
    expect(m.totalEvents).toBeGreaterThan(LONG_OPS);
  });

  test('Cancel stops a long load and leaves the previous run in place', async ({ page }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run(SHORT);
    await pg.key('Home');
    await pg.key('ArrowRight', 2);
    const before = await pg.model();
    expect(before.length).toBe(3);
    await pg.setText(LONG);
    await page.getByRole('button', { name: 'Run workload' }).click();
    await expect(progressOf(page)).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => percent(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(5);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(progressOf(page)).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: 'Loading stopped' })).toBeVisible();
    expect(await pg.model()).toEqual(before);
    // Nothing finishes behind the reader's back.
    await page.waitForTimeout(1_000);
    expect(await pg.model()).toEqual(before);
  });
});
