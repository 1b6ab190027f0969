/*
 * program.ts: what a compiled workload is (compiler.ts makes one), apart from the compiler, so
 * what only runs a program (the home page's build-time miniature) does not pull the compiler in.
 */
import type { MachineConfig } from '../core/machine-config';
import { OpList } from '../core/ops';

/** A compiled workload: what the player, the lessons, the command line and the core all take. */
export interface CompiledProgram {
  config: MachineConfig;
  ops: OpList; // packed struct sim_op records, as sim_apply reads them
  lines: Uint32Array; // source line of each op (0 when the tree has no positions)
}

/** A CompiledProgram as raw bytes, as it crosses from the compile worker (no classes there). */
export interface PackedProgram {
  config: MachineConfig;
  ops: Uint8Array; // the bytes of CompiledProgram.ops
  lines: Uint32Array;
}

/** The program whose ops are these bytes (no copy). */
export function unpackProgram(p: PackedProgram): CompiledProgram {
  return { config: p.config, ops: new OpList(p.ops), lines: p.lines };
}
