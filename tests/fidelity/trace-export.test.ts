/*
 * Fidelity: the trace text the site exports, against a real 6.18 trace of the same kind of
 * workload. touch64-cpu0 (traces/README.md) maps 64 MiB, touches every page and unmaps it; the
 * unmap frees the pages in folio batches of 31, which the kernel traces as 31 mm_page_free lines
 * (free_pages_prepare) followed by 31 mm_page_free_batched lines (free_unref_folios, under the
 * pcp lock). We export a workload that allocates order-0 movable pages and frees them
 * `batched`, and compare what is deterministic in the kernel's text: which events appear, the
 * batch shape, and the flags column each tracepoint site prints given the locks it holds
 * ("....." outside any lock, "...2." under pcp_spin_trylock, "d..3." under zone->lock taken
 * with interrupts off inside it). need-resched and softirq marks ('N', 'n', 's') depend on the
 * scheduler of the moment; the model prints none, so the test compares the most common column.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

import { traceOfRun } from '../../web/app/trace-export';
import { loadCore } from '../../web/core/module';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const LINE = /^\s*\S+-\d+\s+\[(\d+)\]\s+(\S+)\s+[\d.]+: (\w+): (.*)$/;

interface Line {
  flags: string;
  event: string;
  pfn: string;
}

function parse(text: string): Line[] {
  const out: Line[] = [];
  for (const l of text.split('\n')) {
    const m = LINE.exec(l);
    if (!m) continue;
    out.push({
      flags: m[2] ?? '',
      event: m[3] ?? '',
      pfn: /pfn=(\S+)/.exec(m[4] ?? '')?.[1] ?? '',
    });
  }
  return out;
}

/** The most common flags column of each event. */
function commonFlags(lines: Line[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const l of lines) {
    const c = counts.get(l.event) ?? new Map<string, number>();
    c.set(l.flags, (c.get(l.flags) ?? 0) + 1);
    counts.set(l.event, c);
  }
  const out = new Map<string, string>();
  for (const [event, c] of counts) out.set(event, [...c].sort((x, y) => y[1] - x[1])[0]?.[0] ?? '');
  return out;
}

/** Lengths of the runs of consecutive lines of one event. */
function runs(lines: Line[], event: string): number[] {
  const out: number[] = [];
  let n = 0;
  for (const l of lines) {
    if (l.event === event) n++;
    else if (n) {
      out.push(n);
      n = 0;
    }
  }
  if (n) out.push(n);
  return out;
}

const KMEM = ['mm_page_alloc', 'mm_page_free', 'mm_page_free_batched', 'mm_page_alloc_zone_locked'];

describe('trace export against the live kernel (touch64: touch, then munmap)', async () => {
  const real = parse(
    gunzipSync(readFileSync(join(repo, 'traces', 'touch64-cpu0.trace.gz'))).toString('utf8'),
  );
  const core = await loadCore();
  // 200 order-0 movable pages on CPU 0, then freed as the unmap frees them
  const workload = `machine small\nprofile 6.18\nrepeat 200 {\n  cpu 0 alloc buf GFP_HIGHUSER_MOVABLE\n}\ncpu 0 free buf * batched\n`;
  const exported = traceOfRun(core, workload, null);
  if (!exported.ok) throw new Error(exported.message);
  const model = parse(exported.text).filter((l) => KMEM.includes(l.event));

  it('the real trace has the shape we compare with', () => {
    const flags = commonFlags(real);
    expect(flags.get('mm_page_alloc')).toBe('.....');
    expect(flags.get('mm_page_free')).toBe('.....');
    expect(flags.get('mm_page_free_batched')).toBe('...2.');
    expect(flags.get('mm_page_alloc_zone_locked')).toBe('d..3.');
    expect(runs(real, 'mm_page_free_batched')).toContain(31);
    expect(Math.max(...runs(real, 'mm_page_free_batched'))).toBe(31);
  });

  it('prints each kmem tracepoint with the flags the kernel prints at that site', () => {
    const flags = commonFlags(model);
    const kernel = commonFlags(real);
    for (const event of KMEM) expect(flags.get(event), event).toBe(kernel.get(event));
    // and never another column for these events: the model's contexts are exact, not typical
    for (const l of model) expect(l.flags, l.event).toBe(kernel.get(l.event));
  });

  it('writes mm_page_free_batched for a batch free: 31 frees, then the same 31 pages batched', () => {
    const batched = runs(model, 'mm_page_free_batched');
    expect(batched.slice(0, 6)).toEqual([31, 31, 31, 31, 31, 31]);
    expect(batched.reduce((a, b) => a + b, 0)).toBe(200);
    const frees = model.filter((l) => l.event.startsWith('mm_page_free'));
    // the real kernel's order: a run of mm_page_free, then mm_page_free_batched of the same pfns
    const firstFrees = frees.slice(0, 31).map((l) => [l.event, l.pfn]);
    const firstBatched = frees.slice(31, 62).map((l) => [l.event, l.pfn]);
    expect(firstFrees.every(([e]) => e === 'mm_page_free')).toBe(true);
    expect(firstBatched.map(([, p]) => p)).toEqual(firstFrees.map(([, p]) => p));
    expect(firstBatched.every(([e]) => e === 'mm_page_free_batched')).toBe(true);
  });
});
