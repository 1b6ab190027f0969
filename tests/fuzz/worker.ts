/*
 * worker.ts: one text fuzzer run for a time budget inside a worker thread, so that the CLI
 * (scripts/fuzz.mjs) can end an input that never returns. Before each input it bumps a counter in
 * shared memory (the watchdog's heartbeat) and marks when the first failure is seen (inputs run
 * after it are shrinking steps). It posts the run's summary and failure when done. With
 * sampleInput it only regenerates input number sampleInput of the seed (fast-check draws the same
 * inputs for fc.sample as for a run), for the report of an input the watchdog had to end.
 */
import { parentPort, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import { runTarget, summaryLine, type FuzzTarget } from './harness';
import { TARGETS } from './targets';

export interface FuzzJob {
  kind: string;
  seed: number;
  timeLimitMs: number;
  heartbeat: SharedArrayBuffer; // Int32Array: [inputs started, failure seen]
  sampleInput?: number; // 1-based
}

export interface FuzzReport {
  kind: string;
  summary: string;
  failure: string;
  inputs: number;
  rejections: number;
  crashes: number;
  hangs: number;
  unpositioned: number;
}

const job = workerData as FuzzJob;
const target = TARGETS.get(job.kind);
if (!target) throw new Error(`no fuzzer named ${job.kind}`);
if (job.sampleInput) {
  const inputs = fc.sample(target.arbitrary, { seed: job.seed, numRuns: job.sampleInput });
  parentPort?.postMessage({ input: fc.stringify(inputs[job.sampleInput - 1]) });
} else {
  await fuzz(target);
}

/** Run the target for the time budget and post its report. */
async function fuzz(target: FuzzTarget<never>): Promise<void> {
  const beat = new Int32Array(job.heartbeat);
  const run = await runTarget(
    target,
    { seed: job.seed, timeLimitMs: job.timeLimitMs },
    { onInput: () => Atomics.add(beat, 0, 1), onFailure: () => Atomics.store(beat, 1, 1) },
  );
  const report: FuzzReport = {
    kind: job.kind,
    summary: summaryLine(job.kind, run),
    failure: run.failure,
    ...run.stats,
  };
  parentPort?.postMessage(report);
}
