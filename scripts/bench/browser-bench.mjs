/* global window -- the functions handed to page.evaluate run in the page */
// The browser benchmarks: the production build served from a temporary directory by a tiny static
// server, driven in Debian's Chromium by Playwright. Two builds: the normal one (what readers get:
// its first load is weighed) and one with VITE_TEST_API=1, whose window.__buddyscope.bench()
// loads the measuring hooks (web/bench/hooks.ts) that time the real player and memory map.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM } from '../chromium.mjs';

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.md': 'text/markdown',
};

/** vite build (with extra arguments) into a fresh temporary directory; returns it. */
export function build(root, env, extra = []) {
  const out = mkdtempSync(join(tmpdir(), 'buddyscope-bench-site-'));
  const r = spawnSync(
    join(root, 'node_modules/.bin/vite'),
    [
      'build',
      '--configLoader',
      'runner',
      '--outDir',
      out,
      '--emptyOutDir',
      '--logLevel',
      'warn',
      ...extra,
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        BUDDYSCOPE_BASE: '/',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (r.status !== 0) throw new Error(`vite build failed (exit ${r.status})`);
  return out;
}

/**
 * Serve dir as a static host would (no compression: the bench gzips what it weighs itself), but
 * cross-origin isolated: only then does performance.now() tick in 5 µs rather than 100 µs steps,
 * and the map's rows are fractions of a millisecond. The site loads nothing from elsewhere, so
 * isolation changes nothing else.
 */
export function serve(dir) {
  const server = createServer((req, res) => {
    const path = normalize(
      decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname),
    ).replace(/^(\.\.[/\\])+/, '');
    let file = join(dir, path);
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const body = readFileSync(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-embedder-policy': 'require-corp',
      });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() }),
    );
  });
}

/** What the home page makes the browser fetch: each JS, CSS and wasm response, gzipped. */
async function firstLoad(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const fetched = [];
  page.on('response', (r) => {
    const u = new URL(r.url());
    if (/\.(js|mjs|css|wasm)$/.test(u.pathname)) fetched.push(r);
  });
  await page.goto(url);
  await page.getByRole('heading', { name: 'Your simulated machine' }).waitFor();
  await page.waitForLoadState('networkidle');
  const files = [];
  for (const r of fetched) {
    const body = await r.body();
    files.push({
      name: new URL(r.url()).pathname.split('/').pop(),
      raw: body.length,
      gzip: gzipSync(body).length,
    });
  }
  await page.close();
  return files.sort((a, b) => b.gzip - a.gzip);
}

/** The playground of the test-API build, with its hooks loaded. */
async function playground(browser, url, draft) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  if (draft) {
    await page.addInitScript((text) => {
      localStorage.setItem(
        'buddyscope.draft.v1',
        JSON.stringify({ text, machine: null, updated: Date.now() }),
      );
    }, draft);
  }
  await page.goto(`${url}#/playground`);
  await page.waitForFunction(() => !!window.__buddyscope, null, { timeout: 60_000 });
  return page;
}

/**
 * Start recording the page's long tasks and what each long animation frame (over 50 ms) was made
 * of (scripts, forced layouts, rendering), read back by readLongWork, so a long task says where
 * it came from.
 */
async function observeLongWork(page) {
  await page.evaluate(() => {
    window.__benchTasks = [];
    window.__benchFrames = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__benchTasks.push(e.duration);
    }).observe({ type: 'longtask' });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.duration <= 50) continue;
        window.__benchFrames.push({
          duration: e.duration,
          render: e.startTime + e.duration - e.renderStart,
          scripts: e.scripts.map((x) => ({
            name: x.invoker + (x.sourceFunctionName ? ` (${x.sourceFunctionName})` : ''),
            duration: x.duration,
            forcedLayout: x.forcedStyleAndLayoutDuration,
          })),
        });
      }
    }).observe({ type: 'long-animation-frame' });
  });
}

/** The long tasks and long frames recorded since observeLongWork. */
async function readLongWork(page) {
  const tasks = await page.evaluate(() => window.__benchTasks);
  const frames = await page.evaluate(() => window.__benchFrames);
  return { tasks, frames };
}

/**
 * Play the real playground for `seconds` on the bench workload, recording long tasks (> 50 ms)
 * and, to say what they were, long animation frames (the frame's tasks together, with the scripts
 * that ran in it, their forced layouts, and the rendering at its end). Loading the workload is not
 * counted: the observers only keep entries that start after Play.
 */
async function playing(browser, url, workload, { seconds, speed, grain, ops }) {
  const page = await playground(browser, url, workload);
  // The long workload compiles in a worker and loads in slices: wait for all of it.
  await page.waitForFunction((n) => window.__buddyscope?.player.length === n, ops, {
    timeout: 180_000,
  });
  await page.getByLabel('Speed').selectOption(String(speed));
  await page.getByLabel('Play by').selectOption(grain);
  await observeLongWork(page);
  const before = await page.evaluate(() => window.__buddyscope.player.position.op);
  await page.getByRole('button', { name: 'Play' }).click();
  await page.waitForTimeout(seconds * 1000);
  await page.getByRole('button', { name: 'Pause' }).click();
  const after = await page.evaluate(() => window.__buddyscope.player.position.op);
  const { tasks, frames } = await readLongWork(page);
  await page.close();
  return { tasks, frames, ops: after - before };
}

/** Two million random allocs and frees on the 1M-frame machine: the load the issue measured. */
export const LONG_LOAD_WORKLOAD = `machine bench1m
seed 9
cpu 0 random 1000000 max_order=3 free=50 GFP_KERNEL
cpu 1 random 1000000 GFP_KERNEL
`;
const LONG_LOAD_OPS = 2_000_000;

/**
 * Load the 2M-op workload through the real playground (typed first, then Run pressed) and time
 * it to the last op, with the long tasks on the main thread meanwhile and the page's memory once loaded:
 * measureUserAgentSpecificMemory (the page is cross-origin isolated), else the JS heap.
 */
async function longLoad(browser, url) {
  const page = await playground(browser, url, null);
  await page.locator('.cm-content').waitFor();
  await page.getByRole('textbox', { name: /^Workload/ }).fill(LONG_LOAD_WORKLOAD);
  await observeLongWork(page);
  const t0 = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name: 'Run workload' }).click();
  await page.waitForFunction((n) => window.__buddyscope?.player.length === n, LONG_LOAD_OPS, {
    timeout: 600_000,
    polling: 50,
  });
  const ms = (await page.evaluate(() => performance.now())) - t0;
  const { tasks, frames } = await readLongWork(page);
  const memory = await page.evaluate(async () => {
    if (window.crossOriginIsolated && performance.measureUserAgentSpecificMemory) {
      const m = await Promise.race([
        performance.measureUserAgentSpecificMemory(),
        new Promise((r) => setTimeout(() => r(null), 30_000)),
      ]);
      if (m) return { bytes: m.bytes, how: 'measureUserAgentSpecificMemory' };
    }
    return { bytes: performance.memory?.usedJSHeapSize ?? 0, how: 'JS heap' };
  });
  const events = await page.evaluate(() => window.__buddyscope.player.totalEvents);
  await page.close();
  return { ms, tasks, frames, memory, ops: LONG_LOAD_OPS, events };
}

/** One row alone: build the site with env, serve it, and run measure(browser, url) once. */
async function alone(root, env, measure) {
  const dir = build(root, env);
  const server = await serve(dir);
  const browser = await chromium.launch(CHROMIUM);
  try {
    return await measure(browser, server.url);
  } finally {
    await browser.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Only the long load (`npm run bench -- --long-load`): the hooked build, one page. */
export function longLoadBench(root) {
  return alone(root, { VITE_TEST_API: '1' }, longLoad);
}

/** Only the first load (`npm run bench -- --first-load`): the plain build, one page. */
export function firstLoadBench(root) {
  return alone(root, { VITE_TEST_API: '' }, firstLoad);
}

/** The 1 TiB machine's /proc/zoneinfo (a real capture's, scaled: traces/README.md). */
export const bigZoneinfo = (root) =>
  readFileSync(join(root, 'traces', 'captured', 'zoneinfo-1tib.txt'), 'utf8');

/**
 * Issue 18's rows: the 1 TiB machine built from its zoneinfo (268M frames, most of them in use, as
 * the Your machine page builds it) in the hooked build: the player's moves, the memory map's
 * redraws (its overview: a cell per 64K frames) and every view drawn after a step, on its
 * 40,000-op history (web/bench/workloads.ts BIG_WORKLOAD, its machine line replaced).
 */
async function big(browser, url, zoneinfo) {
  const page = await playground(browser, url, null);
  try {
    const { seek, map } = await page.evaluate(async (zoneinfo) => {
      const b = await window.__buddyscope.bench();
      const machine = b.machineFromZoneinfo(zoneinfo);
      const seek = await b.seekBench(40, b.BIG_WORKLOAD, machine);
      const map = await b.mapBench(40, 800, b.BIG_WORKLOAD, machine);
      return { seek, map };
    }, zoneinfo);
    // 40 moves of each kind, so that a p95 is not just the slowest of 20
    const views = await withCounts(page, 3 * 40, () =>
      page.evaluate(async (zoneinfo) => {
        const b = await window.__buddyscope.bench();
        return b.stepViewsBench(40, b.BIG_WORKLOAD, b.machineFromZoneinfo(zoneinfo));
      }, zoneinfo),
    );
    return { seek, map, views };
  } finally {
    await page.close();
  }
}

/**
 * Run measure() on page and add to its result the layouts and style recalculations Chromium did
 * meanwhile (its Performance domain's counters), over `moves` moves: counts that the machine's
 * load does not change, unlike the timings. Mounting the views is among them (a layout or two).
 */
async function withCounts(page, moves, measure) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const read = async () =>
    Object.fromEntries(
      (await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]),
    );
  const before = await read();
  const result = await measure();
  const after = await read();
  await cdp.detach();
  return {
    ...result,
    counts: {
      moves,
      layouts: after.LayoutCount - before.LayoutCount,
      styles: after.RecalcStyleCount - before.RecalcStyleCount,
    },
  };
}

/** Only the 1 TiB rows (`npm run bench -- --big`): the hooked build, one page. */
export async function bigBench(root) {
  const [a, b, c] = loadavg();
  const before = `load average ${a.toFixed(2)}, ${b.toFixed(2)}, ${c.toFixed(2)}`;
  const zoneinfo = bigZoneinfo(root);
  const measured = await alone(root, { VITE_TEST_API: '1' }, (browser, url) =>
    big(browser, url, zoneinfo),
  );
  return { ...measured, load: { before } };
}

export async function browserBench(root) {
  const plain = build(root, { VITE_TEST_API: '' });
  const hooked = build(root, { VITE_TEST_API: '1' });
  const servers = [await serve(plain), await serve(hooked)];
  const browser = await chromium.launch(CHROMIUM);
  try {
    const files = await firstLoad(browser, servers[0].url);
    const page = await playground(browser, servers[1].url, null);
    const seek = await page.evaluate(async () => (await window.__buddyscope.bench()).seekBench(40));
    const map = await page.evaluate(async () => (await window.__buddyscope.bench()).mapBench(60));
    const server2 = await withCounts(page, 3 * 40, () =>
      page.evaluate(async () => (await window.__buddyscope.bench()).stepViewsBench(40)),
    );
    const workload = await page.evaluate(
      async () => (await window.__buddyscope.bench()).BENCH_WORKLOAD,
    );
    await page.close();
    const play = await playing(browser, servers[1].url, workload, {
      seconds: 5,
      speed: 1000,
      grain: 'op',
      ops: seek.ops,
    });
    const load = await longLoad(browser, servers[1].url);
    const bigMachine = await big(browser, servers[1].url, bigZoneinfo(root));
    return { files, seek, map, server2, play, workload, load, big: bigMachine };
  } finally {
    await browser.close();
    for (const s of servers) s.close();
    rmSync(plain, { recursive: true, force: true });
    rmSync(hooked, { recursive: true, force: true });
  }
}
