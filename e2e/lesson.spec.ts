// Lessons end to end: lesson 5 walked as a student would (a wrong answer and its explanation, then
// the right one checked on the model, a goal reached in the sandbox, progress kept across a
// reload), presenter mode with its notes window driven by clicker keys from both windows, and
// every step of every lesson loading without a console error.
import { expect, test } from '@playwright/test';
import { failOnConsoleProblems } from './console.ts';
import { lessonsOnDisk } from './lessons-on-disk.ts';
import { LessonPage } from './pages/LessonPage.ts';

const SLUG = 'high-order-pcp';
const lessons = lessonsOnDisk();
const lesson5 = lessons.find((l) => l.slug === SLUG);

test.describe('lessons', () => {
  test.describe.configure({ timeout: 120_000 });
  const watchConsole = failOnConsoleProblems();

  test('a student walks lesson 5: wrong, then right; the goal; progress survives a reload', async ({
    page,
  }) => {
    const l = new LessonPage(page);
    await l.goto(SLUG, 1);
    await expect(l.stepTitle()).toHaveText('Two layouts');

    // Predict, then reveal: the reveal is locked until an answer is given.
    await expect(l.revealButton(1)).toBeDisabled();
    await l.answer(1, '42');
    await expect(l.wrongFeedback(1)).toContainText(
      '42 = 6 × batch is the rule the series replaced.',
    );
    await expect(l.revealed(1)).toHaveCount(0);
    await expect(l.revealButton(1)).toBeEnabled();
    await l.answer(1, '77');
    await expect(l.revealed(1)).toContainText('Answer: 77 pages');
    // The keyed answer is what the model says, evaluated by the lesson's check.
    await expect(l.revealed(1).locator('.model-says')).toHaveText(
      'The model says pcp.cpu0.Normal.high = 77',
    );

    // Next step by key; a next-step question reveals by running its step.
    await l.key('PageDown');
    await expect(page).toHaveURL(new RegExp(`#/lessons/${SLUG}/2$`));
    await expect(l.stepTitle()).toHaveText('An order-3 churn');
    const before = await l.model();
    expect(before.section).toBe(1);
    await l.choose(1, 'b');
    await expect(l.wrongFeedback(1)).toContainText('Both kernels see only one migratetype');
    expect((await l.model()).ops).toBe(before.ops); // a wrong answer runs nothing
    await l.choose(1, 'a');
    await expect(l.revealed(1)).toContainText('Right, this time.');
    await expect(l.revealed(1).locator('.model-says')).toContainText('= true');
    await expect.poll(async () => (await l.model()).ops).toBeGreaterThan(before.ops);
    // The step points at CPU 0's Normal pcp: the view is ringed.
    await expect(page.locator('.lesson-view[data-lesson-view="pcp"][data-pointed]')).toBeVisible();
    await expect(page.locator('.step-card[data-ran]')).toHaveCount(1);

    // The goal: a deep link to step 5, the sandbox, checked live on the model.
    await l.goto(SLUG, 5);
    await expect(l.stepTitle()).toHaveText('What was merged');
    await l.runSandbox('cpu 0 alloc o3 order=3');
    await expect(l.goal().locator('.goal-status')).toContainText('Not yet');
    await l.runSandbox('repeat 8 {\n  cpu 0 alloc o3 order=3\n}\ncpu 0 free o3 *');
    await expect(l.goal().locator('[data-goal-reached="true"]')).toHaveText('Goal reached.');

    // Reload: the step, the answers and the goal are remembered.
    await page.reload();
    await l.ready();
    await expect(l.goal().locator('.badge')).toHaveText('reached');
    await l.goto(SLUG, 1);
    await expect(l.question(1).locator('.badge')).toHaveText('answered');
    await expect(l.revealButton(1)).toBeEnabled(); // answered before: no need to answer again
    await page.goto('./#/lessons');
    const item = page.locator(`.toc-item[data-slug="${SLUG}"]`);
    await expect(item).toContainText('2 of 6 questions answered');
    await expect(item).toContainText('goal reached');
    await expect(item).toContainText('at step 1 of 6');
    await item.getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`#/lessons/${SLUG}/1$`));
  });

  test('presenter mode: clicker keys in either window move both, with a blank screen', async ({
    page,
    context,
  }) => {
    const l = new LessonPage(page);
    await l.goto(SLUG, 3, 'present');
    await expect(page.locator('.site-header')).toBeHidden(); // chrome hidden
    const [notesPage] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Speaker notes' }).click(),
    ]);
    watchConsole(notesPage);
    const notes = notesPage.locator('main.notes-window');
    await expect(
      notesPage.getByRole('heading', { level: 2, name: 'Step 3 of 6: The fairness question' }),
    ).toBeVisible();
    await expect(notes).toContainText('Joonsoo Kim asked');
    await expect(notes).toContainText('Next click: Reveal the answer: How many pages are on CPU 0');
    await expect(notes).toContainText('Coming up: The count that lied');

    // The clicker in the presentation: reveal, reveal (runs the step), next step.
    await l.key('PageDown');
    await expect(l.revealed(1)).toContainText('102');
    await expect(notes).toHaveAttribute('data-done', /\d/);
    await expect(notes).toContainText(
      'Next click: Reveal the answer: CPU 0 frees the Unmovable page',
    );
    await l.key('ArrowRight');
    await expect(l.revealed(2)).toContainText(
      'The model says sum(events.mm_page_pcpu_drain.pages) = 9',
    );
    await l.key('Space');
    await expect(page).toHaveURL(new RegExp(`#/lessons/${SLUG}/4/present$`));
    await expect(
      notesPage.getByRole('heading', {
        level: 2,
        name: "Step 4 of 6: The count that lied (v5's fix)",
      }),
    ).toBeVisible();

    // The clicker in the notes window drives the presentation back.
    await notesPage.keyboard.press('PageUp');
    await expect.poll(async () => (await l.model()).section).toBe(2);
    await expect(page).toHaveURL(new RegExp(`#/lessons/${SLUG}/3/present$`));
    await expect(
      notesPage.getByRole('heading', { level: 2, name: 'Step 3 of 6: The fairness question' }),
    ).toBeVisible();
    await notesPage.keyboard.press('PageDown');
    await expect(page).toHaveURL(new RegExp(`#/lessons/${SLUG}/4/present$`));
    await notesPage.keyboard.press('r'); // reveal from the notes window
    await expect(l.revealed(1)).toContainText('The model says b.pcp.cpu0.Normal.count');

    // Blank screen: b in the presentation, . from the notes window.
    await l.key('b');
    await expect(page.locator('.blank-screen')).toBeVisible();
    await expect(notes).toContainText('Screen is blank');
    await notesPage.keyboard.press('.');
    await expect(page.locator('.blank-screen')).toHaveCount(0);
    await expect(notes).toContainText('Following the presentation');
    await page.screenshot({ path: 'test-results/screenshots/lesson-presenting.png' });
    await notesPage.screenshot({ path: 'test-results/screenshots/lesson-notes.png' });
  });

  test('every step of every lesson loads without a console error', async ({ page }) => {
    const l = new LessonPage(page);
    expect(lessons.length).toBeGreaterThanOrEqual(8);
    for (const lesson of lessons) {
      await l.goto(lesson.slug, 1);
      for (let i = 0; i < lesson.steps.length; i++) {
        await page.evaluate((h) => (window.location.hash = h), `#/lessons/${lesson.slug}/${i + 1}`);
        await expect(l.stepTitle()).toHaveText(lesson.steps[i] ?? '');
        await expect.poll(async () => (await l.model()).section).toBe(i);
      }
    }
  });

  test('screenshots of a lesson for people to look at, in both themes', async ({ page }) => {
    const l = new LessonPage(page);
    await l.goto(SLUG, 2);
    await l.choose(1, 'a');
    await expect(l.revealed(1)).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/lesson-revealed.png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: 'test-results/screenshots/lesson-revealed-dark.png' });
    expect(lesson5?.steps.length).toBe(6);
  });
});
