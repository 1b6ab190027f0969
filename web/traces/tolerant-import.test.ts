// The browser's trace import: real traces (both shared captures), truncated and foreign text,
// and (fast-check) any bytes as a trace: a result or a positioned error, never a throw.
import { gunzipSync } from 'node:zlib';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importTraceTolerant } from './tolerant-import';

const shared = process.env.BUDDYSCOPE_SHARED ?? join(process.cwd(), '..', 'shared');
const traceText = (name: string) =>
  gunzipSync(readFileSync(join(shared, 'traces', name))).toString('utf8');

describe('importTraceTolerant', () => {
  for (const name of ['touch8-cpu0.trace.gz', 'tcp-loopback-8m.trace.gz']) {
    it.skipIf(!existsSync(join(shared, 'traces', name)))(`imports ${name}`, () => {
      const r = importTraceTolerant(traceText(name));
      if (!r.ok) throw new Error(`${r.error.line}: ${r.error.message}`);
      expect(r.stats.allocs).toBeGreaterThan(100);
      expect(r.stats.malformed).toBe(0);
    });
  }

  it('sets aside a cut-off last line and imports the rest', () => {
    const line = (cpu: number, pfn: number) =>
      `  touch-1234 [00${cpu}] ..... 100.000001: mm_page_alloc: page=0xffffea0000000000 pfn=0x${pfn.toString(16)} order=0 migratetype=1 gfp_flags=GFP_HIGHUSER_MOVABLE`;
    const text = ['# tracer: nop', line(0, 100), line(1, 200), line(0, 300).slice(0, 30)].join(
      '\n',
    );
    const r = importTraceTolerant(text);
    expect(r.ok && r.stats).toMatchObject({ allocs: 2, malformed: 1, malformedLines: [4] });
  });

  it('refuses text that is not a trace, saying where', () => {
    expect(importTraceTolerant('Node 0, zone   Normal\n  pages free 12\n')).toMatchObject({
      ok: false,
      error: { line: 1 },
    });
    expect(importTraceTolerant('# tracer: nop\n#\n')).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/no events/) },
    });
  });

  it('any text: a workload or a positioned error, never a throw', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 400 }),
          fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b).toString('latin1')),
        ),
        (t) => {
          const r = importTraceTolerant(t);
          if (!r.ok) expect(r.error.line).toBeGreaterThanOrEqual(1);
        },
      ),
      { numRuns: 300 },
    );
  });
});
