// Files to text: gzip, binary refusal with the offset, limits, and (fast-check) never a throw.
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToText, firstNonUtf8Byte } from './read-text';

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
      offset: 2,
      message: expect.stringMatching(/not a text file: byte 2 is 0x00/),
    });
    const gz = new Uint8Array(gzipSync('x'.repeat(5000) + 'y'.repeat(5000)));
    expect(await bytesToText(gz.subarray(0, gz.length - 12))).toEqual({
      ok: false,
      offset: expect.any(Number),
      message: expect.stringMatching(/cut short or damaged/),
    });
    expect(await bytesToText(enc('x'.repeat(100)), 50)).toEqual({
      ok: false,
      offset: 50,
      message: expect.stringMatching(/above the limit/),
    });
    expect(await bytesToText(new Uint8Array(gzipSync(Buffer.alloc(1000, 0x41))), 500)).toEqual({
      ok: false,
      offset: 500,
      message: expect.stringMatching(/unpacks to more than/),
    });
    expect(await bytesToText(new Uint8Array([0xc3, 0x28]))).toEqual({
      ok: false,
      offset: 0,
      message: expect.stringMatching(/not valid UTF-8/),
    });
  });

  // Found by the file fuzzer: a file that is not UTF-8 was refused without saying where.
  it('says at which byte a file stops being UTF-8', async () => {
    const bytes = enc('line one\nline twö\n');
    const at = bytes.length;
    const bad = new Uint8Array([...bytes, 0xe2, 0x82, 0x41]); // a 3-byte sequence cut short
    expect(await bytesToText(bad)).toEqual({
      ok: false,
      offset: at,
      message: `this is not a text file: it is not valid UTF-8 from byte ${at} (0xe2)`,
    });
    // overlong, surrogate and above U+10FFFF forms, and a stray continuation byte
    for (const seq of [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80]]) {
      expect(firstNonUtf8Byte(new Uint8Array([0x41, ...seq]))).toBe(1);
    }
    expect(firstNonUtf8Byte(enc('é€🦀'))).toBe(-1);
  });

  it('finds bad UTF-8 exactly where the standard decoder refuses it', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const utf8ish = fc.array(
      fc.oneof(fc.integer({ min: 0x20, max: 0x7f }), fc.integer({ min: 0x80, max: 0xff })),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(utf8ish, (list) => {
        const b = new Uint8Array(list);
        const at = firstNonUtf8Byte(b);
        let valid = true;
        try {
          decoder.decode(b);
        } catch {
          valid = false;
        }
        expect(at < 0).toBe(valid);
        // the bytes before the offset decode, so the offset is the first bad one
        if (at >= 0) expect(() => decoder.decode(b.subarray(0, at))).not.toThrow();
      }),
      { numRuns: 2000, seed: 19 },
    );
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
