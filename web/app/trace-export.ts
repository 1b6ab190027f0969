/*
 * trace-export.ts: every event of a run as ftrace text (Sim.trace, the kernel's layout), made on a
 * machine of its own so the session's timeline is not disturbed. Bounded: trace text runs to
 * about 150 bytes an event, so a long run stops at a size limit and says so.
 */
import type { Core } from '../core/module';
import type { ExplicitMachine } from '../core/machine-config';
import { compileText } from './compile';

export const MAX_TRACE_CHARS = 64 * 1024 * 1024;

export type TraceExport =
  { ok: true; text: string; ops: number; truncated: boolean } | { ok: false; message: string };

export function traceOfRun(core: Core, text: string, machine: ExplicitMachine | null): TraceExport {
  const out = compileText(text, machine);
  if (!out.ok)
    return {
      ok: false,
      message: `Line ${out.error.line}, column ${out.error.col}: ${out.error.message}`,
    };
  const sim = core.createSim(out.program.config);
  try {
    const parts = [
      "# tracer: nop\n#\n# exported by Buddyscope: the simulation's events as ftrace text\n#\n",
    ];
    let size = parts[0]?.length ?? 0;
    let i = 0;
    for (; i < out.program.ops.length; i++) {
      sim.clearEvents();
      sim.applyAt(out.program.ops, i);
      const t = sim.trace();
      size += t.length;
      if (size > MAX_TRACE_CHARS)
        return { ok: true, text: parts.join(''), ops: i, truncated: true };
      parts.push(t);
    }
    return { ok: true, text: parts.join(''), ops: i, truncated: false };
  } finally {
    sim.dispose();
  }
}
