/*
 * file.ts: the dropped-file fuzzer. Random bytes, text with bytes that are not UTF-8 or not text,
 * and .gz files (whole, cut short or with a bit flipped) go through bytesToText with a random
 * limit; it must refuse with a byte offset, and the text it accepts must go through every
 * importer without a throw.
 */
import fc from 'fast-check';
import { bytesToText } from '../../web/files/read-text';
import { parseWorkload } from '../../web/workload/parser';
import { importTrace } from '../../web/workload/trace-import';
import { parseZoneinfo } from '../../web/workload/zoneinfo-machine';
import type { FuzzTarget, Rejection } from './harness';
import { traceText } from './trace';
import { workloadText } from './workload';
import { zoneinfoText } from './zoneinfo';

export interface FileInput {
  bytes: Uint8Array;
  gzip: null | { cut: number; flip: number }; // cut: fraction kept (1 = whole); flip: bit index or -1
  limit: number;
}

const text = fc.oneof(workloadText, traceText, zoneinfoText, fc.string({ unit: 'binary' }));
const bytes = fc.oneof(
  { weight: 3, arbitrary: text.map((t) => new TextEncoder().encode(t)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        text,
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(255)), {
          maxLength: 3,
        }),
      )
      .map(([t, pokes]) => {
        const b = new TextEncoder().encode(t);
        for (const [at, v] of pokes) if (b.length) b[Math.floor(at * (b.length - 1))] = v;
        return b;
      }),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      new Uint8Array([0x1f, 0x8b]),
      new Uint8Array([0xef, 0xbb, 0xbf]),
      new Uint8Array([0xed, 0xa0, 0x80]),
      new Uint8Array([0xf4, 0x90, 0x80, 0x80]),
      new Uint8Array([0xc0, 0xaf]),
    ),
  },
);

export const fileInput: fc.Arbitrary<FileInput> = fc.record({
  bytes,
  gzip: fc.option(
    fc.record({
      cut: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
      flip: fc.integer({ min: -1, max: 4000 }),
    }),
    { freq: 3 },
  ),
  limit: fc.oneof(
    { weight: 4, arbitrary: fc.constant(1 << 20) },
    { weight: 1, arbitrary: fc.nat(300) },
  ),
});

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The file's bytes: the input's, or their .gz cut short and with a bit flipped. */
export async function fileBytes(input: FileInput): Promise<Uint8Array> {
  if (!input.gzip) return input.bytes;
  const packed = await gzip(input.bytes);
  const out = packed.slice(0, Math.max(2, Math.floor(input.gzip.cut * packed.length)));
  const bit = input.gzip.flip;
  if (bit >= 16 && bit < out.length * 8) out[bit >> 3] = (out[bit >> 3] ?? 0) ^ (1 << (bit & 7));
  return out;
}

export const fileTarget: FuzzTarget<FileInput> = {
  kind: 'file',
  what: 'binary and odd files through the text reader and every importer',
  arbitrary: fileInput,
  async run(input): Promise<Rejection | null> {
    const r = await bytesToText(await fileBytes(input), input.limit);
    if (!r.ok) return { offset: r.offset, reason: r.message };
    parseWorkload(r.text);
    parseZoneinfo(r.text);
    importTrace(r.text);
    return null;
  },
};
