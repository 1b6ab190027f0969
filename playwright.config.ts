// Playwright drives Debian's Chromium (no downloaded browsers) against the production build,
// served under the sub-path /buddyscope/. `npm test` builds the site, starts `vite preview` on a
// free port and passes its address in BUDDYSCOPE_URL. Run alone (`npx playwright test`), this
// config starts the preview itself on port 4173 (after `BUDDYSCOPE_BASE=/buddyscope/ npm run build`).
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM } from './scripts/chromium.mjs';

const ownServer = !process.env.BUDDYSCOPE_URL;
const baseURL = process.env.BUDDYSCOPE_URL ?? 'http://127.0.0.1:4173/buddyscope/';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 1,
  timeout: 30_000,
  reporter: 'list',
  use: {
    ...devices['Desktop Chrome'],
    baseURL,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: CHROMIUM,
  },
  webServer: ownServer
    ? {
        command:
          './node_modules/.bin/vite preview --host 127.0.0.1 --port 4173 --strictPort --base /buddyscope/',
        url: baseURL,
        reuseExistingServer: !process.env.CI,
      }
    : undefined,
});
