// Sliced loading gives the same timeline as loading at once, yields between slices, works no
// longer than its clock allows, and stops when cancelled with the previous run left in place;
// the worker's compile step answers with positioned errors.
import { describe, expect, it } from 'vitest';
import { compileText } from '../app/compile';
import { Session } from '../app/session';
import { loadCore } from '../core/module';
import { SIM_OP_SIZE } from '../core/ops';
import { Staging } from '../player/staging';
import { answer } from './compile-core';
import { unpackProgram, type PackedProgram } from '../workload/compiler';
import { loadSliced } from './sliced-load';

const TEXT =
  'machine tiny\nseed 9\ncpu 0 random 60000 max_order=2 free=50 GFP_KERNEL\ncpu 1 random 20000 GFP_KERNEL\n';

/** The state at the cursor, as the counters and pcp lists read (enough to tell two states apart). */
function digest(s: Session): string {
  const st = s.state();
  return JSON.stringify({ op: st.op, vm: st.vm, pcps: st.pcps });
}

function packed(text: string): PackedProgram {
  const r = answer({ id: 1, text, machine: null, wantOps: true });
  if (!r.ok || !r.ops || !r.lines) throw new Error('compile failed');
  expect(r.ops.length).toBe(r.opCount * SIM_OP_SIZE);
  return { config: r.config, ops: r.ops, lines: r.lines };
}

describe('loadSliced', () => {
  it('builds the same timeline as one load, in several slices', async () => {
    const core = await loadCore();
    const start = compileText('machine tiny\nseed 9\ncpu 0 alloc a\n');
    if (!start.ok) throw new Error('no');
    const whole = compileText(TEXT);
    if (!whole.ok) throw new Error('no');
    const once = new Session(core, whole.program);
    const sliced = new Session(core, start.program);
    let progress = 0;
    expect(await loadSliced(sliced, packed(TEXT), { cancelled: false }, () => progress++)).toBe(
      'done',
    );
    expect(progress).toBeGreaterThan(1);
    expect(sliced.player.length).toBe(80000);
    expect(sliced.player.totalEvents).toBe(once.player.totalEvents);
    expect(sliced.player.branchList.length).toBe(1); // another handle table: a new machine, one branch
    once.player.seekOp(71234);
    sliced.player.seekOp(71234);
    expect(sliced.player.currentOpEvents).toEqual(once.player.currentOpEvents);
    once.dispose();
    sliced.dispose();
  }, 60_000);

  it('stops when cancelled', async () => {
    const core = await loadCore();
    const start = compileText('machine tiny\n');
    if (!start.ok) throw new Error('no');
    const s = new Session(core, start.program);
    const token = { cancelled: false };
    const p = loadSliced(s, packed(TEXT), token);
    token.cancelled = true;
    expect(await p).toBe('cancelled');
    expect(s.player.length).toBeLessThan(80000);
    s.dispose();
  });

  it('cancelled midway, leaves the previous run in place', async () => {
    const core = await loadCore();
    const before = compileText('machine tiny\nseed 9\nrepeat 40 { cpu 0 alloc a\ncpu 0 free a }\n');
    if (!before.ok) throw new Error('no');
    const s = new Session(core, before.program);
    s.player.seekOp(33);
    const state = digest(s);
    const events = s.player.currentOpEvents;
    const token = { cancelled: false };
    let slices = 0;
    const p = loadSliced(s, packed(TEXT), token, (done, total) => {
      slices++;
      if (done > total / 3) token.cancelled = true;
    });
    expect(await p).toBe('cancelled');
    expect(slices).toBeGreaterThan(1); // it got going before it stopped
    expect(s.player.length).toBe(80);
    expect(s.player.branchList.length).toBe(1);
    expect(s.player.position.op).toBe(33);
    expect(digest(s)).toBe(state);
    expect(s.player.currentOpEvents).toEqual(events);
    s.dispose();
  }, 60_000);

  it('a long branch on the same machine keeps the old branch seekable', async () => {
    const core = await loadCore();
    const head = 'machine tiny\nseed 9\ncpu 0 random 30000 max_order=2 free=50 GFP_KERNEL\n';
    const ticks = head + 'repeat 30000 { tick 1 }\n';
    const start = compileText(head);
    const whole = compileText(ticks);
    if (!start.ok || !whole.ok) throw new Error('no');
    const s = new Session(core, start.program);
    const ref = new Session(core, whole.program);
    expect(await loadSliced(s, packed(ticks), { cancelled: false })).toBe('done');
    expect(s.player.length).toBe(60000);
    expect(s.player.branchList.length).toBe(1); // an extension of the active branch
    const drains = head + 'repeat 30000 { drain all }\n';
    expect(await loadSliced(s, packed(drains), { cancelled: false })).toBe('done');
    expect(s.player.branchList.map((b) => b.forkAt)).toEqual([0, 30000]);
    // Back on the first branch, its checkpoints restore into the engine the load brought.
    s.player.switchBranch(1);
    for (const op of [45678, 23456]) {
      s.player.seekOp(op);
      ref.player.seekOp(op);
      expect(s.player.currentOpEvents).toEqual(ref.player.currentOpEvents);
      expect(digest(s)).toBe(digest(ref));
    }
    s.dispose();
    ref.dispose();
  }, 60_000);

  it('a run changed under a staged load is loaded the plain way on commit', async () => {
    const core = await loadCore();
    const head = 'machine tiny\nseed 9\ncpu 0 random 30000 max_order=2 free=50 GFP_KERNEL\n';
    const start = compileText(head);
    const other = compileText(head + 'tick 1\n');
    const long = compileText(head + 'repeat 30000 { drain all }\n');
    if (!start.ok || !other.ok || !long.ok) throw new Error('no');
    const s = new Session(core, start.program);
    const load = s.stage(long.program);
    expect(s.load(other.program)).toBe('extended'); // the reader added an op meanwhile
    while (!load.staging.advance(performance.now() + 1000)) {
      /* to the end */
    }
    expect(load.commit()).toBe('branched'); // from the run now shown, not the one staged from
    expect(s.player.length).toBe(60000);
    expect(s.player.branchList.map((b) => b.forkAt)).toEqual([0, 30000]);
    s.dispose();
  }, 60_000);

  it('copies a big checkpoint in pieces across slices, the engine standing still', async () => {
    const core = await loadCore();
    const start = compileText('machine tiny\n');
    if (!start.ok) throw new Error('no');
    const s = new Session(core, start.program);
    // A million-block random stream: a handle table of megabytes in the arena.
    const text = 'machine tiny\nseed 9\ncpu 0 random 1000000 max_order=2 free=50 GFP_KERNEL\n';
    const load = s.stage(unpackProgram(packed(text)));
    const bytes = load.staging.engine.snapshot().length;
    expect(bytes).toBeGreaterThan(6 << 20);
    let t = 0;
    const clock = () => t++;
    // Each slice is already at its deadline: it copies one 2 MB piece and stops.
    expect(load.staging.advance(t, clock)).toBe(false);
    expect(load.staging.done).toBe(0);
    expect(load.staging.staged.run.checkpoints.size.count).toBe(0);
    let slices = 1;
    while (load.staging.staged.run.checkpoints.size.count === 0) {
      load.staging.advance(t, clock);
      slices++;
    }
    expect(slices).toBeGreaterThanOrEqual(Math.ceil(bytes / (2 << 20)));
    expect(load.staging.staged.run.checkpoints.size.bytes).toBe(bytes);
    load.cancel();
    s.dispose();
  }, 60_000);

  it('works no longer than its clock allows', async () => {
    const core = await loadCore();
    const start = compileText('machine tiny\n');
    if (!start.ok) throw new Error('no');
    const s = new Session(core, start.program);
    const load = s.stage(unpackProgram(packed(TEXT)));
    let t = 0;
    const clock = () => t++; // every look at the clock costs a "millisecond"
    expect(load.staging.advance(3, clock)).toBe(false);
    expect(load.staging.done).toBeGreaterThan(0);
    expect(load.staging.done).toBeLessThanOrEqual(4 * 256);
    expect(s.player.length).toBe(0); // nothing shown until committed
    while (!load.staging.advance(t + 1000, clock)) {
      /* the rest */
    }
    expect(load.commit()).toBe('reset');
    expect(s.player.length).toBe(80000);
    expect(load.staging).toBeInstanceOf(Staging);
    s.dispose();
  }, 60_000);

  it('compile errors come back positioned', () => {
    const r = answer({
      id: 3,
      text: 'machine tiny\ncpu 0 alloc a GFP_KERNAL\n',
      machine: null,
      wantOps: false,
    });
    expect(r).toMatchObject({
      id: 3,
      ok: false,
      error: { line: 2, col: 15, message: expect.stringMatching(/did you mean GFP_KERNEL/) },
    });
  });
});
