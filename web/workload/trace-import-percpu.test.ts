// The percpu tracepoints of a kernel trace as percpu statements: both print formats, matching by
// ptr=, positioned errors, and the percpu lines of the real captures.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseWorkload } from './parser';
import { printWorkload } from './printer';
import { describeImport, importTrace } from './trace-import';
import { ptrGroup } from './trace-import-percpu';

const line = (cpu: number, event: string, fields: string) =>
  `           sleep-6589    [00${cpu}] d..1.   192.075423: ${event}: ${fields}`;
// 6.18 (as the live machine printed it) and 5.12 (no call_site, bytes_alloc, gfp_flags)
const alloc618 = (ptr: string, size = 16, align = 8, atomic = 0) =>
  `call_site=mm_init+0x2bf/0x4d0 reserved=0 is_atomic=${atomic} size=${size} align=${align} base_addr=0000000048598e6c off=75392 ptr=${ptr} bytes_alloc=64 gfp_flags=GFP_KERNEL`;
const alloc512 = (ptr: string) =>
  `reserved=1 is_atomic=0 size=8 align=4 base_addr=0000000048598e6c off=100 ptr=${ptr}`;
const free = (ptr: string) => `base_addr=0000000048598e6c off=75392 ptr=${ptr}`;

describe('importTrace: percpu lines', () => {
  it('turns percpu allocs into percpu alloc on ptr-named groups and frees them by ptr', () => {
    const text = [
      '# tracer: nop',
      line(1, 'percpu_alloc_percpu', alloc618('0000000056408931')),
      line(0, 'percpu_alloc_percpu', alloc512('00000000c6fa7351')),
      line(0, 'percpu_alloc_percpu', alloc618('000000005b7cc8c1', 4, 4, 1)),
      line(1, 'percpu_free_percpu', free('0000000056408931')),
      line(1, 'percpu_free_percpu', free('00000000deadbeef')), // allocated before the trace
      line(0, 'percpu_free_percpu', free('0000000056408931')), // freed twice: the second is unmatched
      line(0, 'percpu_alloc_percpu_fail', 'reserved=0 is_atomic=1 size=8 align=8'),
      line(0, 'percpu_create_chunk', 'base_addr=0000000048598e6c'),
      line(1, 'mm_page_alloc', 'page=1 pfn=0x10 order=0 migratetype=0 gfp_flags=GFP_KERNEL'),
    ].join('\n');
    const r = importTrace(text);
    if (!r.ok) throw new Error(r.error.message);
    const printed = printWorkload(r.workload);
    expect(printed).toBe(
      [
        'cpu 1 percpu alloc p56408931 size=16 align=8',
        'cpu 0 percpu alloc pc6fa7351 size=8 align=4 reserved',
        'cpu 0 percpu alloc p5b7cc8c1 size=4 align=4 atomic',
        'cpu 1 percpu free p56408931',
        'cpu 1 alloc h10 order=0 GFP_KERNEL',
        '',
      ].join('\n'),
    );
    // what the importer writes, the language reads back
    const back = parseWorkload(printed);
    expect(back.ok && back.workload.ops).toEqual(r.workload.ops);
    expect(r.stats).toMatchObject({
      percpuAllocs: 3,
      percpuFrees: 1,
      percpuUnmatchedFrees: 2,
      allocs: 1,
      maxCpu: 1,
    });
    expect(r.stats.skipped).toEqual(
      new Map([
        ['percpu_alloc_percpu_fail', 1],
        ['percpu_create_chunk', 1],
      ]),
    );
    expect(describeImport(r.stats)).toMatch(
      /imported 3 percpu allocs and 1 percpu frees; skipped 2 percpu frees of areas not allocated in the trace/,
    );
  });

  it('gives an area freed and allocated again at the same pointer its group back', () => {
    const p = '0000000011c17514';
    const r = importTrace(
      [
        line(0, 'percpu_alloc_percpu', alloc618(p)),
        line(0, 'percpu_free_percpu', free(p)),
        line(1, 'percpu_alloc_percpu', alloc618(p)),
        line(1, 'percpu_free_percpu', free(p)),
      ].join('\n'),
    );
    expect(r.ok && r.stats).toMatchObject({ percpuAllocs: 2, percpuFrees: 2 });
    expect(ptrGroup(p)).toBe('p11c17514');
    expect(ptrGroup('0000000000000000')).toBe('p0');
  });

  it.each([
    [
      line(0, 'percpu_alloc_percpu', alloc618('00000000c6fa7351', 0)),
      /^1:\d+: expected size=1\.\.32768 \(PCPU_MIN_UNIT_SIZE\) in percpu_alloc_percpu, found 0$/,
      'size=0',
    ],
    [
      line(0, 'percpu_alloc_percpu', alloc618('00000000c6fa7351', 16, 12)),
      /^1:\d+: expected align= a power of two 1\.\.4096 \(PAGE_SIZE\) in percpu_alloc_percpu, found 12$/,
      'align=12',
    ],
    [
      line(0, 'percpu_alloc_percpu', alloc618('(null)')),
      /^1:\d+: expected ptr= a non-NULL pointer in hex in percpu_alloc_percpu, found \(null\)$/,
      'ptr=(null)',
    ],
    [
      line(
        0,
        'percpu_alloc_percpu',
        alloc618('00000000c6fa7351').replace('is_atomic=0', 'is_atomic=yes'),
      ),
      /^1:\d+: expected is_atomic=0 or 1 in percpu_alloc_percpu, found yes$/,
      'is_atomic=yes',
    ],
    [
      line(0, 'percpu_free_percpu', 'base_addr=0000000048598e6c off=12'),
      /^1:1: expected ptr= a non-NULL pointer in hex in percpu_free_percpu, found none$/,
      null,
    ],
    [
      line(0, 'percpu_free_percpu', 'base_addr=0000000048598e6c off=x ptr=00000000c6fa7351'),
      /^1:\d+: expected off= a byte offset in percpu_free_percpu, found x$/,
      'off=x',
    ],
  ])('reports %j at the line and the column of the field', (text, message, field) => {
    const r = importTrace(`# tracer: nop\n${text}`.split('\n').slice(1).join('\n'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(`${r.error.line}:${r.error.col}: ${r.error.message}`).toMatch(message);
    if (field) expect(text.slice(r.error.col - 1).startsWith(field)).toBe(true);
  });
});

// The captures: this repository's traces/ and the shared folder's, when present.
const shared = process.env.BUDDYSCOPE_SHARED ?? join(process.cwd(), '..', 'shared');
const captures = [
  join(process.cwd(), 'traces', 'percpu-netns.trace.gz'),
  join(shared, 'traces', 'touch8-cpu0.trace.gz'),
  join(shared, 'traces', 'tcp-loopback-8m.trace.gz'),
];

describe('importTrace: the percpu lines of real captures', () => {
  for (const path of captures) {
    it.skipIf(!existsSync(path))(`imports the percpu events of ${path.split('/').pop()}`, () => {
      const text = gunzipSync(readFileSync(path)).toString('utf8');
      const real = (text.match(/ percpu_alloc_percpu: /g) ?? []).length;
      const realFrees = (text.match(/ percpu_free_percpu: /g) ?? []).length;
      expect(real).toBeGreaterThan(0);
      const r = importTrace(text);
      if (!r.ok) throw new Error(`${r.error.line}:${r.error.col}: ${r.error.message}`);
      expect(r.stats.percpuAllocs).toBe(real);
      expect(r.stats.percpuFrees + r.stats.percpuUnmatchedFrees).toBe(realFrees);
      const back = parseWorkload(printWorkload(r.workload));
      expect(back.ok).toBe(true);
    });
  }
});
