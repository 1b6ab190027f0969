// Lesson 11 walked as a student would: the number question on mmap_lock takes under 4.16 (a wrong
// answer, then the right one, revealed by running its step), the choice on 6.18, who waits for
// whom after a munmap, the speculative path's first-fault abort, and the goal that makes a
// per-VMA fault retry under mmap_lock, checked live on the model; then an accessibility scan.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { failOnConsoleProblems } from './console.ts';
import { LessonPage } from './pages/LessonPage.ts';

const SLUG = 'page-faults';

test.describe('lesson 11', () => {
  test.describe.configure({ timeout: 120_000 });
  failOnConsoleProblems();

  test('a student walks lesson 11: predict, reveal, the goal, and no accessibility violations', async ({
    page,
  }) => {
    const l = new LessonPage(page);
    await l.goto(SLUG, 1);
    await expect(l.stepTitle()).toHaveText('One lock for every fault');
    await l.answer(1, '2');
    await expect(l.wrongFeedback(1)).toContainText('one per thread');
    await l.answer(1, '16');
    await expect(l.revealed(1)).toContainText('Answer: 16 acquisitions');
    await expect(page.locator('.step-card[data-ran]')).toHaveCount(1);
    await l.choose(2, 'c');
    await expect(l.revealed(2).locator('.model-says')).toContainText('= true');

    await l.goto(SLUG, 2);
    await expect(l.stepTitle()).toHaveText('Who waits for whom');
    await l.choose(1, 'c');
    await expect(l.wrongFeedback(1)).toContainText('6.18 is the one that does not wait');
    await l.choose(1, 'b');
    await expect(l.revealed(1).locator('.model-says')).toContainText('= true');

    await l.goto(SLUG, 3);
    await expect(l.stepTitle()).toHaveText('The speculative path and its aborts');
    await l.choose(1, 'b');
    await expect(l.revealed(1).locator('.model-says')).toContainText('= true');
    await l.answer(2, '1');
    await expect(l.revealed(2)).toContainText('Answer: 1 faults');
    await l.runSandbox('cpu 1 touch mm=0 at=700 pages=1 write');
    await expect(l.goal().locator('.goal-status')).toContainText('Not yet');
    await l.runSandbox(
      [
        'cpu 0 mmap mm=0 at=4096 pages=64 prot=rw',
        'cpu 0 touch mm=0 at=4096 pages=64 write',
        'cpu 1 mmap mm=0 at=8192 pages=8 prot=rw',
        'cpu 0 munmap mm=0 at=4096 pages=64',
        'cpu 1 touch mm=0 at=8192 pages=1 write',
      ].join('\n'),
    );
    await expect(l.goal().locator('[data-goal-reached="true"]')).toHaveText('Goal reached.');

    await l.goto(SLUG, 4);
    await expect(l.stepTitle()).toHaveText('See it on your machine');
    const scan = await new AxeBuilder({ page }).analyze();
    expect(scan.violations).toEqual([]);
  });
});
