// The timeline: two step grains, seeks through checkpoints, scrubbing, branches, and replay that
// reproduces exactly the events a straight run produced.
import { describe, expect, it } from 'vitest';
import { OpKind, OpList, type SimOp } from '../core/ops';
import { CheckpointStore } from './checkpoints';
import { Player } from './player';
import { ToyEngine } from './testing/toy-engine';

/** An op emitting `events` events; `kind` picks the event kind (0 = pcp_hit). */
function op(events: number, kind = 0, handle = 0): SimOp {
  return { kind: OpKind.ALLOC, order: kind, cpu: 0, gfp: 0, handle, arg: events };
}

/** Hash and events after a straight run of ops[0, n). */
function straight(ops: SimOp[], n: number) {
  const e = new ToyEngine();
  const packed = OpList.of(ops);
  for (let i = 0; i < n; i++) {
    e.clearEvents();
    e.applyAt(packed, i);
  }
  return { hash: e.hash, events: n > 0 ? e.events() : [] };
}

describe('Player', () => {
  const ops = [op(2), op(0), op(3), op(1), op(0), op(2)];

  it('starts at the booted machine with no event', () => {
    const p = new Player(new ToyEngine(), OpList.of(ops));
    expect(p.position).toEqual({ op: 0, event: -1 });
    expect(p.currentEvent).toBeNull();
    expect(p.length).toBe(6);
    expect(p.totalEvents).toBe(8);
  });

  it('steps by op to the op outcome (its last event) and back', () => {
    const p = new Player(new ToyEngine(), OpList.of(ops));
    p.stepOp(1);
    expect(p.position).toEqual({ op: 1, event: 1 });
    p.stepOp(1);
    expect(p.position).toEqual({ op: 2, event: -1 }); // op 1 emits nothing
    expect(p.currentEvent).toBeNull();
    p.stepOp(1);
    expect(p.position).toEqual({ op: 3, event: 2 });
    p.stepOp(-1);
    expect(p.position).toEqual({ op: 2, event: -1 });
    p.stepOp(-10);
    expect(p.position).toEqual({ op: 0, event: -1 });
  });

  it('steps by event across ops, skipping ops with none', () => {
    const p = new Player(new ToyEngine(), OpList.of(ops));
    const seen: number[] = [];
    for (let i = 0; i < 8; i++) {
      p.stepEvent(1);
      seen.push(p.eventIndex);
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(p.atEnd).toBe(true);
    p.stepEvent(1);
    expect(p.eventIndex).toBe(7);
    const back: number[] = [];
    for (let i = 0; i < 8; i++) {
      p.stepEvent(-1);
      back.push(p.eventIndex);
    }
    expect(back).toEqual([6, 5, 4, 3, 2, 1, 0, -1]);
    expect(p.position).toEqual({ op: 0, event: -1 });
  });

  it('shows the same event a straight run produced, at every position', () => {
    const p = new Player(new ToyEngine(), OpList.of(ops), { checkpointEvery: 2 });
    for (let g = 7; g >= 0; g--) {
      p.seekEvent(g);
      const ref = straight(ops, p.position.op);
      expect(p.currentEvent).toEqual(ref.events[p.position.event]);
    }
  });

  it('reaches any point of a million-event history by replaying at most one spacing', () => {
    const many: SimOp[] = [];
    for (let i = 0; i < 100_000; i++) many.push(op(10, 0, i));
    const engine = new ToyEngine();
    const p = new Player(engine, OpList.of(many), { checkpointEvery: 256 });
    expect(p.totalEvents).toBe(1_000_000);
    const spacing = p.checkpointStats.spacing;
    for (const g of [999_999, 3, 512_345, 17, 777_777]) {
      const before = engine.applied;
      p.seekEvent(g);
      expect(p.eventIndex).toBe(g);
      expect(engine.applied - before).toBeLessThanOrEqual(spacing);
      expect(p.currentEvent?.seq).toBe(g);
      expect(p.currentEvent?.op).toBe(Math.floor(g / 10));
    }
  });

  it('moves forward from its own state unless a restore saves more than it costs', () => {
    const many: SimOp[] = [];
    for (let i = 0; i < 10_000; i++) many.push(op(1, 0, i));
    // 1 MiB snapshots cost as much as replaying ~1k ops; checkpoints are 256 ops apart.
    const engine = new ToyEngine(1 << 20);
    const p = new Player(engine, OpList.of(many), { checkpointEvery: 256 });
    p.seekOp(200);
    const restores = engine.restores;
    for (let i = 0; i < 100; i++) p.stepOp(1); // across the checkpoint at op 256
    p.seekOp(900); // 600 ops on: a restore of the one at op 768 would save only 432
    expect(engine.restores).toBe(restores);
    expect(p.currentEvent?.seq).toBe(899);
    p.seekOp(5000); // far ahead: restoring the checkpoint at op 4864 is cheaper
    expect(engine.restores).toBe(restores + 1);
    expect(p.currentEvent?.seq).toBe(4999);
    expect(engine.hash).toBe(straight(many, 5000).hash);
  });

  it('keeps checkpoints within the memory budget by thinning', () => {
    const store = new CheckpointStore(10 * 12, 1);
    for (let i = 0; i < 100; i++) if (store.wants(i)) store.put(i, new Uint8Array(12));
    expect(store.size.bytes).toBeLessThanOrEqual(120);
    expect(store.nearest(0)?.[0]).toBe(0);
    expect(store.nearest(99)?.[0]).toBeGreaterThan(40);
  });

  it('appending ops grows the branch in place and keeps the cursor', () => {
    const p = new Player(new ToyEngine(), OpList.of(ops));
    p.seekOp(3);
    const branched = p.setOps(OpList.of([...ops, op(4)]));
    expect(branched).toBe(false);
    expect(p.branchList).toHaveLength(1);
    expect(p.length).toBe(7);
    expect(p.position).toEqual({ op: 3, event: 2 });
    expect(p.totalEvents).toBe(12);
    p.end();
    expect(p.currentEvent).toEqual(straight([...ops, op(4)], 7).events[3]);
  });

  it('changing a past op branches; the old future stays reachable', () => {
    const engine = new ToyEngine();
    const p = new Player(engine, OpList.of(ops));
    p.seekOp(5);
    const changed = [...ops.slice(0, 2), op(5, 0, 99), ...ops.slice(3)];
    expect(p.setOps(OpList.of(changed))).toBe(true);
    expect(p.branchList.map((b) => b.forkAt)).toEqual([0, 2]);
    expect(p.totalEvents).toBe(10);
    p.end();
    expect(p.currentEvent).toEqual(straight(changed, 6).events[1]);
    expect(engine.hash).toBe(straight(changed, 6).hash);
    // Back to the original future, where the cursor was left.
    const main = p.branchList[0]?.id ?? -1;
    p.switchBranch(main);
    expect(p.position.op).toBe(5);
    expect(engine.hash).toBe(straight(ops, 5).hash);
    p.end();
    expect(p.currentEvent).toEqual(straight(ops, 6).events[1]);
  });

  it('records markers for notable events', () => {
    const marked = [op(1), op(2, 7 /* EV_PCP_REFILL */), op(1, 25 /* EV_ALLOC_FAIL */)];
    const p = new Player(new ToyEngine(), OpList.of(marked));
    expect(p.markers.map((m) => [m.event, m.op, m.kind])).toEqual([
      [1, 1, 'refill'],
      [2, 1, 'refill'],
      [3, 2, 'failure'],
    ]);
    expect(p.markerCounts.refill).toBe(2);
    expect(p.seekMarker(1)).toBe(true);
    expect(p.eventIndex).toBe(1);
    p.seekMarker(1);
    p.seekMarker(1);
    expect(p.eventIndex).toBe(3);
    expect(p.seekMarker(1)).toBe(false);
    p.seekMarker(-1);
    expect(p.eventIndex).toBe(2);
  });

  it('notifies subscribers on every move', () => {
    const p = new Player(new ToyEngine(), OpList.of(ops));
    let calls = 0;
    const off = p.subscribe(() => calls++);
    p.stepOp(1);
    p.stepEvent(1);
    p.seek(p.position); // no move, no call
    off();
    p.end();
    expect(calls).toBe(2);
  });
});
