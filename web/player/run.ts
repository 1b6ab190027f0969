/*
 * run.ts: one branch of history: its ops, how many events each produced, its markers and its
 * checkpoints. A run is filled by scanning (applying every op once, from the front); after that
 * any point of it is a restore plus a short deterministic replay.
 */
import type { OpList } from '../core/ops';
import { CheckpointStore } from './checkpoints';
import type { Engine } from './engine';
import { MarkerSet, markerOf } from './markers';
import type { EventIndex } from './position';

export class Run implements EventIndex {
  /** starts[i] = global index of op i's first event; starts[length] = total. */
  private starts: Float64Array;
  /** enum sim_err each op returned (0 = ok), for marking rejected ops. */
  private errs: Uint8Array;
  private scanned = 0;

  constructor(
    readonly ops: OpList,
    readonly checkpoints: CheckpointStore,
    readonly markers: MarkerSet = new MarkerSet(),
  ) {
    this.starts = new Float64Array(ops.length + 1);
    this.errs = new Uint8Array(ops.length);
  }

  /** Ops scanned (their event counts known). */
  get length(): number {
    return this.scanned;
  }

  start(i: number): number {
    return this.starts[Math.max(0, Math.min(i, this.scanned))] ?? 0;
  }

  /** Every event of every scanned op. */
  get totalEvents(): number {
    return this.start(this.scanned);
  }

  /** The enum sim_err op i returned. */
  errorOf(i: number): number {
    return this.errs[i] ?? 0;
  }

  /** A run over `ops` that shares this run's first `n` ops (already scanned). */
  fork(ops: OpList, n: number): Run {
    const keep = Math.min(n, this.scanned);
    const r = new Run(ops, this.checkpoints.forkAt(keep), this.markers.prefix(keep));
    r.starts.set(this.starts.subarray(0, keep + 1));
    r.errs.set(this.errs.subarray(0, keep));
    r.scanned = keep;
    return r;
  }

  /**
   * Apply the unscanned ops to an engine that holds the state after op `scanned`-1, recording
   * event counts, markers and checkpoints. Leaves the engine after the last op, its events
   * cleared. `until` bounds the work (for scanning in slices).
   */
  scan(engine: Engine, until = this.ops.length): void {
    const end = Math.min(until, this.ops.length);
    let g = this.start(this.scanned);
    for (let i = this.scanned; i < end; i++) {
      if (this.checkpoints.wants(i)) {
        const snap = engine.snapshot();
        if (i === 0) this.checkpoints.plan(this.ops.length, snap.byteLength);
        this.checkpoints.put(i, snap);
      }
      engine.clearEvents();
      this.errs[i] = engine.applyAt(this.ops, i);
      const n = engine.eventCount();
      for (let k = 0; k < n; k++) {
        const m = markerOf(engine.eventKind(k));
        if (m) this.markers.add(g + k, i, m);
      }
      g += n;
      this.starts[i + 1] = g;
      this.scanned = i + 1;
    }
    engine.clearEvents();
    if (this.scanned === this.ops.length && this.checkpoints.wants(this.scanned)) {
      this.checkpoints.put(this.scanned, engine.snapshot());
    }
  }
}
