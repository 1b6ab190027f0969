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
/** Bytes of a checkpoint copied between two looks at the clock (a few ms, page faults included). */
const PIECE = 2 << 20;

export class Staging {
  /** Ops applied on the engine: it holds the state after ops [0, at). */
  private at = 0;
  /** Where the engine starts: the checkpoint nearest the fork point (restored in the first slice). */
  private start: [number, Uint8Array] | null = null;
  /** A checkpoint being copied in pieces: the state before op `op`, `done` bytes of it so far. */
  private copying: { op: number; bytes: Uint8Array; done: number } | null = null;

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
      if (!this.checkpoint(deadline, now)) return false;
      const end = Math.min(this.total, run.length + CHUNK);
      // The scan stops before the next checkpoint, which checkpoint() then copies in pieces.
      const cp = run.checkpoints.nextWanted(run.length + 1, end);
      run.scan(engine, cp);
      this.at = run.length;
      if (now() >= deadline) break;
    }
    return this.complete;
  }

  /**
   * Take the checkpoint the run wants before its next op, a piece at a time (a whole arena is 16
   * to 60 MB: one copy would be a long task), as Run.scan would take it at once; false when the
   * time ran out first. Engines that cannot copy in pieces leave it to Run.scan.
   */
  private checkpoint(deadline: number, now: () => number): boolean {
    const { run } = this.staged;
    const engine = this.engine;
    const op = run.length;
    if (!engine.snapshotPart || !engine.snapshotBytes || !run.checkpoints.wants(op)) return true;
    const c = (this.copying ??= { op, bytes: new Uint8Array(engine.snapshotBytes()), done: 0 });
    while (c.done < c.bytes.length) {
      const to = Math.min(c.bytes.length, c.done + PIECE);
      engine.snapshotPart(c.bytes, c.done, to);
      c.done = to;
      if (c.done < c.bytes.length && now() >= deadline) return false;
    }
    if (op === 0) run.checkpoints.plan(run.ops.length, c.bytes.length);
    run.checkpoints.put(op, c.bytes);
    this.copying = null;
    return true;
  }
}
