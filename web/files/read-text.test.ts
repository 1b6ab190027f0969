// Files to text: gzip, binary refusal with the offset, limits, and (fast-check) never a throw.
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToText } from './read-text';

const enc = (s: string) => new TextEncoder().encode(s);

describe('bytesToText', () => {
  it('reads plain and gzipped text', async () => {
    expect(await bytesToText(enc('a\tb\n'))).toEqual({ ok: true, text: 'a\tb\n', gzipped: false });
    expect(await bytesToText(new Uint8Array(gzipSync('# tracer: nop\n')))).toEqual({
      ok: true,
      text: '# tracer: nop\n',
      gzipped: true,
    });
  });

  it('refuses binary, truncated .gz and oversize input with a reason', async () => {
    const bin = await bytesToText(new Uint8Array([0x41, 0x42, 0x00, 0x43]));
    expect(bin).toEqual({
      ok: false,
      message: expect.stringMatching(/not a text file: byte 2 is 0x00/),
    });
    const gz = new Uint8Array(gzipSync('x'.repeat(5000) + 'y'.repeat(5000)));
    expect(await bytesToText(gz.subarray(0, gz.length - 12))).toEqual({
      ok: false,
      message: expect.stringMatching(/cut short or damaged/),
    });
    expect(await bytesToText(enc('x'.repeat(100)), 50)).toEqual({
      ok: false,
      message: expect.stringMatching(/above the limit/),
    });
    expect(await bytesToText(new Uint8Array(gzipSync(Buffer.alloc(1000, 0x41))), 500)).toEqual({
      ok: false,
      message: expect.stringMatching(/unpacks to more than/),
    });
    expect(await bytesToText(new Uint8Array([0xc3, 0x28]))).toEqual({
      ok: false,
      message: expect.stringMatching(/not valid UTF-8/),
    });
  });

  it('any bytes: text or a reason, never a throw', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (b) => {
        const r = await bytesToText(b);
        expect(r.ok || r.message.length > 0).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
