/*
 * player.ts: the timeline over a workload's compiled ops. It owns the cursor, the branches and
 * the engine whose state is the state at the cursor; it knows nothing of screens. Views read the
 * engine's state after each move and the events of the op at the cursor.
 *
 * Moving the cursor: restore the nearest checkpoint at or before the target (unless the engine
 * is already closer, going forward), replay up to the op before the target with events cleared as
 * they come, then apply the target op alone so its events are exactly the buffer. Everything is
 * deterministic, so the events seen this way equal the ones the scan counted.
 *
 * Branches: giving the player a changed op list forks a new branch at the first difference; the
 * old branch and its future stay in the branch list and can be switched back to.
 */
import { firstDifference, type OpList } from '../core/ops';
import { CheckpointStore, DEFAULT_BUDGET, DEFAULT_EVERY } from './checkpoints';
import type { Engine, SimEvent } from './engine';
import type { Marker, MarkerKind } from './markers';
import {
  atEvent,
  atOp,
  eventsOf,
  globalEvent,
  nextEvent,
  ORIGIN,
  prevEvent,
  samePosition,
  type Position,
} from './position';
import { Run } from './run';

export interface PlayerOptions {
  checkpointEvery?: number;
  checkpointBudget?: number; // bytes of snapshots for the active branch
}

export interface BranchInfo {
  id: number;
  parent: number | null; // branch it forked from
  forkAt: number; // ops shared with the parent
  ops: number; // ops in this branch
  label: string;
}

interface Branch {
  info: BranchInfo;
  run: Run;
  cursor: Position; // where the reader left this branch
}

type Listener = () => void;

/** A run made by Player.stage or stageFresh, scanned on another engine before Player.adopt. */
export interface StagedRun {
  readonly run: Run;
  /** The active run it grows from (null: a new machine, adopted as a reset). */
  readonly base: Run | null;
  /** Ops already scanned, shared with base: the scan's engine must start at the state there. */
  readonly forkAt: number;
}

/** Inactive branches keep this share of the budget (seeks there replay more, but still work). */
const INACTIVE_SHARE = 8;

/**
 * Bytes of snapshot a restore copies in the time the core replays one op. Measured in V8: a 20 MB
 * restore costs ~2 ms, as much as replaying ~20k ops on bench1m (~1 KB an op) or ~6k on server2
 * (~3.5 KB); the low end keeps moving forward from the engine's state only when it is clearly
 * cheaper. On server2 (63 MB snapshots) a step forward across a checkpoint replays a few hundred
 * ops instead of copying the arena.
 */
const RESTORE_BYTES_PER_OP = 1024;

export class Player {
  private engine: Engine;
  private readonly options: Required<PlayerOptions>;
  private branches: Branch[] = [];
  private active!: Branch;
  private nextId = 1;
  private cursor: Position = ORIGIN;
  /** ops applied in the engine's state (for the active branch) */
  private engineAt = 0;
  private opEvents: SimEvent[] = [];
  private listeners = new Set<Listener>();
  private revision = 0;

  constructor(engine: Engine, ops: OpList, options: PlayerOptions = {}) {
    this.engine = engine;
    this.options = {
      checkpointEvery: options.checkpointEvery ?? DEFAULT_EVERY,
      checkpointBudget: options.checkpointBudget ?? DEFAULT_BUDGET,
    };
    this.reset(engine, ops);
  }

  /** Start over on a new engine (a new machine or profile): one root branch, cursor at the start. */
  reset(engine: Engine, ops: OpList): void {
    const run = this.freshRun(ops);
    run.scan(engine);
    this.install(engine, run);
  }

  // ---- staging: a long run scanned elsewhere, then adopted ----------------------------------

  /**
   * A run for `ops` on this same machine, sharing the active branch up to the first difference,
   * to be scanned on another engine of this machine (see Staging) and handed back to adopt().
   * The player is untouched until then, so a cancelled load leaves the previous run in place.
   */
  stage(ops: OpList): StagedRun {
    const cur = this.active.run;
    const d = firstDifference(cur.ops, ops);
    const run = cur.fork(ops, d);
    return { run, base: cur, forkAt: run.length };
  }

  /** A run for `ops` on a new machine (adopted as a reset). */
  stageFresh(ops: OpList): StagedRun {
    return { run: this.freshRun(ops), base: null, forkAt: 0 };
  }

  /**
   * Take a staged run, fully scanned on `engine`, which holds the state after its last op and
   * becomes the player's engine (the caller disposes the old one). A run on the same machine
   * extends the active branch or forks a new one, as setOps would; a fresh run starts over.
   * Returns null when the active branch changed since stage() (the caller loads the ops anew).
   */
  adopt(staged: StagedRun, engine: Engine): 'branched' | 'extended' | 'reset' | null {
    const { run, base, forkAt } = staged;
    if (run.length !== run.ops.length) throw new Error('player: adopting a run not fully scanned');
    if (base === null) {
      this.install(engine, run);
      return 'reset';
    }
    if (base !== this.active.run) return null;
    this.engine = engine;
    this.engineAt = run.length;
    if (forkAt === base.ops.length && forkAt === base.length) {
      this.active.run = run;
      this.active.info.ops = run.ops.length;
      this.resync(this.cursor);
      return 'extended';
    }
    const parent = this.active;
    parent.cursor = this.cursor;
    this.demote(parent);
    this.active = this.addBranch(run, parent.info.id, forkAt);
    this.resync(
      this.cursor.op <= forkAt ? this.cursor : atOp(run, Math.min(this.cursor.op, run.length)),
    );
    return 'branched';
  }

  // ---- reading ------------------------------------------------------------------------------

  /** Bumped on every change; React's useSyncExternalStore reads it. */
  get version(): number {
    return this.revision;
  }

  get position(): Position {
    return this.cursor;
  }

  /** Ops in the active branch. */
  get length(): number {
    return this.active.run.length;
  }

  get ops(): OpList {
    return this.active.run.ops;
  }

  get totalEvents(): number {
    return this.active.run.totalEvents;
  }

  /** Global index of the current event (-1 at none). */
  get eventIndex(): number {
    return globalEvent(this.active.run, this.cursor);
  }

  /** Events of the op at the cursor (op - 1). */
  get currentOpEvents(): readonly SimEvent[] {
    return this.opEvents;
  }

  get currentEvent(): SimEvent | null {
    return this.opEvents[this.cursor.event] ?? null;
  }

  /** Events op i produced (count). */
  eventsOfOp(i: number): number {
    return eventsOf(this.active.run, i + 1);
  }

  /** Global index of op i's first event. */
  opStart(i: number): number {
    return this.active.run.start(i);
  }

  /** enum sim_err of op i. */
  errorOf(i: number): number {
    return this.active.run.errorOf(i);
  }

  get markers(): readonly Marker[] {
    return this.active.run.markers.list;
  }

  get markerCounts(): Readonly<Record<MarkerKind, number>> {
    return this.active.run.markers.counts;
  }

  get branchList(): readonly BranchInfo[] {
    return this.branches.map((b) => b.info);
  }

  get activeBranch(): number {
    return this.active.info.id;
  }

  /** The engine holding the state at the cursor (read it, do not apply ops to it). */
  get sim(): Engine {
    return this.engine;
  }

  get checkpointStats(): { count: number; bytes: number; spacing: number } {
    const s = this.active.run.checkpoints;
    return { ...s.size, spacing: s.spacing };
  }

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  // ---- moving -------------------------------------------------------------------------------

  /** After op `op` (0 = as booted), at that op's last event. */
  seekOp(op: number): void {
    this.moveTo(atOp(this.active.run, op));
  }

  /** At global event g. */
  seekEvent(g: number): void {
    this.moveTo(atEvent(this.active.run, g));
  }

  /** Move to an exact position (clamped). */
  seek(p: Position): void {
    const op = Math.max(0, Math.min(this.length, p.op));
    const n = eventsOf(this.active.run, op);
    this.moveTo({ op, event: n === 0 ? -1 : Math.max(0, Math.min(n - 1, p.event)) });
  }

  stepOp(delta: number): void {
    this.seekOp(this.cursor.op + delta);
  }

  stepEvent(delta: number): void {
    let p = this.cursor;
    const run = this.active.run;
    for (let i = 0; i < Math.abs(delta); i++) p = delta > 0 ? nextEvent(run, p) : prevEvent(run, p);
    this.moveTo(p);
  }

  home(): void {
    this.moveTo(ORIGIN);
  }

  end(): void {
    this.seekOp(this.length);
  }

  /** To the next (dir 1) or previous (dir -1) marked event; false when there is none. */
  seekMarker(dir: 1 | -1): boolean {
    const g = this.eventIndex;
    const list = this.active.run.markers.list; // in event order: the scan appends as it goes
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((list[mid]?.event ?? 0) <= g) lo = mid + 1;
      else hi = mid;
    }
    // lo: first marker after g
    const target = dir > 0 ? list[lo] : list[lo - 1]?.event === g ? list[lo - 2] : list[lo - 1];
    if (!target) return false;
    this.seekEvent(target.event);
    return true;
  }

  get atEnd(): boolean {
    const p = this.cursor;
    return p.op === this.length && p.event >= eventsOf(this.active.run, p.op) - 1;
  }

  // ---- changing history ---------------------------------------------------------------------

  /**
   * Give the player a new op list for the same machine. An extension of the active branch grows
   * it in place; anything else forks a new branch at the first difference and keeps the old one.
   * Returns whether a branch was created.
   */
  setOps(ops: OpList): boolean {
    const cur = this.active.run;
    const d = firstDifference(cur.ops, ops);
    if (d === cur.ops.length && d === cur.length) {
      // Same prefix, more ops: a new run sharing everything scanned so far.
      if (ops.length === cur.ops.length) return false;
      const grown = cur.fork(ops, d);
      this.active.run = grown;
      this.active.info.ops = ops.length;
      this.scanFrom(grown, d);
      this.resync(this.cursor);
      return false;
    }
    const parent = this.active;
    parent.cursor = this.cursor;
    const run = cur.fork(ops, d);
    this.demote(parent);
    this.active = this.addBranch(run, parent.info.id, d);
    this.scanFrom(run, d);
    this.resync(
      this.cursor.op <= d ? this.cursor : atOp(run, Math.min(this.cursor.op, run.length)),
    );
    return true;
  }

  /** Append ops at the end of the active branch (op buttons of the playground). */
  append(ops: OpList): void {
    this.setOps(this.active.run.ops.concat(ops));
  }

  /** Make another branch active; the cursor goes back to where it was left there. */
  switchBranch(id: number): void {
    const b = this.branches.find((x) => x.info.id === id);
    if (!b || b === this.active) return;
    this.active.cursor = this.cursor;
    this.demote(this.active);
    this.active = b;
    b.run.checkpoints.setBudget(this.options.checkpointBudget);
    this.engineAt = -1; // the engine holds another branch's state
    this.resync(b.cursor);
  }

  // ---- internals ----------------------------------------------------------------------------

  private freshRun(ops: OpList): Run {
    return new Run(
      ops,
      new CheckpointStore(this.options.checkpointBudget, this.options.checkpointEvery),
    );
  }

  /** One root branch on `engine`, which holds the state after the scanned run's last op. */
  private install(engine: Engine, run: Run): void {
    this.engine = engine;
    this.branches = [];
    this.nextId = 1;
    this.active = this.addBranch(run, null, 0);
    this.engineAt = run.length;
    this.opEvents = [];
    this.resync(ORIGIN);
  }

  private addBranch(run: Run, parent: number | null, forkAt: number): Branch {
    const id = this.nextId++;
    const b: Branch = {
      info: {
        id,
        parent,
        forkAt,
        ops: run.ops.length,
        label: parent === null ? 'main' : `branch ${id} (from op ${forkAt})`,
      },
      run,
      cursor: ORIGIN,
    };
    this.branches.push(b);
    return b;
  }

  private demote(b: Branch): void {
    b.run.checkpoints.setBudget(Math.floor(this.options.checkpointBudget / INACTIVE_SHARE));
  }

  /** Scan a run from op `from`: put the engine at the state before op `from` first. */
  private scanFrom(run: Run, from: number): void {
    this.replayTo(run, from);
    run.scan(this.engine);
    this.engineAt = run.length;
  }

  /** Leave the engine at the state after ops [0, target) with the last op's events buffered. */
  private replayTo(run: Run, target: number): void {
    const lastOp = target - 1;
    let from = this.engineAt >= 0 && this.engineAt <= Math.max(0, lastOp) ? this.engineAt : -1;
    const cp = run.checkpoints.nearest(Math.max(0, lastOp));
    // Forward from the engine's own state unless a checkpoint ahead of it saves more replaying
    // than its restore costs.
    if (cp && (from < 0 || cp[0] - from > cp[1].byteLength / RESTORE_BYTES_PER_OP)) {
      this.engine.restore(cp[1]);
      from = cp[0];
    }
    if (from < 0) throw new Error('player: no checkpoint before op ' + String(target));
    // Ops before the last one only move the state: replay them in bulk, stopping wherever a
    // checkpoint is missing (a thinned or forked store) to take it on the way.
    let i = from;
    const replay = this.engine.replay?.bind(this.engine);
    while (i < lastOp) {
      if (run.checkpoints.wants(i)) run.checkpoints.put(i, this.engine.snapshot());
      const stop = replay ? Math.min(lastOp, run.checkpoints.nextWanted(i + 1, lastOp)) : i + 1;
      if (replay) replay(run.ops, i, stop);
      else this.engine.applyAt(run.ops, i);
      this.engine.clearEvents();
      i = stop;
    }
    this.engine.clearEvents();
    if (i < target) {
      // The target's op alone, so its events are exactly the buffer.
      if (run.checkpoints.wants(i)) run.checkpoints.put(i, this.engine.snapshot());
      this.engine.applyAt(run.ops, i);
    }
    this.engineAt = target;
  }

  /** Reload the engine at p even if the cursor is already there (the engine moved under it). */
  private resync(p: Position): void {
    this.cursor = { op: -1, event: -1 };
    this.moveTo(p);
  }

  private moveTo(p: Position): void {
    if (samePosition(p, this.cursor)) return;
    const run = this.active.run;
    if (p.op !== this.cursor.op || this.engineAt !== p.op) {
      this.replayTo(run, p.op);
      this.opEvents = p.op > 0 ? this.engine.events() : [];
    }
    this.cursor = p;
    this.refresh();
  }

  private refresh(): void {
    this.revision++;
    for (const fn of this.listeners) fn();
  }
}
