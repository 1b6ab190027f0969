// Narration and names: the UI's copies of the core's kind and function names must match the wasm
// (so a renamed or added event shows up here), and every kind gets its own sentence.
import { describe, expect, it } from 'vitest';
import { loadCore } from '../core/module';
import { EV } from '../core/events';
import { FN_NAMES, KIND_NAMES } from '../core/generated/events';
import { compileWorkload } from '../workload/compiler';
import { parseWorkload } from '../workload/parser';
import type { SimEvent } from '../player/engine';
import { narrate, WMARK_CHECK } from './narrate';

describe('names and narration', async () => {
  const core = await loadCore();

  it('match the core: every event kind and kernel function name', () => {
    // ids other subsystems own are holes: the core calls them unknown
    KIND_NAMES.forEach((name, i) => expect(core.eventKindName(i)).toBe(name ?? 'unknown'));
    expect(core.eventKindName(KIND_NAMES.length)).toBe('unknown'); // no kind the UI does not know
    FN_NAMES.forEach((name, i) => expect(core.eventFnName(i)).toBe(name));
    expect(core.eventFnName(FN_NAMES.length)).toBe('');
  });

  it('says something specific for every kind', () => {
    for (const kind of Object.values(EV)) {
      const n = narrate({
        seq: 0,
        op: 0,
        pfn: 64,
        a: 1,
        b: 1,
        c: 1,
        cpu: 1,
        kind,
        node: 0,
        zone: 2,
        order: 2,
        mt: 1,
        fn: 8,
      });
      expect(n.text).not.toBe(`${n.kind}.`);
      expect(n.text.length).toBeGreaterThan(20);
      expect(n.fn).toBe('__rmqueue_smallest');
    }
  });

  it('names the block and the zone', () => {
    const n = narrate(
      {
        seq: 0,
        op: 0,
        pfn: 8,
        a: 0,
        b: 0,
        c: 0,
        cpu: 0,
        kind: EV.BUDDY_SPLIT,
        node: 1,
        zone: 2,
        order: 3,
        mt: 0,
        fn: 14,
      },
      2,
    );
    expect(n.text).toBe(
      'The block is split: its upper half, pfn 8 (order 3, 8 pages), goes on the Unmovable free list.',
    );
    expect(
      narrate(
        {
          seq: 0,
          op: 0,
          pfn: 0,
          a: 300,
          b: 320,
          c: 0,
          cpu: 0,
          kind: EV.WMARK_CHECK,
          node: 1,
          zone: 2,
          order: 0,
          mt: 0,
          fn: 4,
        },
        2,
      ).text,
    ).toContain('node 1 Normal');
  });

  it("names the mark a watermark check used and why: 6.18's high pre-check, 6.6's own low mark", () => {
    const checks = (text: string): SimEvent[] => {
      const p = parseWorkload(text);
      if (!p.ok) throw new Error(p.error.message);
      const c = compileWorkload(p.workload, { positions: p.positions });
      if (!c.ok) throw new Error(c.error.message);
      const sim = core.createSim(c.program.config);
      const all: SimEvent[] = [];
      try {
        sim.runOps(c.program.ops, () =>
          all.push(...sim.events().filter((e) => e.kind === EV.WMARK_CHECK)),
        );
      } finally {
        sim.dispose();
      }
      return all;
    };
    const [first] = checks('machine tiny\nprofile 6.18\ncpu 0 alloc a\n');
    expect(first?.mt).toBe(WMARK_CHECK.BELOW_HIGH); // the TS mirror of enum wmark_check holds
    const says = narrate(first!).text;
    expect(says).toContain('against the high watermark, the 6.7+ pre-check');
    expect(says).toMatch(/more than \d+ \(mark plus lowmem reserve\) must stay free for order 0/);
    expect(says).toContain('Above it: the zone is used at once');
    expect(says).not.toContain('(watermark plus reserve)');
    const [old] = checks('machine tiny\nprofile 6.6\ncpu 0 alloc a\n');
    expect(old?.mt).toBe(1); // WMARK_LOW: 6.6 has no pre-check
    expect(narrate(old!).text).toMatch(
      /free against the low watermark, the request's own mark \(the fast path's\): more than \d+ .* enough, the zone may be used\./,
    );
    // below the high mark on 6.18: the flag is set and the request's own mark follows
    const below = checks(
      'machine tiny\nprofile 6.18\nrepeat 60 {\n  cpu 0 alloc a order=2\n}\n',
    ).filter((e) => e.mt === WMARK_CHECK.BELOW_HIGH && e.c === 0);
    expect(below.length).toBeGreaterThan(0);
    expect(narrate(below[0]!).text).toContain('Below it: the zone is marked ZONE_BELOW_HIGH');
  });
});
