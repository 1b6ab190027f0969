/*
 * read-text.ts: the bytes of a file someone dropped on the page, as text we are willing to parse.
 * A .gz (by its magic number, whatever its name) is inflated first, with a cap; anything that is
 * not UTF-8 text, or holds NUL or other control bytes that no trace, zoneinfo or workload
 * contains, is refused with the offset of the first bad byte, before a parser sees it. Every
 * refusal carries a byte offset: the first bad byte, or where a limit or a damaged .gz stopped the
 * reading (counted in the unpacked text for a .gz).
 */
import { gunzip, isGzip } from '../share/deflate';
import { formatCount } from '../core/count';

/** Largest text accepted: the workload limit (16 MiB) and room for real traces up to 64 MiB. */
export const MAX_TEXT_BYTES = 64 * 1024 * 1024;

export type TextResult =
  { ok: true; text: string; gzipped: boolean } | { ok: false; message: string; offset: number };

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

/**
 * Offset of the first byte that does not belong to a well-formed UTF-8 sequence (an unexpected
 * continuation byte, a sequence cut short, an overlong form, a surrogate, above U+10FFFF), or -1.
 */
export function firstNonUtf8Byte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      i++;
      continue;
    }
    // The sequence's length and the range its second byte must fall in (RFC 3629's table).
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) n = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      n = 3;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 4;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k < n; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n;
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
        offset: r.reason === 'too-large' ? limit : r.produced,
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
      offset: limit,
      message: `the file is ${mib(bytes.length)}: above the limit of ${mib(limit)}`,
    };
  const bad = firstBinaryByte(bytes);
  if (bad >= 0) {
    const hex = (bytes[bad] ?? 0).toString(16).padStart(2, '0');
    return {
      ok: false,
      offset: bad,
      message: `this is not a text file: byte ${formatCount(bad)} is 0x${hex}. Expected the text of a trace, a zoneinfo or a workload (plain or .gz)`,
    };
  }
  const notUtf8 = firstNonUtf8Byte(bytes);
  if (notUtf8 >= 0) {
    const hex = (bytes[notUtf8] ?? 0).toString(16).padStart(2, '0');
    return {
      ok: false,
      offset: notUtf8,
      message: `this is not a text file: it is not valid UTF-8 from byte ${formatCount(notUtf8)} (0x${hex})`,
    };
  }
  return { ok: true, text: new TextDecoder('utf-8').decode(bytes), gzipped };
}

/** A File's text (see bytesToText); the size is checked before anything is read. */
export async function fileToText(file: Blob, limit = MAX_TEXT_BYTES): Promise<TextResult> {
  if (file.size > limit)
    return {
      ok: false,
      offset: limit,
      message: `the file is ${mib(file.size)}: above the limit of ${mib(limit)}`,
    };
  return bytesToText(new Uint8Array(await file.arrayBuffer()), limit);
}
