// The home page, as a reader gets it from the production build under /buddyscope/.
import { expect, test, type ConsoleMessage } from '@playwright/test';

test('home page runs the wasm core and shows its /proc/buddyinfo', async ({ page, baseURL }) => {
  const problems: string[] = [];
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error' || msg.type() === 'warning')
      problems.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`requestfailed: ${req.url()}`));
  const wasm = page.waitForResponse((res) => res.url().endsWith('.wasm'));

  await page.goto('./');

  await expect(page).toHaveTitle(/Buddyscope/);
  await expect(page.getByRole('heading', { level: 1, name: 'Buddyscope' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your simulated machine' })).toBeVisible();
  const buddyinfo = page.getByLabel('/proc/buddyinfo of the simulated machine');
  await expect(buddyinfo).toContainText('Node 0, zone   Normal');

  // The module came from the hashed asset under the sub-path, served as wasm.
  const res = await wasm;
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/wasm');
  expect(new URL(res.url()).pathname.startsWith(new URL(baseURL!).pathname)).toBe(true);

  expect(problems).toEqual([]);
});

test('the site lives under its base path', async ({ page, baseURL }) => {
  const base = new URL(baseURL!);
  expect(base.pathname).toBe('/buddyscope/');
  const assets: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.origin === base.origin) assets.push(url.pathname);
  });
  await page.goto('./');
  await expect(page.getByLabel('/proc/buddyinfo of the simulated machine')).toBeVisible();
  expect(assets.length).toBeGreaterThan(1);
  for (const path of assets) expect(path.startsWith('/buddyscope/'), path).toBe(true);
});
