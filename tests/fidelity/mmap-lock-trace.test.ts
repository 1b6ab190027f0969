/*
 * Fidelity: mmap_lock against a real 6.18 kernel. traces/faults-2threads-churn{0,1}.trace.gz are
 * the mmap_lock tracepoints and exceptions:page_fault_user of faultbench (two threads each
 * faulting in 20000 pages of their own; with churn=1 a third thread mapping and unmapping 1 MiB
 * until they are done), captured on this machine by scripts/capture/capture-faults.sh. The 6.18
 * profile runs the same shape (two regions of 15000 pages, the model's window being 32768 pages,
 * and a churn thread) and must use mmap_lock as the kernel did: reads for a handful of faults in
 * tens of thousands (per-VMA locks), two writes per mmap/munmap pair, and one downgrade per
 * munmap, which emits acquire_returned(write=false) without start_locking
 * (docs/kernel/fault/README.md (L.5, L.6)).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';

import { loadCore, type Core } from '../../web/core/module';
import { runWorkload } from '../../web/reproductions/runner';

const traces = join(fileURLToPath(new URL('../..', import.meta.url)), 'traces');

/** What a capture (or a model run) counts. */
interface Counts {
  faults: number;
  readStarts: number; // mmap_lock_start_locking write=false
  writeStarts: number; // mmap_lock_start_locking write=true
  readReturns: number; // mmap_lock_acquire_returned write=false success=true
  writeFaultsNotPresent: number; // page_fault_user error_code=0x6
}

/** Count the kernel's lines: every traced line belongs to faultbench's process tree. */
function traceCounts(file: string): Counts {
  const text = gunzipSync(readFileSync(join(traces, file))).toString('utf8');
  const c: Counts = {
    faults: 0,
    readStarts: 0,
    writeStarts: 0,
    readReturns: 0,
    writeFaultsNotPresent: 0,
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    if (line.includes(' page_fault_user: ')) {
      c.faults++;
      if (line.endsWith('error_code=0x6')) c.writeFaultsNotPresent++;
    } else if (line.includes(' mmap_lock_start_locking: ')) {
      if (line.endsWith('write=true')) c.writeStarts++;
      else c.readStarts++;
    } else if (
      line.includes(' mmap_lock_acquire_returned: ') &&
      line.endsWith('write=false success=true')
    )
      c.readReturns++;
  }
  return c;
}

/** The model's workload: two faulting threads (and a churning one), 512 pages per step. */
function faultbench(churn: boolean): string {
  const lines = ['machine nodes=1 cpus=3 normal=131072', 'profile 6.18'];
  for (let c = 0; c < 3; c++) lines.push(`cpu ${c} thread mm=0`);
  lines.push('cpu 0 mmap at=0 pages=15000', 'cpu 1 mmap at=16384 pages=15000');
  for (let at = 0; at < 15000; at += 500) {
    lines.push(`cpu 0 touch at=${at} pages=500`, `cpu 1 touch at=${16384 + at} pages=500`);
    if (churn)
      for (let i = 0; i < 10; i++)
        lines.push('cpu 2 mmap at=32000 pages=256', 'cpu 2 munmap at=32000 pages=256');
  }
  return lines.join('\n') + '\n';
}

let core: Core;
beforeAll(async () => {
  core = await loadCore();
});

function modelCounts(churn: boolean): Counts & { pairs: number } {
  const run = runWorkload(core, faultbench(churn), '6.18');
  const c: Counts = {
    faults: 0,
    readStarts: 0,
    writeStarts: 0,
    readReturns: 0,
    writeFaultsNotPresent: 0,
  };
  let pairs = 0;
  for (const e of run.events) {
    if (e.name === 'page_fault_user') {
      c.faults++;
      if (e.b === 6) c.writeFaultsNotPresent++;
    } else if (e.name === 'mmap_lock_start_locking') {
      if (e.a) c.writeStarts++;
      else c.readStarts++;
    } else if (e.name === 'mmap_lock_acquire_returned' && !e.a && e.b) c.readReturns++;
    else if (e.name === 'vma_unmap') pairs++;
  }
  return { ...c, pairs };
}

describe('mmap_lock on a real 6.18 kernel and in the 6.18 profile', () => {
  const pairsOf = (file: string) => {
    // faultbench printed its churn pairs; the trace says it too: one downgrade per munmap
    const c = traceCounts(file);
    return c.readReturns - c.readStarts;
  };

  it('takes mmap_lock for read for a few faults in tens of thousands, without churn', () => {
    const kernel = traceCounts('faults-2threads-churn0.trace.gz');
    const model = modelCounts(false);
    expect(kernel.faults).toBeGreaterThan(40000);
    expect(kernel.writeFaultsNotPresent / kernel.faults).toBeGreaterThan(0.99);
    expect(model.writeFaultsNotPresent).toBe(model.faults);
    // the kernel: 25 reads for 40060 faults (start-up included); the model: anon_vma's trylocks
    expect((kernel.readStarts * 1000) / kernel.faults).toBeLessThan(1);
    expect((model.readStarts * 1000) / model.faults).toBeLessThan(1);
    expect(model.readStarts).toBeGreaterThan(0);
    expect(model.faults).toBe(30000);
  });

  it('keeps the reads that few under a mmap/munmap loop: two writes per pair, one downgrade per munmap', () => {
    const kernel = traceCounts('faults-2threads-churn1.trace.gz');
    const model = modelCounts(true);
    const kernelPairs = pairsOf('faults-2threads-churn1.trace.gz');
    const base = traceCounts('faults-2threads-churn0.trace.gz');
    expect(kernelPairs).toBeGreaterThan(1000);
    expect((kernel.readStarts * 1000) / kernel.faults).toBeLessThan(1);
    expect((model.readStarts * 1000) / model.faults).toBeLessThan(1);
    // writes beyond the start-up ones: 2 per pair (mmap, munmap), in both
    expect((kernel.writeStarts - base.writeStarts) / kernelPairs).toBeCloseTo(2, 1);
    expect((model.writeStarts - 2) / model.pairs).toBe(2);
    // munmap downgrades: acquire_returned(write=false) with no start_locking before it
    expect((model.readReturns - model.readStarts) / model.pairs).toBe(1);
  });
});
