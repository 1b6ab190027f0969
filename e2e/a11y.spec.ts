// An axe scan of every page (e2e/pages.ts): no violations, whatever their impact.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { PAGES } from './pages.ts';

for (const p of PAGES) {
  test(`${p.name} page has no accessibility violations`, async ({ page }) => {
    await page.goto(p.path);
    await expect(page.getByRole('heading', { name: p.ready, exact: true })).toBeVisible();
    // Wait for loading states to settle so the scan sees the finished page.
    await expect(page.getByRole('status')).toHaveCount(0);
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    const summary = results.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
    expect(summary).toEqual([]);
  });
}
