/*
 * engine.ts: what running a lesson needs from the simulation, and nothing more: boot a machine
 * from a compiled workload's config, apply a range of its packed ops, and read the state as a
 * Snapshot. The replay test and the lesson player use the wasm binding through this contract
 * (engine-wasm.ts); keeping it narrow keeps the runner pure TypeScript.
 */
import type { MachineConfig } from '../core/machine-config';
import type { OpList } from '../core/ops';
import type { Snapshot } from './snapshot';

/** One booted machine. */
export interface LessonMachine {
  /** Apply ops [from, to) of `ops`. */
  apply(ops: OpList, from: number, to: number): void;
  /** Forget buffered events (the snapshot's `events` are those since the last clear). */
  clearEvents(): void;
  /** The state and the events since the last clear. */
  snapshot(): Snapshot;
  /** Free the machine. */
  dispose(): void;
}

/** Boots machines. */
export interface LessonEngine {
  boot(config: MachineConfig): LessonMachine;
}
