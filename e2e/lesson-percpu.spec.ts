// Lesson 10 (percpu) walked as a student would: predictions where the next area lands, checked on
// the model and drawn in the chunk map; which free order memmoves most, with map[] on screen; the
// 4.13/4.14 comparison; the goal that creates a chunk; the slot lists and the chunk map's
// controls by keyboard; and an axe scan of each step with its views drawn, in both themes.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { failOnConsoleProblems } from './console.ts';
import { LessonPage } from './pages/LessonPage.ts';

const SLUG = 'percpu-bitmap';

async function axeClean(page: Page, what: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const summary = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, what).toEqual([]);
}

test.describe('lesson 10: per-CPU memory', () => {
  test.describe.configure({ timeout: 120_000 });
  failOnConsoleProblems();

  test('a student walks it: predictions, the views, the goal; axe clean at every step', async ({
    page,
  }) => {
    const l = new LessonPage(page);
    const chunkMap = page.locator('.lesson-view[data-lesson-view="percpu-chunks"]').first();

    // Step 1: where the first area lands.
    await l.goto(SLUG, 1);
    await expect(l.stepTitle()).toHaveText('One area, every CPU');
    await expect(chunkMap.locator('.pcm-summary')).toContainText(
      'first chunk (0): 8 pages per unit',
    );
    await l.answer(1, '1248');
    await expect(l.wrongFeedback(1)).toContainText('1,240 is already a multiple of 8');
    await l.answer(1, '1240');
    await expect(l.revealed(1).locator('.model-says')).toHaveText(
      'The model says events.percpu_alloc_percpu.0.off = 1240',
    );
    // The step ran: the chunk map holds the area (the start offset counts as one too).
    await expect(chunkMap.getByRole('img')).toHaveAccessibleName(/: 1 area allocated in the chunk/);
    await axeClean(page, 'step 1');

    // Step 2: first fit fills the hole b left.
    await l.key('PageDown');
    await expect(l.stepTitle()).toHaveText('Where does the next object land?');
    await l.choose(1, 'b');
    await expect(l.wrongFeedback(1)).toContainText('next-fit or bump allocator');
    await l.choose(1, 'a');
    await expect(l.revealed(1).locator('.model-says')).toContainText('= true');
    await axeClean(page, 'step 2');
    await l.key('PageDown');
    // Step 3: the 8 bytes left are too small for 32.
    await expect(l.stepTitle()).toHaveText('A request the hole cannot hold');
    await l.answer(1, '1264');
    await expect(l.wrongFeedback(1)).toContainText('The hole at 1,264 holds 8 bytes');
    await l.answer(1, '1280');
    await expect(l.revealed(1).locator('.model-says')).toHaveText(
      'The model says events.percpu_alloc_percpu.0.off = 1280',
    );
    // The chunk map's controls work from the keyboard: the overview, then back.
    const close = chunkMap.getByRole('checkbox', { name: 'Close-up (one page)' });
    await close.focus();
    await page.keyboard.press('Space');
    await expect(close).not.toBeChecked();
    await expect(chunkMap.locator('.pcm-summary')).toContainText('Showing pages 0–3');
    await page.keyboard.press('Space');
    await expect(chunkMap.locator('.pcm-summary')).toContainText('Showing pages 0–0');
    await chunkMap.locator('summary').click();
    await expect(chunkMap.getByRole('table')).toBeVisible();
    await axeClean(page, 'step 3');

    // Step 4: the area map on 4.13, and which free order moves the most.
    await l.key('PageDown');
    await expect(l.stepTitle()).toHaveText('The area map and its memmove');
    const areaMap = page.locator('.lesson-view[data-lesson-view="percpu-map"]').first();
    await expect(areaMap.locator('.am-summary')).toHaveAttribute('data-map-used', '194');
    await l.choose(1, 'b');
    await expect(l.wrongFeedback(1)).toContainText('Newest first is the cheap order');
    await l.choose(1, 'a');
    await expect(l.revealed(1)).toContainText('Right');
    await expect(areaMap.locator('.am-summary')).toHaveAttribute('data-map-used', '2');
    await l.answer(2, '8192'); // the formula's 2 × 64² is within the tolerance
    await expect(l.revealed(2).locator('.model-says')).toContainText('= 8312');
    await axeClean(page, 'step 4');

    // Step 5: both allocators side by side.
    await l.key('PageDown');
    await expect(l.stepTitle()).toHaveText("Dennis Zhou's bitmap (4.14)");
    await expect(page.locator('section.percpu-chunk-map')).toHaveCount(2);
    await l.choose(1, 'a');
    await expect(l.revealed(1).locator('.model-says')).toContainText('= true');
    await axeClean(page, 'step 5');

    // Step 6: the goal: a new chunk, populated; the slot lists show it.
    await l.key('PageDown');
    await expect(l.stepTitle()).toHaveText('Full chunks and new ones');
    await l.runSandbox('cpu 0 percpu alloc big size=4096');
    await expect(l.goal().locator('.goal-status')).toContainText('Not yet');
    await l.runSandbox('repeat 8 {\n  cpu 0 percpu alloc big size=4096\n}');
    await expect(l.goal().locator('[data-goal-reached="true"]')).toHaveText('Goal reached.');
    await axeClean(page, 'step 6');

    // Step 7: see it on your machine.
    await l.key('PageDown');
    await expect(l.stepTitle()).toHaveText('See it on your machine');
    await expect(page.locator('main')).toContainText('/sys/kernel/debug/percpu_stats');
    await page.emulateMedia({ colorScheme: 'dark' });
    await l.goto(SLUG, 4);
    await l.choose(1, 'a');
    await expect(l.revealed(1)).toContainText('Right');
    await axeClean(page, 'step 4, dark');
  });
});
