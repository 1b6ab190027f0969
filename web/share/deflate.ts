/*
 * deflate.ts: raw DEFLATE (RFC 1951) and gzip through the platform's CompressionStream and
 * DecompressionStream (Chromium, Firefox, Safari and Node 20 all have them), with a cap on what
 * decompression may produce: a few hundred bytes of hostile link or a small .gz can inflate to
 * gigabytes, and the tab must say no instead of running out of memory.
 */

export type InflateResult =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: 'corrupt' | 'too-large'; produced: number };

async function pump(
  input: Uint8Array,
  stream: GenericTransformStream,
  limit: number,
): Promise<InflateResult> {
  const writer = stream.writable.getWriter();
  const reader = (stream.readable as ReadableStream<Uint8Array>).getReader();
  // Writing is not awaited: the stream applies back-pressure and we read concurrently. Errors
  // surface on the read side; the write promises are caught so they never go unhandled.
  writer.write(new Uint8Array(input)).catch(() => {});
  writer.close().catch(() => {});
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > limit) {
        reader.cancel().catch(() => {});
        return { ok: false, reason: 'too-large', produced: total };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: 'corrupt', produced: total };
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return { ok: true, bytes: out };
}

/** Compress with raw DEFLATE (no zlib or gzip header: the link format says what it is). */
export async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  const r = await pump(bytes, new CompressionStream('deflate-raw'), Number.MAX_SAFE_INTEGER);
  if (!r.ok) throw new Error('compression failed');
  return r.bytes;
}

/** Inflate raw DEFLATE, producing at most `limit` bytes. */
export function inflateRaw(bytes: Uint8Array, limit: number): Promise<InflateResult> {
  return pump(bytes, new DecompressionStream('deflate-raw'), limit);
}

/** Inflate a gzip member (a .gz file), producing at most `limit` bytes. */
export function gunzip(bytes: Uint8Array, limit: number): Promise<InflateResult> {
  return pump(bytes, new DecompressionStream('gzip'), limit);
}

/** Whether bytes start with the gzip magic number (1f 8b). */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}
