/*
 * protocol.ts: messages between the page and the compile worker. The worker parses and compiles
 * workload text off the main thread (a `repeat 2000000` takes a second or more to expand), and
 * sends back either the positioned error or the program as the compiler packed it (PackedProgram's
 * fields), transferred, not copied.
 */
import type { ExplicitMachine, MachineConfig } from '../core/machine-config';
import type { WorkloadError } from '../workload/errors';

export interface CompileRequest {
  id: number;
  text: string;
  machine: ExplicitMachine | null;
  wantOps: boolean; // false: only check (the linter)
}

export type CompileReply =
  | { id: number; ok: false; error: WorkloadError }
  | {
      id: number;
      ok: true;
      opCount: number;
      config: MachineConfig;
      ops: Uint8Array | null; // the bytes of CompiledProgram.ops
      lines: Uint32Array | null;
    };
