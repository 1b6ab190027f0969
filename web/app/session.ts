/*
 * session.ts: one simulated machine being explored: the core's Sim, the player over its ops and
 * the play clock. The UI holds a session and re-renders when its player moves; the state it draws
 * is read once per move (cached by the player's version).
 */
import type { SimEvent } from '../player/engine';
import { Clock } from '../player/clock';
import { Player } from '../player/player';
import type { ModelState } from '../views/model';
import type { ProcFile } from '../core/sim';
import { sameMachine, type Program } from './compile';
import type { Core } from '../core/module';
import type { Sim } from '../core/sim';

export class Session {
  readonly player: Player;
  readonly clock: Clock;
  private sim: Sim;
  private cached: { version: number; state: ModelState } | null = null;
  private procCache = new Map<string, string>();

  constructor(
    private readonly core: Core,
    private program: Program,
  ) {
    this.sim = core.createSim(program.config);
    this.player = new Player(this.sim, program.ops);
    this.clock = new Clock(this.player);
  }

  get config() {
    return this.program.config;
  }

  get lines(): Uint32Array {
    return this.program.lines;
  }

  /** Run a new program: a branch when the machine is the same, a fresh machine otherwise. */
  load(program: Program): 'branched' | 'extended' | 'reset' {
    const same = sameMachine(program.config, this.program.config);
    this.program = program;
    if (same) return this.player.setOps(program.ops) ? 'branched' : 'extended';
    this.clock.pause();
    const old = this.sim;
    this.sim = this.core.createSim(program.config);
    this.player.reset(this.sim, program.ops);
    old.dispose();
    return 'reset';
  }

  /** The state at the cursor. */
  state(): ModelState {
    const v = this.player.version;
    if (!this.cached || this.cached.version !== v) {
      this.cached = { version: v, state: this.sim.state() };
      this.procCache.clear();
    }
    return this.cached.state;
  }

  proc(file: ProcFile): string {
    this.state(); // drops the cache when the cursor moved
    let t = this.procCache.get(file);
    if (t === undefined) {
      t = this.sim.proc(file);
      this.procCache.set(file, t);
    }
    return t;
  }

  get currentEvent(): SimEvent | null {
    return this.player.currentEvent;
  }

  dispose(): void {
    this.clock.pause();
    this.sim.dispose();
  }
}
