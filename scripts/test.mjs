#!/usr/bin/env node
// test.mjs: `npm test`. Sets the machine up, then runs every layer of tests one after another
// (the machine has two cores, shared), keeps going after failures, and counts:
//
//   C unit tests (ASan/UBSan)  `make -C wasm-core test`, its "c: N passed, N failed" line
//   fuzz driver                `make -C wasm-core fuzz`, one test
//   generated TypeScript       the .def vocabularies and buddyscope.d.mts from the C, one test
//   wasm build                 `make -C wasm-core wasm`, one test
//   type-check                 `tsc --noEmit`, one test
//   lint                       `eslint --max-warnings 0`, one test
//   C format                   `clang-format --dry-run -Werror` over wasm-core, one test
//   format                     `prettier --check .`, one test
//   Vitest                     unit, binding and lesson tests, each test counted
//   production build           `vite build` with base /buddyscope/, one test
//   Playwright                 the build served by `vite preview`, in Debian's Chromium, each test counted
//
// It ends with one line "N passed, M failed" and exits non-zero when M > 0 or a step crashed.
// Only Node built-ins here: this runs before node_modules may exist.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(repo);
// Shared fixtures (kernel traces, captures) live beside the repository unless told otherwise.
process.env.BUDDYSCOPE_SHARED ??= join(repo, '..', 'shared');
const bin = (name) => join(repo, 'node_modules/.bin', name);
const reportDir = join(repo, 'test-results-json'); // not test-results/: Playwright empties that
const BASE = '/buddyscope/';
const MINUTE = 60_000;

const results = []; // { layer, passed, failed, note, seconds }
let stepStart = Date.now();
const children = new Set();

function record(layer, passed, failed, note = '') {
  const seconds = Math.round((Date.now() - stepStart) / 1000);
  results.push({ layer, passed, failed, note, seconds });
  const verdict = failed ? 'FAILED' : 'ok';
  console.log(
    `\n== ${layer}: ${passed} passed, ${failed} failed ${note ? `(${note}) ` : ''}[${verdict}]\n`,
  );
}

function banner(text) {
  stepStart = Date.now();
  console.log(`\n=== ${text} ${'='.repeat(Math.max(0, 70 - text.length))}`);
}

const stripAnsi = (s) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''); // eslint-disable-line no-control-regex

/**
 * Run a command, echoing its output, and resolve to { code, output }. Killed (with its whole
 * process group) after timeoutMs; code is then 'timeout'.
 */
function run(cmd, args, { env = {}, timeoutMs = 20 * MINUTE } = {}) {
  return new Promise((resolve) => {
    let output = '';
    let timedOut = false;
    const child = spawn(cmd, args, {
      cwd: repo,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children.add(child);
    const onData = (stream) => (chunk) => {
      output += chunk;
      stream.write(chunk);
    };
    child.stdout.on('data', onData(process.stdout));
    child.stderr.on('data', onData(process.stderr));
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(
        `\n!! ${cmd} ${args.join(' ')}: no end after ${timeoutMs / MINUTE} min, killing it`,
      );
      killGroup(child);
    }, timeoutMs);
    child.on('error', (err) => {
      output += String(err);
      console.error(`!! could not start ${cmd}: ${err.message}`);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code: timedOut ? 'timeout' : (code ?? signal), output: stripAnsi(output) });
    });
  });
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
}

function cleanup() {
  for (const child of children) killGroup(child);
}
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    cleanup();
    process.exit(130);
  });
}

/** A step that counts as one test: passes when the command exits 0. */
async function single(layer, cmd, args, opts) {
  banner(layer);
  const { code } = await run(cmd, args, opts);
  record(layer, code === 0 ? 1 : 0, code === 0 ? 0 : 1, code === 0 ? '' : `exit ${code}`);
  return code === 0;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Resolve true once url answers 200, false after timeoutMs. */
async function waitForHttp(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await new Promise((resolve) => {
      const req = get(url, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', () => resolve(0));
      req.setTimeout(2000, () => req.destroy());
    });
    if (status === 200) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

// ---------------------------------------------------------------------------------------------

async function setup() {
  banner('setup');
  const { code } = await run('bash', ['scripts/setup.sh', '--test', '--no-build'], {
    timeoutMs: 15 * MINUTE,
  });
  if (code !== 0) {
    record('setup', 0, 1, `exit ${code}: the machine is not ready, nothing else can run`);
    return false;
  }
  return true;
}

async function cTests() {
  const layer = 'C unit tests';
  banner(layer);
  const { code, output } = await run('make', ['--no-print-directory', '-C', 'wasm-core', 'test']);
  const lines = [...output.matchAll(/^c: (\d+) passed, (\d+) failed\s*$/gm)];
  const last = lines.at(-1);
  if (!last) {
    record(layer, 0, 1, `exit ${code}, no "c: N passed, N failed" line: did not build or crashed`);
    return;
  }
  const passed = Number(last[1]);
  let failed = Number(last[2]);
  let note = '';
  if (code !== 0 && failed === 0) {
    failed = 1;
    note = `exit ${code} after a clean count: a sanitizer or the harness failed`;
  }
  record(layer, passed, failed, note);
}

async function fuzz() {
  const layer = 'fuzz driver';
  banner(layer);
  if (!existsSync('wasm-core/fuzz/fuzz_ops.c')) {
    console.error('!! wasm-core/fuzz/fuzz_ops.c does not exist: the fuzz driver is missing.');
    record(layer, 0, 1, 'wasm-core/fuzz/fuzz_ops.c is missing');
    return;
  }
  const { code } = await run('make', ['--no-print-directory', '-C', 'wasm-core', 'fuzz'], {
    timeoutMs: 15 * MINUTE,
  });
  record(layer, code === 0 ? 1 : 0, code === 0 ? 0 : 1, code === 0 ? '' : `exit ${code}`);
}

async function vitest() {
  const layer = 'Vitest';
  banner(layer);
  const out = join(reportDir, 'vitest.json');
  rmSync(out, { force: true });
  const { code } = await run(bin('vitest'), [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);
  const json = readJson(out);
  if (!json) {
    record(layer, 0, 1, `exit ${code}, no JSON report: Vitest crashed`);
    return;
  }
  const passed = json.numPassedTests ?? 0;
  let failed = json.numFailedTests ?? 0;
  // A test file that fails to load has no tests to fail: count the file.
  const brokenFiles = (json.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  failed += brokenFiles;
  let note = brokenFiles ? `${brokenFiles} file(s) failed to run` : '';
  if (code !== 0 && failed === 0) {
    failed = 1;
    note = `exit ${code} with no failed test`;
  }
  record(layer, passed, failed, note);
}

async function e2e(built) {
  const layer = 'Playwright';
  banner(`${layer} (vite preview under ${BASE})`);
  if (!built || !existsSync('dist/index.html')) {
    record(layer, 0, 1, 'no production build to test');
    return;
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}${BASE}`;
  // vite preview: the built site as a static host serves it, on a free localhost port.
  const server = spawn(
    bin('vite'),
    [
      'preview',
      '--configLoader',
      'runner',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--strictPort',
      '--base',
      BASE,
    ],
    { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'], detached: true },
  );
  children.add(server);
  server.on('close', () => children.delete(server));
  try {
    if (!(await waitForHttp(url, 30_000))) {
      record(layer, 0, 1, `vite preview did not answer at ${url}`);
      return;
    }
    const out = join(reportDir, 'playwright.json');
    rmSync(out, { force: true });
    const { code } = await run(bin('playwright'), ['test', '--reporter=list,json'], {
      env: { BUDDYSCOPE_URL: url, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
    });
    const stats = readJson(out)?.stats;
    if (!stats) {
      record(layer, 0, 1, `exit ${code}, no JSON report: Playwright crashed`);
      return;
    }
    const passed = (stats.expected ?? 0) + (stats.flaky ?? 0);
    let failed = stats.unexpected ?? 0;
    let note = stats.skipped ? `${stats.skipped} skipped` : '';
    if (code !== 0 && failed === 0) {
      failed = 1;
      note = `exit ${code} with no failed test`;
    }
    if (passed + failed === 0) {
      failed = 1;
      note = 'no end-to-end test ran';
    }
    record(layer, passed, failed, note);
  } finally {
    killGroup(server);
  }
}

async function main() {
  mkdirSync(reportDir, { recursive: true });
  const started = Date.now();
  if (await setup()) {
    await cTests();
    await fuzz();
    await single('generated TypeScript (the .def vocabularies, buddyscope.d.mts)', 'bash', [
      '-c',
      'node scripts/gen-vocab.mjs && node scripts/gen-dts.mjs',
    ]);
    await single('wasm build', 'make', ['--no-print-directory', '-C', 'wasm-core', 'wasm']);
    await single('type-check (tsc --noEmit)', bin('tsc'), ['--noEmit', '-p', '.']);
    await single('lint (eslint --max-warnings 0)', bin('eslint'), ['.', '--max-warnings', '0']);
    await single('C format (clang-format --dry-run)', 'bash', ['scripts/format-c.sh', '--check']);
    await single('format (prettier --check)', bin('prettier'), ['--check', '.']);
    await vitest();
    rmSync('dist', { recursive: true, force: true }); // never test a stale build
    const built = await single(
      `production build (vite build, base ${BASE})`,
      bin('vite'),
      ['build', '--configLoader', 'runner'],
      {
        // VITE_TEST_API=1: the e2e build exposes window.__buddyscope so tests assert on the model.
        env: { BUDDYSCOPE_BASE: BASE, VITE_TEST_API: '1' },
      },
    );
    await e2e(built);
  }

  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  const width = Math.max(...results.map((r) => r.layer.length));
  console.log(`\n=== summary (${Math.round((Date.now() - started) / 1000)} s) ${'='.repeat(50)}`);
  for (const r of results) {
    const mark = r.failed ? 'FAIL' : 'ok  ';
    console.log(
      `${mark} ${r.layer.padEnd(width)} ${String(r.seconds).padStart(4)} s ${String(r.passed).padStart(5)} passed, ${String(r.failed).padStart(3)} failed${r.note ? `  (${r.note})` : ''}`,
    );
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  console.log(`0 passed, 1 failed`);
  process.exitCode = 1;
});
