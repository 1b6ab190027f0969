/*
 * session.ts: one simulated machine being explored: the core's Sim, the player over its ops and
 * the play clock. The UI holds a session and re-renders when its player moves; the state it draws
 * is read once per move (cached by the player's version).
 */
import type { SimEvent } from '../player/engine';
import { Clock } from '../player/clock';
import { Player } from '../player/player';
import { Staging } from '../player/staging';
import type { EventLogOptions } from '../views/EventLog';
import type { ModelState } from '../views/model';
import type { ProcFile } from '../core/sim';
import type { PercpuReader } from '../core/percpu-reader';
import type { CompiledProgram } from '../workload/compiler';
import type { Core } from '../core/module';
import type { Sim } from '../core/sim';
import { sameMachine } from '../core/machine-config';

/** A long program on its way into a session (Session.stage). */
export interface StagedLoad {
  readonly staging: Staging;
  /** Show the fully scanned program: a branch, an extension or a new machine, as load() says. */
  commit(): 'branched' | 'extended' | 'reset';
  /** Drop it; the session keeps what it showed. */
  cancel(): void;
}

export class Session {
  readonly player: Player;
  readonly clock: Clock;
  private sim: Sim;
  private cached: {
    key: string;
    engine: unknown;
    heap: ArrayBufferLike;
    state: ModelState;
  } | null = null;
  private procCache = new Map<string, string>();
  private unfollow: (() => void) | null = null;

  constructor(
    private readonly core: Core,
    private program: CompiledProgram,
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
  load(program: CompiledProgram): 'branched' | 'extended' | 'reset' {
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

  /**
   * Begin loading a long program beside the current run: it is scanned on an engine of its own,
   * a slice at a time (staging.advance), and shown only on commit(); cancel() (or never
   * committing) leaves the session exactly as it was.
   */
  stage(program: CompiledProgram): StagedLoad {
    const same = sameMachine(program.config, this.program.config);
    const engine = this.core.createSim(program.config);
    let staging: Staging;
    try {
      staging = new Staging(
        same ? this.player.stage(program.ops) : this.player.stageFresh(program.ops),
        engine,
      );
    } catch (e) {
      engine.dispose();
      throw e;
    }
    let open = true;
    return {
      staging,
      commit: () => {
        if (!open) throw new Error('session: this load was already committed or cancelled');
        open = false;
        if (!same) this.clock.pause();
        const how = this.player.adopt(staging.staged, engine);
        if (how === null) {
          // The reader changed the active branch meanwhile: load the program the plain way.
          engine.dispose();
          return this.load(program);
        }
        const old = this.sim;
        this.sim = engine;
        this.program = program;
        old.dispose();
        return how;
      },
      cancel: () => {
        if (!open) return;
        open = false;
        engine.dispose();
      },
    };
  }

  /**
   * The state at the cursor. Every event of one op shares the state after that op, so stepping
   * through an op's events keeps the same object, and views keyed on it (the memory map's pixels)
   * do not redraw.
   */
  state(): ModelState {
    const p = this.player;
    // The length too: growing the run replays past the cursor and back, which may grow the heap
    // and detach the frames view the old object holds.
    const key = `${p.activeBranch}:${p.position.op}:${p.length}`;
    const heap = this.sim.core.mod.HEAPU8.buffer;
    if (
      !this.cached ||
      this.cached.key !== key ||
      this.cached.engine !== p.sim ||
      this.cached.heap !== heap
    ) {
      this.cached = { key, engine: p.sim, heap, state: this.sim.state() };
      this.procCache.clear();
    }
    return this.cached.state;
  }

  /** What the event log shows beside the events: the op at the cursor, and a way to pick one of its events. */
  eventLogOptions(): EventLogOptions {
    const p = this.player;
    const opIndex = p.position.op - 1;
    return {
      op: p.ops.at(opIndex),
      opIndex,
      opError: opIndex >= 0 ? p.errorOf(opIndex) : 0,
      onSelect: (i) => p.seek({ op: p.position.op, event: i }),
    };
  }

  percpuReader(): PercpuReader {
    return this.sim.percpu();
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

  /**
   * Stay at the leader's op (the same workload on another kernel, compared side by side): moved
   * as the leader moves, before anything draws, so both machines are always shown at one op.
   */
  follow(leader: Player): void {
    this.unfollow?.();
    const sync = () => this.player.seekOp(Math.min(leader.position.op, this.player.length));
    sync();
    this.unfollow = leader.subscribe(sync);
  }

  dispose(): void {
    this.unfollow?.();
    this.unfollow = null;
    this.clock.pause();
    this.sim.dispose();
  }
}
