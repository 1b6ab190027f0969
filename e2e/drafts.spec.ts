// Drafts that survive (issue 19): a reload, a close right after the last keystrokes, a share link
// opened while storage is full, and two tabs typing different drafts. Each tab keeps its own draft
// (keyed by a tab id in sessionStorage); a new tab opens the most recent one.
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { PlaygroundPage } from './pages/PlaygroundPage.ts';

const GOLDEN = JSON.parse(readFileSync('web/share/fixtures/golden-links.json', 'utf8')) as {
  link: string;
}[];

/** Every tab's stored draft text, as the page's localStorage holds them. */
async function storedDrafts(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Object.keys(localStorage)
      .filter((k) => k.startsWith('buddyscope.draft.'))
      .map((k) => (JSON.parse(localStorage.getItem(k) ?? '{}') as { text?: string }).text ?? ''),
  );
}

/** Fill localStorage to the brim with filler entries, so the next write of any size fails. */
async function fillStorage(page: Page): Promise<number> {
  return page.evaluate(() => {
    let n = 0;
    for (let size = 1 << 20; size >= 1; size = Math.floor(size / 2)) {
      const chunk = 'x'.repeat(size);
      for (;;) {
        try {
          localStorage.setItem(`filler.${n}`, chunk);
          n++;
        } catch {
          break;
        }
      }
    }
    return n;
  });
}

async function freeStorage(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const k of Object.keys(localStorage))
      if (k.startsWith('filler.')) localStorage.removeItem(k);
  });
}

/** Type at the end of the editor, key by key, as a reader does. */
async function typeAtEnd(pg: PlaygroundPage, text: string): Promise<void> {
  await pg.page.locator('.cm-content').click();
  await pg.page.keyboard.press('Control+End');
  await pg.page.keyboard.type(text);
}

test.describe('drafts', () => {
  test('a reload keeps the draft, even when it comes right after the typing', async ({ page }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.editor.fill('machine tiny\ncpu 0 alloc kept order=1\n');
    await typeAtEnd(pg, 'cpu 1 alloc typed order=0');
    await page.reload(); // no pause: the pending write is flushed on pagehide
    await expect(page.locator('.cm-content')).toContainText('cpu 1 alloc typed order=0');
    await expect(page.locator('.cm-content')).toContainText('alloc kept order=1');
  });

  test('closing the tab keeps the last keystrokes for the next tab', async ({ page, context }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.editor.fill('machine tiny\ncpu 0 alloc a order=0\n');
    await page.waitForTimeout(600);
    await typeAtEnd(pg, 'cpu 1 alloc last order=2');
    await page.close(); // at once, inside the save pause
    const next = new PlaygroundPage(await context.newPage());
    await next.goto();
    await expect(next.page.locator('.cm-content')).toContainText('cpu 1 alloc last order=2');
  });

  test('a share link opened with storage full keeps the unsaved draft and says so', async ({
    page,
  }) => {
    const mine = 'machine tiny\ncpu 0 alloc mine order=2\n';
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.editor.fill(mine);
    await expect.poll(() => storedDrafts(page)).toContain(mine);
    expect(await fillStorage(page)).toBeGreaterThan(0);

    await page.goto(`./#/playground?s=${GOLDEN[0]?.link ?? ''}`);
    const status = page.locator('.draft-status');
    await expect(status).toContainText('storage is full');
    await expect(status).toContainText('previous draft could not be kept');
    await expect(page.getByRole('button', { name: 'Download previous draft' })).toBeVisible();
    const axe = await new AxeBuilder({ page }).include('.draft-status').analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    // The link opened, and the draft it replaced is still stored, even after more typing.
    await expect(page.locator('.cm-content')).not.toContainText('alloc mine order=2');
    await typeAtEnd(pg, '\ntick 1');
    await page.waitForTimeout(600);
    expect(await storedDrafts(page)).toEqual([mine]);

    // The reader makes room and tries again: the draft goes to My workloads, the link's text is saved.
    await freeStorage(page);
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(status).toContainText('kept in My workloads as “Draft before opening a link, ');
    await page.getByText('My workloads', { exact: true }).click();
    const saved = page.getByRole('list', { name: 'My workloads' });
    await expect(saved).toContainText('Draft before opening a link, ');
    await expect.poll(() => storedDrafts(page)).not.toEqual([mine]);
    await saved.getByRole('button', { name: /^Open Draft before opening a link/ }).click();
    await expect(page.locator('.cm-content')).toContainText('alloc mine order=2');
  });

  test('two tabs typing different drafts both keep theirs', async ({ context }) => {
    const a = new PlaygroundPage(await context.newPage());
    const b = new PlaygroundPage(await context.newPage());
    await a.goto();
    await b.goto();
    await a.editor.fill('machine tiny\ncpu 0 alloc tab_a order=1\n');
    await b.editor.fill('machine tiny\ncpu 1 alloc tab_b order=2\n');
    await typeAtEnd(a, 'cpu 0 alloc more_a order=0');
    await a.page.waitForTimeout(600);
    await typeAtEnd(b, 'cpu 1 alloc more_b order=0');
    await b.page.waitForTimeout(600);
    expect((await storedDrafts(a.page)).sort()).toEqual([
      'machine tiny\ncpu 0 alloc tab_a order=1\ncpu 0 alloc more_a order=0',
      'machine tiny\ncpu 1 alloc tab_b order=2\ncpu 1 alloc more_b order=0',
    ]);
    await a.page.reload();
    await b.page.reload();
    await expect(a.page.locator('.cm-content')).toContainText('alloc more_a order=0');
    await expect(a.page.locator('.cm-content')).not.toContainText('tab_b');
    await expect(b.page.locator('.cm-content')).toContainText('alloc more_b order=0');
    await expect(b.page.locator('.cm-content')).not.toContainText('tab_a');
    // A new tab opens the most recent draft (b's) and writes nothing until it is edited.
    const c = new PlaygroundPage(await context.newPage());
    await c.goto();
    await expect(c.page.locator('.cm-content')).toContainText('alloc more_b order=0');
    await c.page.waitForTimeout(600);
    expect(await storedDrafts(c.page)).toHaveLength(2);
    // Every other tab's draft is within reach from My workloads, and opens here.
    await c.page.getByText('My workloads', { exact: true }).click();
    const others = c.page.getByRole('list', { name: 'Drafts in other tabs' });
    await expect(others.getByRole('listitem')).toHaveCount(2);
    await others
      .getByRole('button', { name: /^Open the draft “machine tiny · cpu 0 alloc tab_a order=1”/ })
      .click();
    await expect(c.page.locator('.cm-content')).toContainText('alloc more_a order=0');
  });

  test('a duplicated tab (its sessionStorage copied) keeps a draft of its own', async ({
    context,
  }) => {
    const a = new PlaygroundPage(await context.newPage());
    await a.goto();
    await a.editor.fill('machine tiny\ncpu 0 alloc original order=1\n');
    // The filled text itself stored (the default is written first, 400 ms after the page opened).
    await expect
      .poll(() => storedDrafts(a.page))
      .toEqual(['machine tiny\ncpu 0 alloc original order=1\n']);
    const id = await a.page.evaluate(() => sessionStorage.getItem('buddyscope.tab'));
    expect(id).toBeTruthy();
    // Duplicating a tab copies its sessionStorage, tab id included.
    const dupPage = await context.newPage();
    await dupPage.addInitScript((tab) => {
      if (!sessionStorage.getItem('buddyscope.tab')) sessionStorage.setItem('buddyscope.tab', tab);
    }, id ?? '');
    const dup = new PlaygroundPage(dupPage);
    await dup.goto();
    await expect(dupPage.locator('.cm-content')).toContainText('alloc original order=1');
    await expect
      .poll(() => dupPage.evaluate(() => sessionStorage.getItem('buddyscope.tab')))
      .not.toBe(id);
    await dup.editor.fill('machine tiny\ncpu 1 alloc duplicate order=0\n');
    await typeAtEnd(a, 'cpu 0 alloc still_original order=0');
    await dupPage.waitForTimeout(600);
    expect((await storedDrafts(a.page)).sort()).toEqual([
      'machine tiny\ncpu 0 alloc original order=1\ncpu 0 alloc still_original order=0',
      'machine tiny\ncpu 1 alloc duplicate order=0\n',
    ]);
  });
});
