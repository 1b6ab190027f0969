/*
 * compile-worker.ts: the worker's entry: answer each request, transferring the op buffers.
 */
import { answer } from './compile-core';
import type { CompileRequest } from './protocol';

self.onmessage = (e: MessageEvent<CompileRequest>) => {
  let reply;
  try {
    reply = answer(e.data);
  } catch (err) {
    // The parser and compiler return errors as values; this is a bug, reported as one.
    reply = {
      id: e.data.id,
      ok: false as const,
      error: { line: 1, col: 1, message: `internal error: ${String(err)}` },
    };
  }
  const transfer: Transferable[] = [];
  if (reply.ok && reply.ops && reply.lines) transfer.push(reply.ops.buffer, reply.lines.buffer);
  (self as unknown as Worker).postMessage(reply, transfer);
};
