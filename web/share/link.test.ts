/*
 * Share-link codec: round trips, the messages of every broken form, and (fast-check) any string
 * as a link gives a state or a positioned error, never an exception.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64url, toBase64url } from './base64url';
import { deflateRaw } from './deflate';
import {
  decodeState,
  encodeState,
  linkUrl,
  LinkTooLongError,
  readLinkParams,
  LINK_FORMAT,
} from './link';
import { stateOfText, type ShareState } from './state';

const STATE: ShareState = {
  text: 'machine tiny\ncpu 0 alloc a order=2\n',
  machine: null,
  position: { op: 1, event: 3 },
  views: { compare: '5.13' },
};

async function errorOf(s: string) {
  const d = await decodeState(s);
  if (d.ok) throw new Error('decoded');
  return d.error;
}

describe('base64url', () => {
  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        const back = fromBase64url(toBase64url(b));
        expect(back.ok && Array.from(back.bytes)).toEqual(Array.from(b));
      }),
    );
  });
  it('says where a character is not base64url', () => {
    expect(fromBase64url('abc+')).toEqual({ ok: false, at: 3 });
  });
});

describe('share links', () => {
  it('round-trip a state with its format and model version', async () => {
    const s = await encodeState(STATE, 7);
    expect(s.startsWith(`${LINK_FORMAT}.7.`)).toBe(true);
    const d = await decodeState(s);
    expect(d).toEqual({ ok: true, state: STATE, format: LINK_FORMAT, modelVersion: 7 });
  });

  it('compress a long workload', async () => {
    const text = 'machine tiny\n' + 'cpu 0 alloc a order=0 GFP_KERNEL\n'.repeat(2000);
    const s = await encodeState(stateOfText(text), 1);
    expect(s.length).toBeLessThan(text.length / 20);
  });

  it('refuse to make a link the decoder would refuse: a text within the limit whose JSON is not', async () => {
    // 9 MiB of newlines: within the 16 MiB text limit, but each becomes \\n in the JSON (18 MiB)
    const text = 'machine tiny\n' + '\n'.repeat(9 * 1024 * 1024);
    await expect(encodeState(stateOfText(text), 1)).rejects.toThrow(LinkTooLongError);
    await expect(encodeState(stateOfText(text), 1)).rejects.toThrow(
      /^the link would unpack to [\d,]+ bytes, above 17 MiB: too long for a link; save the workload as a file instead$/,
    );
  });

  it('name what is wrong: foreign, newer, truncated, edited, damaged', async () => {
    expect((await errorOf('hello')).message).toMatch(/not a Buddyscope link/);
    expect((await errorOf('99.1.AAAA')).message).toMatch(/newer Buddyscope/);
    const good = await encodeState(STATE, 1);
    expect((await errorOf(good.slice(0, good.length - 9))).message).toMatch(/cut short/);
    const edited = await errorOf(good.slice(0, 10) + '%' + good.slice(11));
    expect(edited).toEqual({
      line: 1,
      col: 11,
      message: expect.stringMatching(/unexpected character "%"/),
    });
    const notState = `1.1.${toBase64url(await deflateRaw(new TextEncoder().encode('[1,2]')))}`;
    expect((await errorOf(notState)).message).toMatch(/damaged: its payload is not an object/);
    const badPos = `1.1.${toBase64url(await deflateRaw(new TextEncoder().encode('{"t":"","x":null,"p":[-4,0]}')))}`;
    expect((await errorOf(badPos)).message).toMatch(/position/);
  });

  it('refuse a payload that inflates past the limit (a deflate bomb)', async () => {
    const bomb = new Uint8Array(18 * 1024 * 1024).fill(32);
    const s = `1.1.${toBase64url(await deflateRaw(bomb))}`;
    expect((await errorOf(s)).message).toMatch(/more than 17 MiB/);
  });

  it('any string as a link: a state or a positioned error, never a throw', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.uint8Array({ maxLength: 200 }).map((b) => `1.1.${toBase64url(b)}`),
          fc
            .uint8Array({ maxLength: 200 })
            .map((b) => Array.from(b, (x) => String.fromCharCode(x)).join('')),
        ),
        async (s) => {
          const d = await decodeState(s);
          if (!d.ok) {
            expect(d.error.line).toBe(1);
            expect(d.error.col).toBeGreaterThanOrEqual(1);
            expect(d.error.col).toBeLessThanOrEqual(s.length + 1);
            expect(d.error.message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('read the parameters of a hash and build URLs', () => {
    expect(readLinkParams('#/embed?s=1.1.AB&start=3&end=9&loop=1')).toEqual({
      s: '1.1.AB',
      scenario: null,
      embed: { start: 3, end: 9, loop: true },
    });
    expect(readLinkParams('#/playground').s).toBeNull();
    const loc = { origin: 'https://x.org', pathname: '/buddyscope/', search: '' };
    expect(linkUrl(loc, '1.1.AB')).toBe('https://x.org/buddyscope/#/playground?s=1.1.AB');
    expect(linkUrl(loc, '1.1.AB', { start: 2, end: null, loop: true })).toBe(
      'https://x.org/buddyscope/#/embed?s=1.1.AB&start=2&loop=1',
    );
  });
});
