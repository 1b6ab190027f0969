// The #/reproductions page: both seeds run live in the browser, each with its table and chart,
// the same figures as `npm run sim -- --reproduce`, axe-clean and without console errors.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type ConsoleMessage } from '@playwright/test';

test('the reproductions page runs both seeds: tables, charts, no violations', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error' || msg.type() === 'warning')
      problems.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));

  await page.goto('./');
  await page
    .getByRole('navigation', { name: 'Site' })
    .getByRole('link', { name: 'Reproductions' })
    .click();
  await expect(page).toHaveURL(/#\/reproductions$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Seed reproductions' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveCount(0);

  const seed000 = page.getByRole('region', { name: /^seed-000: High-order per-CPU page lists/ });
  const seed004 = page.getByRole('region', { name: /^seed-004: Batch scaling by alloc_factor/ });
  await expect(seed000).toBeVisible();
  await expect(seed004).toBeVisible();

  // The tables hold the model's figures (the CLI's, from the same definitions).
  const t0 = seed000.getByRole('table');
  await expect(t0.getByRole('row', { name: /^zone_lock_acquisitions .* 5\.13 384 / })).toHaveCount(
    1,
  );
  await expect(t0.getByRole('row', { name: /^2016-v5 95 / })).toHaveCount(1);
  await expect(
    t0.getByRole('row', { name: /joonsoo_drain_pages .* 2016-v5 9 9 pages$/ }),
  ).toHaveCount(1);
  const t4 = seed004.getByRole('table');
  await expect(t4.getByRole('row', { name: /^6\.18 2,016 / })).toHaveCount(1);

  // Each chart is one image whose text alternative reads out the figures.
  await expect(seed000.getByRole('img')).toHaveAccessibleDescription(
    /zone_lock_acquisitions in acquisitions: 5\.13 384, 2016-v5 95, 5\.14 11, 6\.18 11/,
  );
  await expect(seed004.getByRole('img')).toHaveAccessibleDescription(
    /max_refill_pages in pages: 6\.6 63, 6\.18 2,016/,
  );
  // seed-003: the fault paths; mmap_lock reads per 1000 faults are 1000 under mmap_sem (4.16)
  const seed003 = page.getByRole('region', { name: /^seed-003: Speculative page faults/ });
  await expect(seed003).toBeVisible();
  await expect(
    seed003
      .getByRole('table')
      .getByRole('row', { name: /^mmap_lock_reads_per_1000_faults .* 4\.16 1,000 / }),
  ).toHaveCount(1);
  // seed-001: the zonelist cache; 3.0 zone_reclaims node 0 far more often than 3.1-zlcfirst
  const seed001 = page.getByRole('region', {
    name: /^seed-001: The zonelist cache and zone_reclaim/,
  });
  await expect(seed001).toBeVisible();
  await expect(
    seed001.getByRole('table').getByRole('row', { name: /^zone_reclaim_calls .* 3\.0 1,278 / }),
  ).toHaveCount(1);
  await expect(page.getByTestId('narration')).toHaveText(
    'Ran seed-000 and seed-001 and seed-003 and seed-004 on the model.',
  );

  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  expect(problems).toEqual([]);
});
