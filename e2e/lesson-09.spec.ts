// Lesson 9 walked as a student would: where the next page comes from under 3.0 (revealed by
// running its step), how much the next zone_reclaim scans (a wrong answer, then the right one),
// 3.0 against 3.1-zlcfirst side by side, and the goal that makes 3.1 zone_reclaim node 0 again
// after a zap, checked live on the model; the per-node maps and node counters on the remote
// allocation; then an accessibility scan.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { failOnConsoleProblems } from './console.ts';
import { LessonPage } from './pages/LessonPage.ts';

const SLUG = 'numa-zone-reclaim';

test.describe('lesson 9', () => {
  test.describe.configure({ timeout: 180_000 });
  failOnConsoleProblems();

  test('a student walks lesson 9: predict, reveal, compare, the goal, and no accessibility violations', async ({
    page,
  }) => {
    const l = new LessonPage(page);
    await l.goto(SLUG, 1);
    await expect(l.stepTitle()).toHaveText('A node full of a mapped file');
    await l.choose(1, 'a');
    await expect(l.wrongFeedback(1)).toContainText('RECLAIM_UNMAP');
    await l.choose(1, 'b');
    await expect(l.revealed(1).locator('.model-says')).toContainText('= true');
    await expect(page.locator('.step-card[data-ran]')).toHaveCount(1);
    // the two nodes' maps side by side, the new page outlined on node 1's; the node counters say
    // where it went as numastat counts it
    const maps = page.locator('.node-maps section.memory-map');
    await expect(maps).toHaveCount(2);
    await expect(maps.nth(1)).toHaveAttribute('data-event-here', 'true');
    await expect(page.locator('section.node-counters').getByTestId('node-change')).toHaveText(
      'This step: node 0: numa_foreign +1; node 1: numa_miss +1, other_node +1.',
    );

    await l.goto(SLUG, 2);
    await expect(l.stepTitle()).toHaveText('Every allocation pays again');
    await l.answer(1, '7500');
    await expect(l.wrongFeedback(1)).toContainText('five passes');
    await l.answer(1, '14516');
    await expect(l.revealed(1)).toContainText('Answer: 14516 pages');

    await l.goto(SLUG, 3);
    await expect(l.stepTitle()).toHaveText('The 3.1 fix: set the cache up first');
    await l.answer(1, '20');
    await expect(l.wrongFeedback(1)).toContainText('never filtered');
    await l.answer(1, '1');
    await expect(l.revealed(1)).toContainText('Answer: 1 calls');
    await l.choose(2, 'c');
    await expect(l.revealed(2).locator('.model-says')).toContainText('= true');

    await l.goto(SLUG, 4);
    await expect(l.stepTitle()).toHaveText('A second later');
    await l.runSandbox('cpu 0 alloc f for=file');
    await expect(l.goal().locator('.goal-status')).toContainText('Not yet');
    await l.runSandbox(['tick 2', 'cpu 0 alloc f for=file'].join('\n'));
    await expect(l.goal().locator('[data-goal-reached="true"]')).toHaveText('Goal reached.');

    await l.goto(SLUG, 6);
    await expect(l.stepTitle()).toHaveText('See it on your machine');
    const scan = await new AxeBuilder({ page }).analyze();
    expect(scan.violations).toEqual([]);
  });
});
