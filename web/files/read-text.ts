/*
 * read-text.ts: the bytes of a file someone dropped on the page, as text we are willing to parse.
 * A .gz (by its magic number, whatever its name) is inflated first, with a cap; anything that is
 * not UTF-8 text, or holds NUL or other control bytes that no trace, zoneinfo or workload
 * contains, is refused with the offset of the first bad byte, before a parser sees it.
 */
import { gunzip, isGzip } from '../share/deflate';
import { formatCount } from '../core/count';

/** Largest text accepted: the workload limit (16 MiB) and room for real traces up to 64 MiB. */
export const MAX_TEXT_BYTES = 64 * 1024 * 1024;

export type TextResult =
  { ok: true; text: string; gzipped: boolean } | { ok: false; message: string };

function mib(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Offset of the first byte that no text file holds (NUL, or C0 controls other than \t \n \r \f), or -1. */
export function firstBinaryByte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) return i;
  }
  return -1;
}

/** Decode bytes (maybe gzipped) as text, or say why they are not text. */
export async function bytesToText(input: Uint8Array, limit = MAX_TEXT_BYTES): Promise<TextResult> {
  let bytes = input;
  let gzipped = false;
  if (isGzip(bytes)) {
    const r = await gunzip(bytes, limit);
    if (!r.ok) {
      return {
        ok: false,
        message:
          r.reason === 'too-large'
            ? `the .gz file unpacks to more than ${mib(limit)}: above the limit`
            : `the .gz file is cut short or damaged (it stops after ${formatCount(r.produced)} bytes): copy it again`,
      };
    }
    bytes = r.bytes;
    gzipped = true;
  }
  if (bytes.length > limit)
    return {
      ok: false,
      message: `the file is ${mib(bytes.length)}: above the limit of ${mib(limit)}`,
    };
  const bad = firstBinaryByte(bytes);
  if (bad >= 0) {
    const hex = (bytes[bad] ?? 0).toString(16).padStart(2, '0');
    return {
      ok: false,
      message: `this is not a text file: byte ${formatCount(bad)} is 0x${hex}. Expected the text of a trace, a zoneinfo or a workload (plain or .gz)`,
    };
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), gzipped };
  } catch {
    return { ok: false, message: 'this is not a text file: it is not valid UTF-8' };
  }
}

/** A File's text (see bytesToText); the size is checked before anything is read. */
export async function fileToText(file: Blob, limit = MAX_TEXT_BYTES): Promise<TextResult> {
  if (file.size > limit)
    return {
      ok: false,
      message: `the file is ${mib(file.size)}: above the limit of ${mib(limit)}`,
    };
  return bytesToText(new Uint8Array(await file.arrayBuffer()), limit);
}
