/*
 * workload-arbitrary.ts: fast-check generators of valid Workload trees, for the property tests
 * (print then parse gives the tree back). Only tests import it.
 */
import fc from 'fast-check';
import { GFP_NAMES } from '../core/gfp';
import { PRESETS, PROFILE_NAMES, type PresetName } from '../core/machine-config';
import { ADDRESS_SPACE_WORDS, MAX_MM, MAX_TOUCH_PAGES, VA_PAGES } from './address-space';
import {
  PCP_TYPES,
  PURPOSES,
  PERCPU_FREE_ORDERS,
  type GfpSpec,
  type MachineSpec,
  type OpStmt,
  type SysctlSetting,
  type Workload,
} from './ast';

const groupName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/);
const cpu = fc.integer({ min: 0, max: 511 });
const order = fc.integer({ min: 0, max: 10 });

const gfpFlag = fc.oneof(
  fc.constantFrom(...GFP_NAMES.keys()),
  fc.integer({ min: 0, max: 0xffffffff }).map((n) => '0x' + n.toString(16)),
  fc.integer({ min: 0, max: 100000 }).map((n) => String(n)),
);
const gfp: fc.Arbitrary<GfpSpec> = fc.array(gfpFlag, { minLength: 1, maxLength: 4 });

const machine: fc.Arbitrary<MachineSpec> = fc.oneof(
  fc
    .constantFrom(...(Object.keys(PRESETS) as PresetName[]))
    .map((name): MachineSpec => ({ kind: 'preset', name })),
  fc
    .record({
      nodes: fc.integer({ min: 1, max: 8 }),
      cpus: fc.integer({ min: 1, max: 64 }),
      maxOrder: fc.integer({ min: 1, max: 10 }),
      pbFraction: fc.double({ min: 0, max: 1, noNaN: true }),
      thp: fc.boolean(),
      batch: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4096 })),
      swap: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1 << 20 })),
      dma: fc.integer({ min: 0, max: 4096 }),
      dma32: fc.integer({ min: 0, max: 100000 }),
      normal: fc.integer({ min: 1, max: 500000 }),
      movable: fc.integer({ min: 0, max: 1000 }),
    })
    .map((r): MachineSpec => ({
      kind: 'explicit',
      nodes: r.nodes,
      cpus: r.cpus,
      maxOrder: r.maxOrder,
      pageblockOrder: Math.floor(r.pbFraction * r.maxOrder),
      thp: r.thp,
      batch: r.batch,
      swap: r.swap,
      dma: r.dma,
      dma32: r.dma32,
      normal: r.normal,
      movable: r.movable,
    })),
);

const setting: fc.Arbitrary<SysctlSetting> = fc.oneof(
  fc
    .integer({ min: 0, max: 1 << 20 })
    .map((v): SysctlSetting => ({ name: 'min_free_kbytes', values: [v] })),
  fc
    .integer({ min: 1, max: 3000 })
    .map((v): SysctlSetting => ({ name: 'watermark_scale_factor', values: [v] })),
  fc
    .integer({ min: 0, max: 100000 })
    .map((v): SysctlSetting => ({ name: 'watermark_boost_factor', values: [v] })),
  fc
    .oneof(fc.constant(0), fc.integer({ min: 8, max: 1000 }))
    .map((v): SysctlSetting => ({ name: 'percpu_pagelist_high_fraction', values: [v] })),
  fc
    .integer({ min: 0, max: 7 })
    .map((v): SysctlSetting => ({ name: 'zone_reclaim_mode', values: [v] })),
  fc
    .array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 5 })
    .map((values): SysctlSetting => ({ name: 'lowmem_reserve_ratio', values })),
);

const leafOp: fc.Arbitrary<OpStmt> = fc.oneof(
  fc
    .record({
      cpu,
      group: groupName,
      order,
      gfp,
      purpose: fc.oneof(fc.constant(null), fc.constantFrom(...PURPOSES)),
    })
    .map((r): OpStmt => ({ kind: 'alloc', ...r })),
  fc
    .record({ cpu, group: groupName, all: fc.boolean() })
    .map((r): OpStmt => ({ kind: 'free', ...r })),
  fc
    .record({ cpu, group: groupName })
    .map((r): OpStmt => ({ kind: 'free', ...r, all: true, batched: true })),
  fc
    .record({ cpu, group: groupName })
    .map((r): OpStmt => ({ kind: 'free', ...r, all: false, pcpLocked: true })),
  fc
    .record({ cpu, group: groupName, all: fc.boolean() })
    .map((r): OpStmt => ({ kind: 'touch_group', ...r })),
  cpu.map((c): OpStmt => ({ kind: 'drain', cpu: c })),
  fc.constant<OpStmt>({ kind: 'drain_all' }),
  fc.integer({ min: 1, max: 1000 }).map((count): OpStmt => ({ kind: 'tick', count })),
  cpu.map((c): OpStmt => ({ kind: 'tick', count: 1, cpu: c })),
  fc
    .record({ cpu, online: fc.boolean() })
    .map((r): OpStmt => ({ kind: r.online ? 'online' : 'offline', cpu: r.cpu })),
  cpu.map((c): OpStmt => ({ kind: 'corrupt', cpu: c })),
  fc
    .record({
      cpu,
      count: fc.integer({ min: 0, max: 5000 }),
      maxOrder: order,
      freePercent: fc.integer({ min: 0, max: 100 }),
      gfp,
    })
    .map((r): OpStmt => ({ kind: 'random', ...r })),
  fc
    .record({ cpu, pfn: fc.integer({ min: 0, max: 0xfffffffe }), order })
    .map((r): OpStmt => ({ kind: 'free_pfn', ...r })),
  fc.record({ cpu, order }).map((r): OpStmt => ({ kind: 'free_captured', ...r })),
  fc
    .record({ cpu, order, pfn: fc.integer({ min: 0, max: 0xfffffffe }) })
    .map((r): OpStmt => ({ kind: 'free_captured', ...r })),
  fc
    .record({ cpu, order, type: fc.constantFrom(...PCP_TYPES) })
    .map((r): OpStmt => ({ kind: 'free_captured', ...r })),
  fc
    .record({ cpu, order, pfn: fc.integer({ min: 0, max: 0xfffffffe }) })
    .map((r): OpStmt => ({ kind: 'free_captured', ...r, pcpLocked: true })),
  cpu.map((c): OpStmt => ({ kind: 'kswapd', cpu: c })),
  fc
    .record({
      cpu,
      folios: fc.array(
        fc.oneof(
          groupName.filter((g) => g !== 'captured'), // the word names a captured block there
          fc.record(
            {
              order,
              pfn: fc.integer({ min: 0, max: 0xfffffffe }),
              type: fc.constantFrom(...PCP_TYPES),
            },
            { requiredKeys: ['order'] },
          ),
        ),
        { minLength: 1, maxLength: 31 },
      ),
    })
    .map((r): OpStmt => ({ kind: 'free_folios', ...r })),
  fc
    .record({
      cpu,
      group: groupName,
      size: fc.integer({ min: 1, max: 32768 }),
      align: fc.integer({ min: 0, max: 12 }).map((s) => 1 << s),
      reserved: fc.boolean(),
      atomic: fc.boolean(),
    })
    .map((r): OpStmt => ({ kind: 'percpu_alloc', ...r })),
  fc
    .record({
      cpu,
      group: groupName,
      order: fc.constantFrom(null, ...PERCPU_FREE_ORDERS),
    })
    .map((r): OpStmt => ({ kind: 'percpu_free', ...r })),
  cpu.map((c): OpStmt => ({ kind: 'percpu_balance', cpu: c })),
  fc
    .record({
      cpu,
      kind: fc.constantFrom(...ADDRESS_SPACE_WORDS),
      mm: fc.integer({ min: 0, max: MAX_MM }),
      at: fc.integer({ min: 0, max: VA_PAGES - MAX_TOUCH_PAGES }),
      pages: fc.integer({ min: 1, max: MAX_TOUCH_PAGES }),
      prot: fc.constantFrom('r', 'rw', 'rx', 'rwx', 'w', 'x', 'none'),
      file: fc.boolean(),
      write: fc.boolean(),
    })
    .map((r): OpStmt => ({
      ...r,
      mm: r.kind === 'work' ? 0 : r.mm,
      at: r.kind === 'thread' || r.kind === 'work' ? 0 : r.at,
      pages: r.kind === 'thread' ? 0 : r.pages,
      prot: r.kind === 'mmap' || r.kind === 'mprotect' ? r.prot : '',
      file: r.kind === 'mmap' && r.file,
      write: r.kind === 'touch' && r.write,
    })),
);

const op: fc.Arbitrary<OpStmt> = fc.letrec<{ op: OpStmt }>((tie) => ({
  op: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafOp,
    fc
      .record({
        count: fc.integer({ min: 0, max: 100 }),
        body: fc.array(tie('op'), { maxLength: 4 }),
      })
      .map((r): OpStmt => ({ kind: 'repeat', ...r })),
  ),
})).op;

/** Any valid workload tree (it may not compile: CPUs and groups are not checked here). */
export const workloadArbitrary: fc.Arbitrary<Workload> = fc.record({
  machine: fc.option(machine, { nil: null }),
  profile: fc.option(fc.constantFrom(...PROFILE_NAMES), { nil: null }),
  sets: fc.array(setting, { maxLength: 4 }),
  seed: fc.option(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { nil: null }),
  ops: fc.array(op, { maxLength: 12 }),
});
