// Sliced loading gives the same timeline as loading at once, yields between slices, and stops
// when cancelled; the worker's compile step answers with positioned errors.
import { describe, expect, it } from 'vitest';
import { compileText } from '../app/compile';
import { Session } from '../app/session';
import { loadCore } from '../core/module';
import { SIM_OP_SIZE } from '../core/ops';
import { answer } from './compile-core';
import type { PackedProgram } from '../workload/compiler';
import { loadSliced } from './sliced-load';

const TEXT =
  'machine tiny\nseed 9\ncpu 0 random 60000 max_order=2 free=50 GFP_KERNEL\ncpu 1 random 20000 GFP_KERNEL\n';

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
