#!/usr/bin/env node
// fuzz.mjs: `npm run fuzz [-- --minutes N] [--seed S] [--only KIND]`. Runs the core's fuzz driver
// (wasm-core/fuzz/fuzz_ops.c, under ASan and UBSan) for the whole time on one core and, on the
// other, the text fuzzers (tests/fuzz/: workload, link, zoneinfo, trace, file) one after another,
// each for an equal share of the time. Each text fuzzer runs in a worker thread under a watchdog:
// an input that runs past the limit is ended and reported with the seed and the input's number.
// Any failure prints a minimal reproducer (the core's cut-down step stream, fast-check's shrunk
// input) and the exit code is non-zero. KIND: core, workload, link, zoneinfo, trace, file.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const TEXT_KINDS = ['workload', 'link', 'zoneinfo', 'trace', 'file'];
const KINDS = ['core', ...TEXT_KINDS];
/** An input the watchdog sees run this long is a hang (the harness itself fails inputs over 2 s). */
const WATCHDOG_MS = 10_000;

function usage(message) {
  console.error(
    `fuzz: ${message}\nusage: npm run fuzz -- [--minutes N] [--seed S] [--only ${KINDS.join('|')}]`,
  );
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { minutes: 1, seed: Date.now() % 2 ** 31, only: null };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if (argv[i] === '--minutes' && Number(value) > 0) opts.minutes = Number(value);
    else if (argv[i] === '--seed' && /^\d+$/.test(value ?? '')) opts.seed = Number(value) % 2 ** 31;
    else if (argv[i] === '--only' && KINDS.includes(value)) opts.only = value;
    else usage(`bad argument ${argv[i]} ${value ?? ''}`);
    i++;
  }
  return opts;
}

/** The core driver for `seconds`, through make (it builds the driver first). */
function runCore(seconds, seed) {
  return new Promise((resolve) => {
    let summary = '';
    const child = spawn(
      'make',
      [
        '--no-print-directory',
        '-s',
        '-C',
        'wasm-core',
        'fuzz',
        `FUZZ_ARGS=--seconds ${seconds} --ops 2000 --seed ${seed}`,
      ],
      { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    child.stdout.on('data', (chunk) => {
      const text = String(chunk);
      process.stdout.write(text);
      for (const line of text.split('\n')) if (line.startsWith('fuzz: core:')) summary = line;
    });
    child.on('close', (code) =>
      resolve({
        kind: 'core',
        ok: code === 0,
        summary: summary || `fuzz: core: exit ${code} [FAILED]`,
      }),
    );
  });
}

/** Input number n (1-based) of a text fuzzer's seed, as fast-check prints it. */
function sampleInput(kind, seed, n) {
  return new Promise((resolve) => {
    const worker = new Worker(join(repo, 'scripts/fuzz-worker.mjs'), {
      workerData: {
        kind,
        seed,
        timeLimitMs: 0,
        heartbeat: new SharedArrayBuffer(8),
        sampleInput: n,
      },
    });
    worker.on('message', (m) => resolve(m.input));
    worker.on('error', (e) => resolve(`(could not regenerate it: ${e.message})`));
  });
}

/** One text fuzzer in a worker for `ms`, ended by the watchdog if an input never returns. */
function runText(kind, ms, seed) {
  return new Promise((resolve) => {
    const heartbeat = new SharedArrayBuffer(8);
    const beat = new Int32Array(heartbeat);
    const worker = new Worker(join(repo, 'scripts/fuzz-worker.mjs'), {
      workerData: { kind, seed, timeLimitMs: ms, heartbeat },
      // a main thread's stack (Node's and a browser tab's are near 1 MB; a worker's default is 4)
      resourceLimits: { stackSizeMb: 1 },
    });
    let last = -1;
    let since = Date.now();
    let settled = false;
    let hung = false; // the watchdog ended the worker: its exit is not the failure to report
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      resolve(result);
    };
    const watchdog = setInterval(() => {
      const n = Atomics.load(beat, 0);
      if (n !== last) {
        last = n;
        since = Date.now();
        return;
      }
      if (n > 0 && Date.now() - since > WATCHDOG_MS) {
        const shrinking = Atomics.load(beat, 1) === 1;
        hung = true;
        clearInterval(watchdog);
        void worker.terminate().then(async () => {
          // a hang cannot be shrunk in-process: the input itself is the reproducer
          const input = shrinking
            ? '(a shrinking step of an earlier failure: replay the seed to see it)'
            : await sampleInput(kind, seed, n);
          const failure = [
            `fuzz: ${kind}: HANG: input ${n} of seed ${seed} ran over ${WATCHDOG_MS / 1000} s; the watchdog ended it`,
            `  input: ${input.length > 4000 ? input.slice(0, 4000) + '…' : input}`,
            `  replay: npm run fuzz -- --only ${kind} --seed ${seed}`,
          ].join('\n');
          finish({
            kind,
            ok: false,
            summary: `fuzz: ${kind}: ${n} inputs, 1 hang [FAILED]`,
            failure,
          });
        });
      }
    }, 250);
    worker.on('message', (r) =>
      finish({ kind, ok: !r.failure, summary: r.summary, failure: r.failure }),
    );
    worker.on('error', (e) =>
      finish({
        kind,
        ok: false,
        summary: `fuzz: ${kind}: the worker died [FAILED]`,
        failure: `fuzz: ${kind}: ${e.stack ?? e}`,
      }),
    );
    worker.on('exit', (code) => {
      if (code !== 0 && !hung)
        finish({
          kind,
          ok: false,
          summary: `fuzz: ${kind}: worker exit ${code} [FAILED]`,
          failure: '',
        });
    });
  });
}

const opts = parseArgs(process.argv.slice(2));
const totalMs = opts.minutes * 60_000;
const texts = opts.only ? TEXT_KINDS.filter((k) => k === opts.only) : TEXT_KINDS;
const runCoreToo = !opts.only || opts.only === 'core';
console.log(
  `fuzz: ${opts.minutes} min, seed ${opts.seed}: ${[...(runCoreToo ? ['core'] : []), ...texts].join(', ')}`,
);

// The core has one core to itself for the whole time; the text fuzzers share the other.
const core = runCoreToo ? runCore(Math.max(1, Math.round(totalMs / 1000)), opts.seed) : null;
const results = [];
for (const kind of texts) {
  const r = await runText(kind, totalMs / texts.length, opts.seed);
  console.log(r.summary);
  if (r.failure) console.log(r.failure);
  results.push(r);
}
if (core) results.unshift(await core);

console.log('\nfuzz: summary');
for (const r of results) console.log(`  ${r.summary}`);
const failed = results.filter((r) => !r.ok).map((r) => r.kind);
console.log(failed.length ? `fuzz: FAILED: ${failed.join(', ')}` : 'fuzz: every fuzzer passed');
process.exit(failed.length ? 1 : 0);
