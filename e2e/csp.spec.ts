// The site under the Content-Security-Policy its build ships (web/security/policy.ts): every page
// of e2e/pages.ts loads with no violation and no console error; the playground's editor is typed
// into (completion, an inline error) and a workload runs, and a lesson step runs, so CodeMirror,
// the compile worker and the wasm core all work under the policy. The first test shows the
// listener hears a violation when one happens, so the silence of the others means something.
import { expect, test, type Page } from '@playwright/test';
import { CSP } from '../web/security/policy.ts';
import { PAGES } from './pages.ts';
import { LessonPage } from './pages/LessonPage.ts';
import { PlaygroundPage } from './pages/PlaygroundPage.ts';

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/**
 * Start listening before the page's own scripts run: securitypolicyviolation events (recorded in
 * the page), console errors and warnings, uncaught errors. Returns a reader of all of them.
 */
async function watch(page: Page): Promise<() => Promise<string[]>> {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning')
      problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        const what = e.blockedURI || 'inline';
        const where = `${e.sourceFile || 'the page'}:${e.lineNumber}`;
        window.__cspViolations?.push(
          `violation: ${e.effectiveDirective} refused ${what} at ${where} (${e.sample})`,
        );
      },
      true,
    );
  });
  return async () => [...(await page.evaluate(() => window.__cspViolations ?? [])), ...problems];
}

/** The build ships the policy: without this, a build missing the meta tag would pass. */
async function expectPolicy(page: Page): Promise<void> {
  const meta = page.locator('head > meta[http-equiv="Content-Security-Policy"]');
  await expect(meta).toHaveCount(1);
  await expect(meta).toHaveAttribute('content', CSP);
}

test.describe('content security policy', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a violation is heard: an injected inline style and an HTML string are refused', async ({
    page,
  }) => {
    const problems = await watch(page);
    await page.goto('./');
    await expect(page.getByRole('heading', { name: PAGES[0]!.ready, exact: true })).toBeVisible();
    await expectPolicy(page);
    const outcome = await page.evaluate(() => {
      const style = document.createElement('style');
      style.textContent = 'body { outline: 1px solid red; }';
      document.head.append(style);
      try {
        document.createElement('div').innerHTML = '<b>not trusted</b>';
        return 'innerHTML took a string';
      } catch (e) {
        return (e as Error).name;
      }
    });
    expect(outcome).toBe('TypeError');
    await expect
      .poll(async () => (await problems()).filter((p) => p.startsWith('violation:')))
      .toEqual([
        expect.stringContaining('violation: style-src-elem refused inline'),
        expect.stringContaining('violation: require-trusted-types-for refused'),
      ]);
  });

  for (const p of PAGES) {
    test(`${p.name} page loads with no violation`, async ({ page }) => {
      const problems = await watch(page);
      await page.goto(p.path);
      await expect(page.getByRole('heading', { name: p.ready, exact: true })).toBeVisible();
      await expect(page.getByRole('status')).toHaveCount(0);
      await expectPolicy(page);
      expect(await problems()).toEqual([]);
    });
  }

  test('the playground editor, its worker and a run work under the policy', async ({ page }) => {
    const problems = await watch(page);
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await expectPolicy(page);
    // CodeMirror's rules are in effect (its base theme makes the editor a flex column): they came
    // from a constructed stylesheet, not an inline <style>.
    await expect(page.locator('.cm-editor')).toHaveCSS('display', 'flex');
    expect(await page.evaluate(() => document.adoptedStyleSheets.length)).toBeGreaterThan(0);
    expect(await page.locator('style').count()).toBe(0);

    // Type: a completion list, then a mistake the compile worker marks inline.
    const content = page.locator('.cm-content');
    await content.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Delete');
    await page.keyboard.type('machine tiny\ncpu 0 alloc a order=0 GFP_KERNEL\ncpu 0 al');
    await page.keyboard.press('Control+Space');
    await expect(page.locator('.cm-tooltip-autocomplete')).toBeVisible();
    await page.keyboard.press('Escape');
    await page.keyboard.type('lox b order=1\n');
    await expect(page.locator('.cm-lint-marker-error')).toBeVisible();
    await expect(page.locator('.cm-lintRange-error')).toBeVisible();

    // Run a workload and step through it.
    await pg.run('machine tiny\nseed 5\ncpu 0 alloc a order=0 GFP_KERNEL\ncpu 1 alloc b order=2\n');
    await pg.key('Home');
    await pg.key('ArrowRight', 2);
    expect((await pg.model()).op).toBe(2);
    expect(await problems()).toEqual([]);
  });

  test('a lesson step runs under the policy', async ({ page }) => {
    const problems = await watch(page);
    const l = new LessonPage(page);
    await l.goto('high-order-pcp', 2);
    await expectPolicy(page);
    const before = await l.model();
    await l.choose(1, 'a');
    await expect(l.revealed(1)).toBeVisible();
    await expect.poll(async () => (await l.model()).ops).toBeGreaterThan(before.ops);
    expect(await problems()).toEqual([]);
  });
});
