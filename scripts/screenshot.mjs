#!/usr/bin/env node
// screenshot.mjs: docs/screenshot.png, the README's picture of the home page, taken in Debian's
// Chromium from the Vite dev server (run `npm start` or `bash scripts/setup.sh` once first so the
// wasm module exists). Usage: node scripts/screenshot.mjs [URL] (default: its own dev server).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
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
} finally {
  await browser.close();
  if (server) process.kill(-server.pid, 'SIGTERM');
}
