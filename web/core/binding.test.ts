/*
 * The binding against the wasm it binds: the layout resolves by name, the sizes the TypeScript
 * assumes are the C's, names agree, and the same ops give the same events byte for byte in wasm
 * and in the native build (wasm-core/native/runner.c).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../player/engine';
import { compileWorkload } from '../workload/compiler';
import { parseWorkload } from '../workload/parser';
import { EV } from './events';
import { LAYOUT_FIELDS } from './generated/layout';
import { STRUCT_NAMES, type StructName } from './layout';
import { PRESETS, PROFILE_NAMES, type MachineConfig, type PresetName } from './machine-config';
import { loadCore, type Core } from './module';
import { OpKind, OpList, SIM_OP_FIELDS, SIM_OP_SIZE } from './ops';
import type { Sim } from './sim';

const repo = fileURLToPath(new URL('../..', import.meta.url));
let core: Core;

beforeAll(async () => {
  core = await loadCore();
});

function compiled(text: string) {
  const p = parseWorkload(text);
  if (!p.ok) throw new Error(`${p.error.line}:${p.error.col}: ${p.error.message}`);
  const c = compileWorkload(p.workload, { positions: p.positions });
  if (!c.ok) throw new Error(`${c.error.line}:${c.error.col}: ${c.error.message}`);
  return c.program;
}

describe('layout', () => {
  it('resolves every field of layout.def inside its struct', () => {
    const L = core.layout;
    expect(L.entries().map(([name]) => name)).toEqual([...LAYOUT_FIELDS]);
    for (const field of LAYOUT_FIELDS) {
      const struct = field.split('.')[0] as StructName;
      expect(STRUCT_NAMES).toContain(struct);
      const { offset, size } = L.place(field);
      expect(size, field).toBeGreaterThan(0);
      expect(offset + size, field).toBeLessThanOrEqual(L.sizeOf(struct));
    }
  });

  it('has the sizes the TypeScript side assumes', () => {
    const L = core.layout;
    expect(L.sizeOf('sim_op')).toBe(SIM_OP_SIZE);
    // ops.ts packs records at these offsets; the C decides them.
    for (const [field, offset] of Object.entries(SIM_OP_FIELDS)) {
      expect(L.off(`sim_op.${field}` as (typeof LAYOUT_FIELDS)[number]), field).toBe(offset);
    }
    // 40: the emitting file and line (src_file, src_line) cost 4 bytes over the 32 of the fields,
    // the trace context (ctx, the flags column: a byte in a word, so no padding) 4 more.
    expect(L.sizeOf('sim_event')).toBe(40);
    expect(L.sizeOf('page')).toBe(16);
    // Fields read with fixed widths: u8, u16, u32, i32, u64.
    const widths: Record<string, number> = {
      'sim_event.seq': 4,
      'sim_event.op': 4,
      'sim_event.pfn': 4,
      'sim_event.a': 4,
      'sim_event.b': 4,
      'sim_event.c': 4,
      'sim_event.cpu': 2,
      'sim_event.kind': 1,
      'sim_event.node': 1,
      'sim_event.zone': 1,
      'sim_event.order': 1,
      'sim_event.mt': 1,
      'sim_event.fn': 1,
      'sim_event.src_file': 2,
      'sim_event.src_line': 2,
      'sim_config.profile': 1,
      'sim_config.nr_nodes': 1,
      'sim_config.cpus_per_node': 1,
      'sim_config.max_order': 1,
      'sim_config.pageblock_order': 1,
      'sim_config.thp': 1,
      'sim_config.pcp_batch': 4,
      'sim_config.seed': 8,
      'sim_config.max_handles': 4,
      'sim_config.event_capacity': 4,
      'zone_config.start_pfn': 4,
      'zone_config.managed': 4,
      'zone.nr_free_pages': 8,
      'zone.pgalloc': 8,
      'zone.pageset_batch': 4,
      'zone.lock_pages_moved': 8,
      'lock_stats.acquisitions': 8,
      'lock_stats.contended': 8,
      'lock_stats.wait_ns': 8,
      'lock_stats.hold_ns': 8,
      'lock_stats.handovers': 8,
      'per_cpu_pages.free_count': 2,
      'per_cpu_pages.alloc_factor': 1,
      'cpu.node': 2,
      'cpu.online': 1,
      'cpu.pcp_hits': 8,
      'node.first_cpu': 2,
      'node.kswapd_wakeups': 8,
      'page.next': 4,
      'page.state': 1,
      'page.cpu': 2,
      'sim.nr_events': 4,
      'sim.events_off': 4,
      'sim.frozen': 4,
      'vm_events.pgfree': 8,
      'sim_op.kind': 1,
      'sim_op.order': 1,
      'sim_op.cpu': 2,
      'sim_op.gfp': 4,
      'sim_op.handle': 4,
      'sim_op.arg': 4,
    };
    for (const [field, width] of Object.entries(widths)) {
      expect(core.layout.size(field as (typeof LAYOUT_FIELDS)[number]), field).toBe(width);
    }
    // Arrays indexed by zone: MAX_NR_ZONES entries.
    expect(core.layout.size('zone.lowmem_reserve') / 4).toBe(5);
    expect(core.layout.size('sim_config.zones')).toBe(64 * 5 * core.layout.sizeOf('zone_config'));
  });

  it('agrees with the core on profile, event kind and preset names', () => {
    PROFILE_NAMES.forEach((name, id) => {
      expect(core.profileName(id)).toBe(name);
      expect(core.profileByName(name)).toBe(id);
    });
    expect(core.eventKindName(EV.MM_PAGE_ALLOC)).toBe('mm_page_alloc');
    expect(core.eventKindName(EV.MM_PAGE_FREE)).toBe('mm_page_free');
    expect(core.eventKindName(EV.MM_PAGE_ALLOC_ZONE_LOCKED)).toBe('mm_page_alloc_zone_locked');
    expect(core.eventKindName(EV.MM_PAGE_PCPU_DRAIN)).toBe('mm_page_pcpu_drain');
    expect(core.eventKindName(EV.PCP_REFILL)).toBe('pcp_refill');
    for (const name of Object.keys(PRESETS) as PresetName[]) {
      const sim = core.createSim({ machine: { kind: 'preset', name } });
      const s = sim.state();
      expect(s.nrCpus, name).toBe(PRESETS[name].nodes * PRESETS[name].cpusPerNode);
      expect(s.nodes.length, name).toBe(PRESETS[name].nodes);
      expect(s.maxOrder, name).toBe(PRESETS[name].maxOrder);
      sim.dispose();
    }
  });
});

describe('Sim', () => {
  it('builds an explicit machine as written', () => {
    const p = compiled(
      'machine nodes=2 cpus=3 max_order=8 pageblock_order=5 thp=0 batch=5 dma32=512 normal=2048\ntick\n',
    );
    const sim = core.createSim(p.config);
    const s = sim.state();
    expect(s.nrCpus).toBe(6);
    expect(s.maxOrder).toBe(8);
    expect(s.pageblockOrder).toBe(5);
    expect(s.nodes.map((n) => n.zones.map((z) => [z.name, z.startPfn, z.managed]))).toEqual([
      [
        ['DMA32', 0, 512],
        ['Normal', 512, 2048],
      ],
      [
        ['DMA32', 2560, 512],
        ['Normal', 3072, 2048],
      ],
    ]);
    expect(s.pcps.every((p) => p.batch === 5)).toBe(true);
    sim.dispose();
  });

  it('refuses a machine the core cannot build, with a message', () => {
    const bad: MachineConfig = {
      machine: {
        kind: 'explicit',
        nodes: 1,
        cpusPerNode: 1,
        maxOrder: 4,
        pageblockOrder: 6,
        thp: false,
        zones: [],
      },
    };
    expect(() => core.createSim(bad)).toThrow(/SIM_ECONFIG/);
  });

  it('applies ops, decodes events, renders trace text and passes the checker', () => {
    const sim = core.createSim({ machine: { kind: 'preset', name: 'tiny' } });
    expect(sim.apply({ kind: OpKind.ALLOC, cpu: 0, order: 0, gfp: 0xcc0, handle: 0, arg: 0 })).toBe(
      0,
    );
    const events = sim.events();
    expect(events.length).toBe(sim.eventCount());
    const alloc = events.find((e) => e.kind === EV.MM_PAGE_ALLOC);
    expect(alloc).toMatchObject({ op: 0, cpu: 0, order: 0, b: 1 });
    expect(sim.eventKind(events.length - 1)).toBe(events[events.length - 1]?.kind);
    expect(sim.trace()).toMatch(
      /mm_page_alloc: page=\S+ pfn=0x[0-9a-f]+ order=0 migratetype=0 gfp_flags=GFP_KERNEL/,
    );
    expect(sim.check()).toBeNull();
    expect(sim.proc('buddyinfo')).toMatch(/^Node 0, zone\s+Normal/);
    sim.clearEvents();
    expect(sim.eventCount()).toBe(0);
    sim.dispose();
    expect(() => sim.eventCount()).toThrow(/disposed/);
  });

  it('applies a packed op exactly as the same op given as fields', () => {
    const tiny: MachineConfig = { machine: { kind: 'preset', name: 'tiny' } };
    const op = { kind: OpKind.ALLOC, cpu: 1, order: 2, gfp: 0xcc0, handle: 3, arg: 0 };
    const ops = OpList.of([{ ...op, kind: OpKind.TICK, arg: 1 }, op]);
    const byFields = core.createSim(tiny);
    const packed = core.createSim(tiny);
    byFields.apply({ ...op, kind: OpKind.TICK, arg: 1 });
    expect(packed.applyAt(ops, 0)).toBe(0);
    byFields.clearEvents();
    packed.clearEvents();
    expect(byFields.apply(op)).toBe(0);
    expect(packed.applyAt(ops, 1)).toBe(0);
    expect(packed.eventCount()).toBeGreaterThan(0);
    expect(packed.eventBytes()).toEqual(byFields.eventBytes());
    // Byte for byte; Buffer.compare, since a deep equal of a whole arena takes seconds.
    expect(Buffer.compare(packed.snapshot(), byFields.snapshot())).toBe(0);
    byFields.dispose();
    packed.dispose();
  });

  it('goes back to a snapshot and replays the same events', () => {
    const p = compiled(
      'machine small\ncpu 0 random 300 max_order=3 free=40\ncpu 1 random 300 max_order=2 free=60 GFP_HIGHUSER_MOVABLE\n',
    );
    const sim: Sim = core.createSim(p.config);
    const engine: Engine = sim; // the player drives a Sim as its Engine
    const half = p.ops.length / 2;
    sim.runOps(p.ops.slice(0, half), () => {});
    const snap = engine.snapshot();
    const run = () => {
      const chunks: Uint8Array[] = [];
      sim.runOps(p.ops.slice(half), () => chunks.push(sim.eventBytes()));
      return Buffer.concat(chunks);
    };
    const first = run();
    const stateAfter = sim.snapshot();
    engine.restore(snap);
    expect(run()).toEqual(first);
    // byte for byte (Buffer.equals: an element-wise toEqual of a 3 MB arena takes seconds)
    expect(Buffer.from(sim.snapshot()).equals(Buffer.from(stateAfter))).toBe(true);
    expect(sim.check()).toBeNull();
    sim.dispose();
  });

  it('applies packed ops in one call', () => {
    const p = compiled('repeat 50 {\n cpu 1 alloc a order=1\n}\ncpu 1 free a *\n');
    const sim = core.createSim({ ...p.config, eventCapacity: 1 << 20 });
    expect(sim.applyOps(p.ops)).toBe(p.ops.length);
    expect(sim.eventsDropped()).toBe(0);
    expect(sim.cpus()[1]?.pcpRefills).toBeGreaterThan(0);
    expect(sim.check()).toBeNull();
    sim.dispose();
  });
});

describe('wasm and native', () => {
  let dir = '';
  let native = '';

  beforeAll(() => {
    execFileSync('make', ['--no-print-directory', '-s', '-C', join(repo, 'wasm-core'), 'native'], {
      stdio: 'pipe',
    });
    native = join(repo, 'wasm-core/build/sim-native');
    dir = mkdtempSync(join(tmpdir(), 'buddyscope-binding-'));
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const cases: [string, string, string][] = [
    [
      'tiny',
      '6.18',
      'repeat 20 {\n cpu 0 alloc a order=0\n cpu 1 alloc b order=2 GFP_HIGHUSER_MOVABLE\n}\ncpu 1 free a *\ncpu 0 free b *\ndrain all\ntick 3\n',
    ],
    [
      'tiny',
      '6.6',
      'cpu 0 random 400 max_order=3 free=45\ncpu 1 random 400 max_order=6 free=55 GFP_ATOMIC\ncpu 1 offline\ncpu 1 online\n',
    ],
    [
      'small',
      '5.13',
      'repeat 100 {\n cpu 0 alloc x GFP_DMA32\n cpu 1 alloc y order=3 GFP_KERNEL|__GFP_COMP\n}\ncpu 0 free y *\ncpu 1 free x *\ncpu 0 corrupt\ncpu 0 random 200\ncpu 0 free_pfn 0x1234 order=2\n',
    ],
    ['small', '2016-v5', 'cpu 0 random 500 max_order=3 free=50 GFP_KERNEL\ncpu 1 drain\ntick 10\n'],
  ];

  it.each(cases)('%s with profile %s gives the same events', (preset, profile, text) => {
    const p = compiled(`machine ${preset}\nprofile ${profile}\n${text}`);
    const opsFile = join(dir, `${preset}-${profile}.ops`);
    writeFileSync(opsFile, p.ops.bytes); // the native runner reads the same records
    const maxHandles = p.config.maxHandles ?? 1;
    const nativeEvents = execFileSync(
      native,
      [preset, opsFile, '--profile', profile, '--handles', String(maxHandles), '--events', '-'],
      { maxBuffer: 1 << 28 },
    );
    const sim = core.createSim({ ...p.config, maxHandles });
    const chunks: Uint8Array[] = [];
    sim.runOps(p.ops, () => chunks.push(sim.eventBytes()));
    const wasmEvents = Buffer.concat(chunks);
    sim.dispose();
    expect(wasmEvents.length).toBeGreaterThan(0);
    expect(wasmEvents.length).toBe(nativeEvents.length);
    expect(Buffer.compare(wasmEvents, nativeEvents)).toBe(0);
  });
});
