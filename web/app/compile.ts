/*
 * compile.ts: workload text to what a session runs: the machine config and the ops as objects
 * (the player compares and branches op lists), with the source line of each op.
 */
import type { ExplicitMachine, MachineConfig } from '../core/machine-config';
import { readOp, type SimOp } from '../core/ops';
import { compileWorkload } from '../workload/compiler';
import type { WorkloadError } from '../workload/errors';
import { parseWorkload } from '../workload/parser';

export interface Program {
  config: MachineConfig;
  ops: SimOp[];
  lines: Uint32Array; // source line of each op
}

export type CompileOutcome = { ok: true; program: Program } | { ok: false; error: WorkloadError };

/** Compile text; `machine` (one read from a real /proc/zoneinfo) replaces its machine line. */
export function compileText(text: string, machine?: ExplicitMachine | null): CompileOutcome {
  const parsed = parseWorkload(text);
  if (!parsed.ok) return parsed;
  const c = compileWorkload(
    parsed.workload,
    machine ? { positions: parsed.positions, machine } : { positions: parsed.positions },
  );
  if (!c.ok) return c;
  const ops: SimOp[] = new Array<SimOp>(c.program.opCount);
  for (let i = 0; i < c.program.opCount; i++) ops[i] = readOp(c.program.ops, i);
  return { ok: true, program: { config: c.program.config, ops, lines: c.program.opLines } };
}

/** Whether two configs build the same machine (then a new op list is a branch, not a new run). */
export function sameMachine(a: MachineConfig, b: MachineConfig): boolean {
  const key = (c: MachineConfig) =>
    JSON.stringify(
      { ...c, seed: c.seed === undefined ? null : String(c.seed) },
      (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v),
    );
  return key(a) === key(b);
}
