/*
 * checkpoints.ts: arena snapshots along a timeline, within a memory budget. Any op index is then
 * reachable by restoring the nearest checkpoint at or before it and replaying at most `every` ops
 * (the core is deterministic, so replay reproduces state and events byte for byte).
 *
 * The spacing adapts: start dense (cheap seeks on short runs); when the budget is full, drop every
 * other checkpoint and double the spacing, so a run of any length keeps between budget/2 and
 * budget bytes and seeks stay O(every) replayed ops.
 */

/** How many ops apart checkpoints start out. */
export const DEFAULT_EVERY = 64;
/** Bytes of snapshots one timeline may hold (all branches share one store per timeline). */
export const DEFAULT_BUDGET = 192 * 1024 * 1024;
/** The share of the budget a planned run fills (the rest is room for the end and for forks). */
const PLAN_SHARE = 0.9;

export class CheckpointStore {
  private every: number;
  /** op index -> snapshot of the state before that op (after ops [0, op)). */
  private readonly snaps = new Map<number, Uint8Array>();
  private bytes = 0;

  constructor(
    private budget = DEFAULT_BUDGET,
    every = DEFAULT_EVERY,
  ) {
    this.every = Math.max(1, every);
  }

  /** Current spacing in ops. */
  get spacing(): number {
    return this.every;
  }

  /** Snapshots held and their bytes (for the memory readout and tests). */
  get size(): { count: number; bytes: number } {
    return { count: this.snaps.size, bytes: this.bytes };
  }

  /** Change the budget (an inactive branch shrinks, the active one grows back); thins as needed. */
  setBudget(bytes: number): void {
    this.budget = bytes;
    while (this.bytes > this.budget && this.thin()) {
      /* halve until within budget */
    }
  }

  /**
   * Space checkpoints for a run of `ops` ops whose snapshots are `bytes` each, so a long run on a
   * big machine does not copy gigabytes of snapshots only to thin them away.
   */
  plan(ops: number, bytes: number): void {
    const fit = Math.max(1, Math.floor((this.budget * PLAN_SHARE) / Math.max(1, bytes)));
    const want = Math.ceil(ops / fit);
    // The spacing that fills the share, not the next power of two above it: on the 1M-frame
    // machine (20 MB snapshots, 400k ops) that is 9 checkpoints 44k ops apart instead of 7 at
    // 65k, and the longest replay of a seek shrinks by a third.
    if (this.every < want) this.every = want;
  }

  /** Whether a checkpoint is wanted before op index `op`. */
  wants(op: number): boolean {
    return op % this.every === 0 && !this.snaps.has(op);
  }

  /** The first op index in [from, limit) that wants a checkpoint, or limit when none does. */
  nextWanted(from: number, limit: number): number {
    for (let op = Math.ceil(from / this.every) * this.every; op < limit; op += this.every) {
      if (!this.snaps.has(op)) return op;
    }
    return limit;
  }

  /** Keep the state before op `op`. Op 0 (the booted machine) is never dropped. */
  put(op: number, snapshot: Uint8Array): void {
    const old = this.snaps.get(op);
    if (old) this.bytes -= old.byteLength;
    this.snaps.set(op, snapshot);
    this.bytes += snapshot.byteLength;
    while (this.bytes > this.budget && this.thin()) {
      /* thin() halves the store each time */
    }
  }

  /** The latest checkpoint at or before op, as [op, snapshot]. */
  nearest(op: number): [number, Uint8Array] | null {
    let best = -1;
    for (const k of this.snaps.keys()) if (k <= op && k > best) best = k;
    const snap = best >= 0 ? this.snaps.get(best) : undefined;
    return snap ? [best, snap] : null;
  }

  /** Forget checkpoints after op (a branch replaced that future). */
  truncateAfter(op: number): void {
    for (const [k, v] of this.snaps) {
      if (k > op) {
        this.snaps.delete(k);
        this.bytes -= v.byteLength;
      }
    }
  }

  /** A store holding the checkpoints at or before op (snapshots are shared: they never change). */
  forkAt(op: number): CheckpointStore {
    const out = new CheckpointStore(this.budget, this.every);
    for (const [k, v] of this.snaps) if (k <= op) out.put(k, v);
    return out;
  }

  /** Double the spacing and drop checkpoints off the new grid; false when nothing can go. */
  private thin(): boolean {
    if (this.snaps.size <= 1) return false;
    this.every *= 2;
    for (const [k, v] of this.snaps) {
      if (k !== 0 && k % this.every !== 0) {
        this.snaps.delete(k);
        this.bytes -= v.byteLength;
      }
    }
    return true;
  }
}
