// The player on the real core (wasm in Node): replay through checkpoints reproduces the events and
// the state of a straight run, at every op and event, for a workload with refills and drains.
import { describe, expect, it } from 'vitest';
import { loadCore } from '../core/module';
import { compileWorkload } from '../workload/compiler';
import { parseWorkload } from '../workload/parser';
import { Player } from './player';

const WORKLOAD = `
machine tiny
seed 7
repeat 6 {
  cpu 0 alloc a order=0
  cpu 1 alloc b order=1 GFP_HIGHUSER_MOVABLE
}
cpu 0 free a *
cpu 1 alloc big order=4
drain all
cpu 1 random 40 max_order=2
`;

function compile(text: string) {
  const parsed = parseWorkload(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const c = compileWorkload(parsed.workload, { positions: parsed.positions });
  if (!c.ok) throw new Error(c.error.message);
  return c.program;
}

describe('Player on the wasm core', async () => {
  const core = await loadCore();
  const { config, ops } = compile(WORKLOAD);

  it('shows, at every op, the events and the buddyinfo of a straight run', () => {
    const straight = core.createSim(config);
    const expected: { events: string; proc: string }[] = [];
    for (let i = 0; i < ops.length; i++) {
      straight.clearEvents();
      straight.applyAt(ops, i);
      expected.push({
        events: JSON.stringify(straight.events()),
        proc: straight.proc('buddyinfo'),
      });
    }
    const engine = core.createSim(config);
    const p = new Player(engine, ops, { checkpointEvery: 8 });
    expect(p.length).toBe(ops.length);
    expect(p.totalEvents).toBeGreaterThan(ops.length);
    // Backwards, so every seek restores a checkpoint and replays.
    for (let i = ops.length; i >= 1; i--) {
      p.seekOp(i);
      expect(JSON.stringify(p.currentOpEvents)).toBe(expected[i - 1]?.events);
      expect(engine.proc('buddyinfo')).toBe(expected[i - 1]?.proc);
    }
    straight.dispose();
    engine.dispose();
  });

  it('steps event by event through the whole history, with seq increasing by one', () => {
    const engine = core.createSim(config);
    const p = new Player(engine, ops, { checkpointEvery: 4 });
    let last = -1;
    let n = 0;
    while (!p.atEnd) {
      p.stepEvent(1);
      const e = p.currentEvent;
      expect(e).not.toBeNull();
      if (last >= 0) expect(e?.seq).toBe(last + 1);
      last = e?.seq ?? -1;
      n++;
    }
    expect(n).toBe(p.totalEvents);
    engine.dispose();
  });

  it('marks refills and drains', () => {
    const engine = core.createSim(config);
    const p = new Player(engine, ops);
    expect(p.markerCounts.refill).toBeGreaterThan(0);
    expect(p.markerCounts.drain).toBeGreaterThan(0);
    engine.dispose();
  });

  it('reaches any point of a million-event history on a 1M-frame machine quickly', () => {
    const big = compile(
      'machine bench1m\nseed 9\ncpu 0 random 400000 max_order=3 free=45 GFP_KERNEL\n',
    );
    const engine = core.createSim(big.config);
    const p = new Player(engine, big.ops);
    expect(p.totalEvents).toBeGreaterThan(1_000_000);
    for (const g of [1_000_000, 17, 654_321, p.totalEvents - 1, 250_000]) {
      const t = performance.now();
      p.seekEvent(g);
      const ms = performance.now() - t;
      expect(p.eventIndex).toBe(g);
      // seq counts every event since boot: with nothing dropped it is the global index.
      expect(p.currentEvent?.seq).toBe(g);
      expect(p.currentEvent?.op).toBe(p.position.op - 1);
      expect(ms).toBeLessThan(1000); // ~20 ms on an idle machine; generous for a shared CI box
    }
    engine.dispose();
  }, 60_000);
});
