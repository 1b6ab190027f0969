/*
 * compile.ts: workload text to what a session runs: the compiled program (the machine config, the
 * ops as the packed records the player branches on and the core applies, the source line of each).
 */
import type { ExplicitMachine } from '../core/machine-config';
import { compileWorkload, type CompiledProgram } from '../workload/compiler';
import type { WorkloadError } from '../workload/errors';
import { parseWorkload } from '../workload/parser';

export type CompileOutcome =
  { ok: true; program: CompiledProgram } | { ok: false; error: WorkloadError };

/** Compile text; `machine` (one read from a real /proc/zoneinfo) replaces its machine line. */
export function compileText(text: string, machine?: ExplicitMachine | null): CompileOutcome {
  const parsed = parseWorkload(text);
  if (!parsed.ok) return parsed;
  const c = compileWorkload(
    parsed.workload,
    machine ? { positions: parsed.positions, machine } : { positions: parsed.positions },
  );
  return c;
}
