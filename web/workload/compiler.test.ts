import { describe, expect, it } from 'vitest';
import { GFP_COMPOSITES, GFP_BITS } from '../core/gfp';
import { HANDLE_NONE, OpKind, SIM_OP_SIZE, SysctlId, type SimOp } from '../core/ops';
import { compileWorkload, type CompiledProgram } from './compiler';
import { formatError } from './errors';
import { parseWorkload } from './parser';

function compiled(text: string): CompiledProgram {
  const r = parseWorkload(text);
  if (!r.ok) throw new Error(formatError(r.error));
  const c = compileWorkload(r.workload, { positions: r.positions });
  if (!c.ok) throw new Error(formatError(c.error));
  return c.program;
}

function compileError(text: string): string {
  const r = parseWorkload(text);
  if (!r.ok) throw new Error(`parse failed: ${formatError(r.error)}`);
  const c = compileWorkload(r.workload, { positions: r.positions });
  if (c.ok) throw new Error('expected a compile error');
  return formatError(c.error);
}

function ops(text: string): SimOp[] {
  return compiled(text).ops.toArray();
}

const op = (o: Partial<SimOp> & { kind: SimOp['kind'] }): SimOp => ({
  order: 0,
  cpu: 0,
  gfp: 0,
  handle: 0,
  arg: 0,
  ...o,
});

describe('compileWorkload', () => {
  it('runs on tiny with profile 6.18 when the workload says nothing', () => {
    const p = compiled('tick\n');
    expect(p.config.machine).toEqual({ kind: 'preset', name: 'tiny' });
    expect(p.config.profile).toBe('6.18');
    expect(p.config.seed).toBeUndefined();
  });

  it('packs 16-byte records with the gfp mask, order and cpu', () => {
    const p = compiled('cpu 1 alloc a order=3 GFP_KERNEL|__GFP_COMP\n');
    expect(p.ops.length).toBe(1);
    expect(p.ops.bytes.length).toBe(SIM_OP_SIZE);
    expect(p.ops.at(0)).toEqual(
      op({
        kind: OpKind.ALLOC,
        cpu: 1,
        order: 3,
        gfp: GFP_COMPOSITES.GFP_KERNEL | GFP_BITS.__GFP_COMP,
        handle: 0,
      }),
    );
  });

  it('frees the newest block of a group, and with * every block oldest first', () => {
    expect(
      ops('alloc a\nalloc a\nalloc b\nalloc a\nfree a\nfree a *\n').map((o) => [o.kind, o.handle]),
    ).toEqual([
      [OpKind.ALLOC, 0],
      [OpKind.ALLOC, 1],
      [OpKind.ALLOC, 2],
      [OpKind.ALLOC, 3],
      [OpKind.FREE, 3],
      [OpKind.FREE, 0],
      [OpKind.FREE, 1],
    ]);
  });

  it('reuses freed handle ids, so the table needs only the peak of live blocks', () => {
    const p = compiled('repeat 1000 {\n alloc a\n alloc a\n free a *\n}\n');
    expect(p.ops.length).toBe(4000);
    expect(
      Math.max(...ops('repeat 1000 {\n alloc a\n alloc a\n free a *\n}\n').map((o) => o.handle)),
    ).toBe(1);
    expect(p.config.maxHandles).toBe(2);
  });

  it('sizes the percpu handle table by the highest percpu handle, not by every handle', () => {
    // page blocks 0..2, then percpu areas 3 and 4; freeing 4 lets the next page block reuse it
    const p = compiled(
      'alloc a\nalloc a\nalloc a\npercpu alloc c size=16\npercpu alloc c size=8\npercpu free c\nalloc b\nrandom 10\n',
    );
    const percpuOps = p.ops.toArray().filter((o) => o.kind === OpKind.PERCPU_ALLOC);
    expect(percpuOps.map((o) => o.handle)).toEqual([14, 15]);
    expect(p.config.maxHandles).toBe(16); // the stream's 11 slots, then the groups' ids
    expect(p.config.percpuHandles).toBe(16);
    // without a percpu request the core keeps no percpu handle table at all
    expect(compiled('repeat 100 {\n alloc a\n}\n').config).toMatchObject({
      maxHandles: 100,
      percpuHandles: 0,
    });
    // a percpu area in an id that a freed page block left: the table reaches only that far
    const q = compiled('alloc a\nalloc a\nalloc a\nfree a *\npercpu alloc c size=16\n');
    expect(q.ops.at(q.ops.length - 1)).toMatchObject({ kind: OpKind.PERCPU_ALLOC, handle: 0 });
    expect(q.config).toMatchObject({ maxHandles: 3, percpuHandles: 1 });
  });

  it('writes sysctls as OP_SYSCTL before the first op, one per lowmem_reserve_ratio zone', () => {
    expect(ops('set watermark_scale_factor=100 lowmem_reserve_ratio=1,2\ntick 2\n')).toEqual([
      op({ kind: OpKind.SYSCTL, handle: SysctlId.WATERMARK_SCALE_FACTOR, arg: 100 }),
      op({ kind: OpKind.SYSCTL, handle: SysctlId.LOWMEM_RESERVE_RATIO_DMA, arg: 1 }),
      op({ kind: OpKind.SYSCTL, handle: SysctlId.LOWMEM_RESERVE_RATIO_DMA + 1, arg: 2 }),
      op({ kind: OpKind.TICK, arg: 2 }),
    ]);
  });

  it('expands random into one OP_RANDOM per step: arg = free percent | capacity << 7', () => {
    const o = ops('cpu 1 random 3 max_order=2 free=30 GFP_ATOMIC\n');
    expect(o).toHaveLength(3);
    expect(o[0]).toEqual(
      op({
        kind: OpKind.RANDOM,
        cpu: 1,
        order: 2,
        gfp: GFP_COMPOSITES.GFP_ATOMIC,
        handle: 0,
        arg: 30 | (3 << 7),
      }),
    );
  });

  it('gives each random stream its own handle range, before the groups, sized for every run', () => {
    const p = compiled('alloc a\nrepeat 4 {\n random 5 free=10\n}\nrandom 2\nalloc b\n');
    const o = p.ops.toArray();
    // stream 1: header 0, 20 slots (4 runs x 5 steps); stream 2: header 21, 2 slots; groups from 24
    expect(o[0]).toMatchObject({ kind: OpKind.ALLOC, handle: 24 });
    expect(o[1]).toMatchObject({ kind: OpKind.RANDOM, handle: 0, arg: 10 | (20 << 7) });
    expect(o[21]).toMatchObject({ kind: OpKind.RANDOM, handle: 21, arg: 50 | (2 << 7) });
    expect(o[23]).toMatchObject({ kind: OpKind.ALLOC, handle: 25 });
    expect(p.config.maxHandles).toBe(26);
  });

  it('compiles the other ops field by field', () => {
    expect(
      ops(
        'cpu 1 drain\ndrain all\ncpu 1 offline\ncpu 1 online\ncpu 1 corrupt\ncpu 1 free_pfn 0x40 order=2\n',
      ),
    ).toEqual([
      op({ kind: OpKind.DRAIN_CPU, cpu: 1 }),
      op({ kind: OpKind.DRAIN_ALL }),
      op({ kind: OpKind.CPU_OFFLINE, cpu: 1 }),
      op({ kind: OpKind.CPU_ONLINE, cpu: 1 }),
      op({ kind: OpKind.CORRUPT, cpu: 1, handle: HANDLE_NONE }),
      op({ kind: OpKind.FREE_PFN, cpu: 1, order: 2, handle: 0x40 }),
    ]);
  });

  it('gathers a folio batch one op per block, captured blocks beside handles; the last frees it', () => {
    expect(
      ops(
        'cpu 1 alloc a\ncpu 1 alloc b\ncpu 1 free_folios a captured order=1 pfn=0x40 type=reclaimable b captured\n',
      ).slice(2),
    ).toEqual([
      op({ kind: OpKind.FREE_FOLIOS, cpu: 1, handle: 0 }),
      // gfp: the list's migratetype + 1 (RECLAIMABLE is 2), 0 when the trace did not show it
      op({ kind: OpKind.FREE_FOLIOS_CAPTURED, cpu: 1, order: 1, gfp: 3, handle: 0x40 }),
      op({ kind: OpKind.FREE_FOLIOS, cpu: 1, handle: 1 }),
      op({ kind: OpKind.FREE_FOLIOS_CAPTURED, cpu: 1, handle: HANDLE_NONE, arg: 1 }),
    ]);
    // the handles are free again: the next allocation reuses one
    expect(ops('cpu 1 alloc a\ncpu 1 free_folios a captured\ncpu 0 alloc c\n')[3]).toEqual(
      op({ kind: OpKind.ALLOC, handle: 0, gfp: ops('cpu 0 alloc c\n')[0]?.gfp ?? -1 }),
    );
  });

  it('lays out explicit zones one after another, node after node', () => {
    const p = compiled('machine nodes=2 cpus=1 dma=16 normal=64\ntick\n');
    const m = p.config.machine;
    expect(m.kind).toBe('explicit');
    if (m.kind !== 'explicit') return;
    expect(m.zones.map((node) => node.map((z) => [z.startPfn, z.managed]))).toEqual([
      [
        [0, 16],
        [0, 0],
        [16, 64],
        [0, 0],
        [0, 0],
      ],
      [
        [80, 16],
        [0, 0],
        [96, 64],
        [0, 0],
        [0, 0],
      ],
    ]);
  });

  it('skips the rest of a repeat whose body emits nothing', () => {
    expect(
      compiled('alloc x\nfree x\nrepeat 2000000 {\n repeat 2000000 {\n  free x *\n }\n}\n').ops
        .length,
    ).toBe(2);
  });

  it('records the source line of every op', () => {
    expect(Array.from(compiled('tick\n\nrepeat 2 {\n drain all\n}\n').lines)).toEqual([1, 4, 4]);
  });

  it.each([
    ['machine tiny\ncpu 2 drain', '2:1: cpu 2 does not exist: machine tiny has CPUs 0-1'],
    [
      'machine nodes=2 cpus=3 normal=64\ncpu 6 drain',
      '2:1: cpu 6 does not exist: the machine has CPUs 0-5',
    ],
    ['alloc a order=7', "1:1: order 7 is above this machine's max_order 6"],
    ['random 10 max_order=8', "1:1: max_order 8 is above this machine's max_order 6"],
    ['free a', '1:1: free a: no block was allocated into group "a"'],
    ['alloc a\nfree a\nfree a', '3:1: free a: every block of group "a" is already freed'],
    ['free a *', '1:1: free a *: no block was allocated into group "a"'],
    [
      'repeat 1000 {\n repeat 1000 {\n  repeat 3 { tick }\n }\n}',
      '3:14: the workload expands to more than 2,000,000 ops (the limit)',
    ],
    [
      'random 1500000\nrandom 600000',
      '2:1: the workload expands to more than 2,000,000 ops (the limit)',
    ],
  ])('%j fails with %j', (text, message) => {
    expect(compileError(text)).toBe(message);
  });

  it('refuses more live blocks than the handle table may hold', () => {
    expect(compileError('repeat 1000 {\n repeat 1001 {\n  alloc a\n }\n}')).toBe(
      '3:3: more than 1,000,000 live blocks in all handle groups (the limit): free some',
    );
  });
});
