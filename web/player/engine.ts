/*
 * engine.ts: what the player needs from a simulation, and nothing more. The player drives one
 * engine (the wasm Sim of web/core in the app and in tests); keeping the contract this narrow lets the
 * timeline stay pure TypeScript: it never reads state, it only applies ops, collects the events
 * each op produced, and copies the arena in and out for checkpoints.
 */
import type { SimEvent } from '../core/events';
import type { OpList } from '../core/ops';

export type { SimEvent };

/** A simulation the player can drive. */
export interface Engine {
  /** Apply op i of ops; returns enum sim_err (0 = SIM_OK). Events are appended to the buffer. */
  applyAt(ops: OpList, i: number): number;
  /** How many events sit in the buffer (appended since the last clear). */
  eventCount(): number;
  /** The kind (enum ev_kind) of buffered event i, without decoding the whole record. */
  eventKind(i: number): number;
  /** Decode buffered events [from, to). */
  events(from?: number, to?: number): SimEvent[];
  /** Forget the buffered events (their seq numbers keep counting). */
  clearEvents(): void;
  /**
   * Optional fast path: apply ops[from, to) with the events of each cleared, as applyAt() then
   * clearEvents() in a loop would. The wasm Sim does it in a few calls into the core.
   */
  replay?(ops: OpList, from: number, to: number): void;
  /** A copy of the whole arena: the state and nothing else. */
  snapshot(): Uint8Array;
  /**
   * Optional, for a snapshot taken in pieces while the engine stands still (a long load copies a
   * big arena across several slices): how many bytes snapshot() returns, and bytes [from, to)
   * of it copied into dst at the same offsets.
   */
  snapshotBytes?(): number;
  snapshotPart?(dst: Uint8Array, from: number, to: number): void;
  /** Overwrite the arena with a snapshot taken from this engine's machine. */
  restore(snapshot: Uint8Array): void;
}
