/*
 * compile-core.ts: what the worker does for one request, also callable in place (tests, Node,
 * browsers without module workers).
 */
import { compileWorkload } from '../workload/compiler';
import { parseWorkload } from '../workload/parser';
import type { CompileReply, CompileRequest } from './protocol';

export function answer(req: CompileRequest): CompileReply {
  const parsed = parseWorkload(req.text);
  if (!parsed.ok) return { id: req.id, ok: false, error: parsed.error };
  const opts = req.machine
    ? { positions: parsed.positions, machine: req.machine }
    : { positions: parsed.positions };
  const c = compileWorkload(parsed.workload, opts);
  if (!c.ok) return { id: req.id, ok: false, error: c.error };
  const p = c.program;
  // The compiler's own bytes, each in a buffer of its own: the worker transfers them as they are.
  return {
    id: req.id,
    ok: true,
    opCount: p.ops.length,
    config: p.config,
    ops: req.wantOps ? p.ops.bytes : null,
    lines: req.wantOps ? p.lines : null,
  };
}
