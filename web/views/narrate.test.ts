// Narration and names: the UI's copies of the core's kind and function names must match the wasm
// (so a renamed or added event shows up here), and every kind gets its own sentence.
import { describe, expect, it } from 'vitest';
import { loadCore } from '../core/module';
import { EV } from '../core/events';
import { FN_NAMES, KIND_NAMES } from '../core/generated/events';
import { narrate } from './narrate';

describe('names and narration', async () => {
  const core = await loadCore();

  it('match the core: every event kind and kernel function name', () => {
    // ids other subsystems own, or none yet, are holes the core calls unknown
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
});
