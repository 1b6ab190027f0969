/*
 * engine-wasm.ts: the lesson engine over the real wasm core (web/core's Core and Sim), for the
 * replay test and the lesson player.
 */
import type { MachineConfig } from '../core/machine-config';
import type { Core } from '../core/module';
import type { OpList } from '../core/ops';
import type { Sim } from '../core/sim';
import type { LessonEngine, LessonMachine } from './engine';
import type { Snapshot } from './snapshot';
import { snapshotFromSim } from './snapshot-from-sim';

class WasmMachine implements LessonMachine {
  constructor(private readonly sim: Sim) {}

  apply(ops: OpList, from: number, to: number): void {
    if (to > from) this.sim.applyOps(ops.slice(from, to));
  }

  clearEvents(): void {
    this.sim.clearEvents();
  }

  snapshot(): Snapshot {
    return snapshotFromSim(this.sim);
  }

  dispose(): void {
    this.sim.dispose();
  }
}

/** A lesson engine that boots machines on the loaded core. */
export function wasmLessonEngine(core: Core): LessonEngine {
  return {
    boot(config: MachineConfig): LessonMachine {
      return new WasmMachine(core.createSim(config));
    },
  };
}
