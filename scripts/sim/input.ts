/*
 * input.ts: reading the runner's input files: plain or gzip text, or stdin for "-". A missing or
 * unreadable file is a user error with the file's name, not a stack trace.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export class InputError extends Error {}

/** The text of a file (gzip recognised by its magic bytes, whatever the name says). */
export function readText(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path === '-' ? 0 : path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : String(code ?? e);
    throw new InputError(`cannot read ${path}: ${why}`);
  }
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch {
      throw new InputError(`${path}: not valid gzip data`);
    }
  }
  const text = bytes.toString('utf8');
  if (text.includes('\u0000')) throw new InputError(`${path}: binary data, expected text`);
  return text;
}
