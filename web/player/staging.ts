/*
 * staging.ts: scan a staged run (Player.stage) on an engine of its own, a few milliseconds at a
 * time, so loading a long workload never holds the main thread for long: first bring the engine
 * to the fork point (restore the nearest checkpoint, replay the rest), then scan the new ops,
 * which records their event counts, markers and checkpoints. The player and the engine the views
 * read are untouched until Player.adopt, so stopping midway leaves them as they were.
 */
import type { Engine } from './engine';
import type { StagedRun } from './player';

/** Ops scanned between two looks at the clock (well under a millisecond of work). */
const CHUNK = 256;

export class Staging {
  /** Ops applied on the engine: it holds the state after ops [0, at). */
  private at = 0;
  /** Where the engine starts: the checkpoint nearest the fork point (restored in the first slice). */
  private start: [number, Uint8Array] | null = null;

  constructor(
    readonly staged: StagedRun,
    readonly engine: Engine,
  ) {
    const { run, forkAt } = staged;
    if (forkAt > 0) {
      this.start = run.checkpoints.nearest(forkAt);
      if (!this.start) throw new Error(`staging: no checkpoint at or before op ${forkAt}`);
    }
  }

  /** Ops in the run. */
  get total(): number {
    return this.staged.run.ops.length;
  }

  /** Ops applied so far (the replay to the fork point, then the scan). */
  get done(): number {
    return Math.max(this.at, this.staged.run.length);
  }

  get complete(): boolean {
    return this.at >= this.staged.forkAt && this.staged.run.length === this.total;
  }

  /** Work until `deadline` (a performance.now() time) or the end; true when the run is scanned. */
  advance(deadline: number, now: () => number = () => performance.now()): boolean {
    const { run, forkAt } = this.staged;
    const engine = this.engine;
    if (this.start) {
      engine.restore(this.start[1]);
      this.at = this.start[0];
      this.start = null;
      if (now() >= deadline) return this.complete;
    }
    while (this.at < forkAt) {
      const to = Math.min(forkAt, this.at + CHUNK * 16); // replaying reads nothing back: faster
      if (engine.replay) engine.replay(run.ops, this.at, to);
      else
        for (let i = this.at; i < to; i++) {
          engine.applyAt(run.ops, i);
          engine.clearEvents();
        }
      this.at = to;
      if (now() >= deadline) return this.complete;
    }
    engine.clearEvents();
    while (run.length < this.total) {
      const end = Math.min(this.total, run.length + CHUNK);
      // A checkpoint copies the whole arena (tens of ms on a big machine): it opens the next
      // slice rather than stretching this one past its time.
      const cp = run.checkpoints.nextWanted(run.length + 1, end);
      run.scan(engine, cp);
      this.at = run.length;
      if (cp < end || now() >= deadline) break;
    }
    return this.complete;
  }
}
