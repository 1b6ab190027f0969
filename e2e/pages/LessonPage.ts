// A lesson as a test sees it: the reader's actions (answer, check, reveal, run, sandbox, keys) and
// the lesson cursor and model behind the page, read through window.__buddyscopeLesson (present
// in builds made with VITE_TEST_API=1).
import { expect, type Locator, type Page } from '@playwright/test';

export interface LessonModel {
  slug: string;
  section: number;
  done: number[];
  blank: boolean;
  ops: number;
}

export class LessonPage {
  readonly main: Locator;

  constructor(readonly page: Page) {
    this.main = page.locator('main');
  }

  /** Open a lesson at a step (1-based) and wait for its machine. */
  async goto(slug: string, step: number, mode: 'read' | 'present' = 'read'): Promise<void> {
    await this.page.goto(`./#/lessons/${slug}/${step}${mode === 'present' ? '/present' : ''}`);
    await this.ready();
  }

  /** The page has its step title and, where the step runs a machine, the machine's views. */
  async ready(): Promise<void> {
    await expect(this.page.locator('#step-title')).toBeVisible();
    await expect(
      this.page.getByRole('status').filter({ hasText: 'Starting the simulation' }),
    ).toHaveCount(0);
    await this.page.waitForFunction(() => !!window.__buddyscopeLesson);
  }

  async model(): Promise<LessonModel> {
    return this.page.evaluate(() => {
      const l = window.__buddyscopeLesson;
      if (!l) throw new Error('no lesson test API: build with VITE_TEST_API=1');
      return { slug: l.slug, section: l.section, done: [...l.done], blank: l.blank, ops: l.ops };
    });
  }

  stepTitle(): Locator {
    return this.page.locator('#step-title');
  }

  question(n: number): Locator {
    return this.page.locator(`section.question[data-question="${n}"]`);
  }

  async choose(n: number, option: string): Promise<void> {
    await this.question(n).locator(`input[type=radio][value="${option}"]`).check();
    await this.question(n).getByRole('button', { name: 'Check my answer' }).click();
  }

  async answer(n: number, value: string): Promise<void> {
    await this.question(n).getByLabel('Your answer').fill(value);
    await this.question(n).getByRole('button', { name: 'Check my answer' }).click();
  }

  revealButton(n: number): Locator {
    return this.question(n).getByRole('button', { name: /^Reveal/ });
  }

  /** The explanation shown for a wrong answer. */
  wrongFeedback(n: number): Locator {
    return this.question(n).locator('.wrong-feedback');
  }

  revealed(n: number): Locator {
    return this.question(n).locator('[data-revealed="true"]');
  }

  goal(): Locator {
    return this.page.locator('section.goal');
  }

  async runSandbox(ops: string): Promise<void> {
    await this.goal()
      .getByLabel(/^Your ops/)
      .fill(ops);
    await this.goal().getByRole('button', { name: 'Run my ops' }).click();
  }

  /** Press a key with no field focused (keys in fields type, they do not navigate). */
  async key(chord: string, times = 1): Promise<void> {
    await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (let i = 0; i < times; i++) await this.page.keyboard.press(chord);
  }
}
