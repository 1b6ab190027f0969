#!/usr/bin/env node
// screenshot.mjs: docs/screenshot.png, the README's picture of the home page, and the first step
// of every lesson at 1440x900, at 1920x1080 in presenter mode and at 390x844 (a phone), written to
// test-results/screenshots/lessons/ for people to look at. Taken in Debian's Chromium from the
// Vite dev server (run `npm start` or `bash scripts/setup.sh` once first so the wasm module
// exists). Usage: node scripts/screenshot.mjs [URL] (default: its own dev server).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM } from './chromium.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(repo, 'docs/screenshot.png');

function freePort() {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log('node scripts/screenshot.mjs [URL]   (default: its own Vite dev server)');
  process.exit(0);
}

let server;
let url = process.argv[2];
if (!url) {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/`;
  server = spawn(
    join(repo, 'node_modules/.bin/vite'),
    ['--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: repo, stdio: 'ignore', detached: true },
  );
}

const browser = await chromium.launch(CHROMIUM);
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  for (let tries = 0; ; tries++) {
    try {
      await page.goto(url);
      break;
    } catch (err) {
      if (tries > 40) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  await page.getByRole('heading', { name: 'Your simulated machine' }).waitFor();
  await page.getByLabel('/proc/buddyinfo of the simulated machine').waitFor();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: out });
  console.log(`screenshot: wrote docs/screenshot.png from ${url}`);

  // Each lesson's first step, as a class, a projector and a phone see it.
  const shots = join(repo, 'test-results/screenshots/lessons');
  mkdirSync(shots, { recursive: true });
  const slugs = readdirSync(join(repo, 'lessons'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^\d{2}-/.test(d.name))
    .map((d) => d.name)
    .sort()
    .map((name) => name.replace(/^\d{2}-/, ''));
  const sizes = [
    { name: 'desktop', width: 1440, height: 900, mode: '' },
    { name: 'presenter', width: 1920, height: 1080, mode: '/present' },
    { name: 'phone', width: 390, height: 844, mode: '' },
  ];
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const [i, slug] of slugs.entries()) {
      await page.goto(new URL(`#/lessons/${slug}/1${size.mode}`, url).href);
      await page.locator('#step-title').waitFor();
      await page.getByText('Starting the simulation').waitFor({ state: 'detached' });
      await page.waitForTimeout(400); // the views' entry animations
      const file = `${String(i + 1).padStart(2, '0')}-${slug}-${size.name}.png`;
      await page.screenshot({ path: join(shots, file) });
    }
  }
  console.log(`screenshot: wrote ${slugs.length * sizes.length} lesson screenshots to ${shots}`);
} finally {
  await browser.close();
  if (server) process.kill(-server.pid, 'SIGTERM');
}
