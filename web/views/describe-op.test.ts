// describeOp speaks the workload language: every op kind of the generated table is described,
// and where a statement compiles to the op the description is that statement as written, with
// "handle N" (or "handles N-M") standing where the statement names its group, so the event log's
// heading reads back as the line that made the op. The capture ops, which no statement makes,
// are said in words; none of them says "nop".
import { describe, expect, it } from 'vitest';
import { captureOps } from '../core/capture-ops';
import { OP_KINDS } from '../core/generated/ops';
import { OpKind, type SimOp } from '../core/ops';
import { compileWorkload } from '../workload/compiler';
import { parseWorkload } from '../workload/parser';
import { printWorkload } from '../workload/printer';
import { describeOp } from './describe-op';

type Key = (typeof OP_KINDS)[number]['key'];

/** A workload whose last line (or the line given) compiles to an op of the kind, and its group. */
interface Case {
  text: string;
  line?: string; // the statement, when it is not the last line
  group?: string;
}

const M = 'machine nodes=1 cpus=2 normal=4096\n';
const AS = `${M}cpu 1 thread mm=2\n`;

/** Every op kind: how a workload makes it, or null where no statement does (said in words). */
const CASES: Record<Key, Case | null> = {
  NOP: null,
  ALLOC: { text: `${M}cpu 1 alloc a order=2 GFP_KERNEL`, group: 'a' },
  FREE: { text: `${M}cpu 1 alloc a order=0 GFP_KERNEL\ncpu 0 free a`, group: 'a' },
  FREE_PFN: { text: `${M}cpu 1 free_pfn 0x1000 order=0` },
  DRAIN_CPU: { text: `${M}cpu 1 drain` },
  DRAIN_ALL: { text: `${M}drain all` },
  TICK: { text: `${M}tick 3` },
  CPU_OFFLINE: { text: `${M}cpu 1 offline` },
  CPU_ONLINE: { text: `${M}cpu 1 offline\ncpu 1 online` },
  SYSCTL: { text: `${M}set min_free_kbytes=2048\ncpu 0 drain`, line: 'set min_free_kbytes=2048' },
  CORRUPT: { text: `${M}cpu 1 corrupt` },
  RANDOM: { text: `${M}cpu 1 random 1 max_order=3 free=40 GFP_KERNEL` },
  SEED: null, // the seed line is the machine's, applied before any op
  FREE_BATCH: {
    text: `${M}cpu 0 alloc a order=0 GFP_KERNEL\ncpu 0 alloc a order=0 GFP_KERNEL\ncpu 1 free a * batched`,
    group: 'a *',
  },
  LRU_ALLOC: { text: `${M}cpu 1 alloc f order=0 GFP_HIGHUSER_MOVABLE for=file-dirty`, group: 'f' },
  MARK_ACCESSED: {
    text: `${M}cpu 1 alloc f order=0 GFP_HIGHUSER_MOVABLE for=anon\ncpu 1 touch f`,
    group: 'f',
  },
  TICK_CPU: { text: `${M}cpu 1 tick` },
  CAPTURE_ZONE: { text: `${M}cpu 1 free_captured order=2` },
  CAPTURE_PCP: null,
  CAPTURE_LRU: null,
  MEMCG: null, // a captured state's op, never in a workload's text
  CAPTURE_LRU_FOLIOS: null,
  KSWAPD_CPU: { text: `${M}cpu 1 kswapd` },
  CLOCK: null, // a replayed trace's clock, never in a workload's text
  FREE_FOLIOS: { text: `${M}cpu 0 alloc a order=0 GFP_KERNEL\ncpu 1 free_folios a`, group: 'a' },
  FREE_FOLIOS_CAPTURED: { text: `${M}cpu 1 free_folios captured order=2 pfn=0x40 type=movable` },
  PERCPU_ALLOC: { text: `${M}cpu 1 percpu alloc p size=64 align=8 reserved atomic`, group: 'p' },
  PERCPU_FREE: {
    text: `${M}cpu 0 percpu alloc p size=64 align=8\ncpu 1 percpu free p`,
    group: 'p',
  },
  PERCPU_BALANCE: { text: `${M}cpu 1 percpu balance` },
  THREAD: { text: AS },
  MMAP: { text: `${AS}cpu 1 mmap mm=2 at=16 pages=64 prot=rwx file` },
  MUNMAP: { text: `${AS}cpu 1 mmap mm=2 at=16 pages=64 prot=rw\ncpu 1 munmap mm=2 at=16 pages=64` },
  MPROTECT: {
    text: `${AS}cpu 1 mmap mm=2 at=16 pages=64 prot=rw\ncpu 1 mprotect mm=2 at=16 pages=8 prot=none`,
  },
  TOUCH: {
    text: `${AS}cpu 1 mmap mm=2 at=16 pages=64 prot=rw\ncpu 1 touch mm=2 at=20 pages=3 read`,
  },
  WORK: { text: `${AS}cpu 1 work ns=5000` },
};

describe('describeOp', () => {
  it('has a case for every op kind of the generated table', () => {
    expect(Object.keys(CASES).sort()).toEqual(OP_KINDS.map((k) => k.key).sort());
  });

  for (const { key, id } of OP_KINDS) {
    const c = CASES[key];
    if (!c) continue;
    it(`describes ${key} as the statement that made it`, () => {
      const parsed = parseWorkload(c.text + '\n');
      if (!parsed.ok) throw new Error(parsed.error.message);
      const compiled = compileWorkload(parsed.workload);
      if (!compiled.ok) throw new Error(compiled.error.message);
      const ops = compiled.program.ops.toArray().filter((o) => o.kind === id);
      const op = ops.at(-1);
      expect(op, key).toBeDefined();
      const line = c.line ?? printWorkload(parsed.workload).trim().split('\n').at(-1) ?? '';
      const said = describeOp(op);
      expect(said).not.toBe('nop');
      const grouped = c.group ? said.replace(/handles? \d+(-\d+)?/, c.group) : said;
      expect(grouped).toBe(line);
      // and that line is a statement of the language on its own
      expect(parseWorkload(`${M}${grouped}\n`).ok || key === 'SYSCTL').toBe(true);
    });
  }

  it('says the capture ops in words', () => {
    const ops: SimOp[] = captureOps({
      zones: [
        { node: 0, zone: 2, free: [[0, 3], [2]], pageblocks: [1, 7], boost: 12, lru: [0, 0, 5, 0] },
      ],
      pcps: [{ cpu: 1, node: 0, zone: 2, count: 5, high: 40 }],
    } as unknown as Parameters<typeof captureOps>[0]);
    const said = ops.map(describeOp);
    expect(said).toEqual([
      'capture: 3 free order-1 Unmovable blocks in Normal',
      'capture: 2 free order-0 Movable blocks in Normal',
      'capture: 1 Unmovable pageblocks in Normal',
      'capture: 7 Movable pageblocks in Normal',
      "capture: Normal's watermark_boost=12",
      'capture: lay out Normal from the recorded blocks',
      "capture: cpu 1's Normal pcp gets 5 order-0 Movable blocks",
      "capture: cpu 1's Normal pcp high=40",
      'capture: 5 pages of Normal on the inactive file list',
    ]);
    expect(describeOp({ kind: OpKind.NOP, cpu: 0, order: 0, gfp: 0, handle: 0, arg: 0 })).toBe(
      'nop',
    );
  });
});
