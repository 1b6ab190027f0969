// The fault reader against the core: the counters it reads are the ones the events count, the
// VMAs are the workload's in address order, and the lanes say who waited (4.16: the fault behind
// a munmap waits for mmap_lock; 6.18: it does not).
import { beforeAll, describe, expect, it } from 'vitest';
import { LANE } from './generated/lanes';
import { loadCore, type Core } from './module';
import { runWorkload } from '../reproductions/runner';
import { FAULT_WORKLOAD as WORKLOAD } from './testing/fault-workload';

let core: Core;
beforeAll(async () => {
  core = await loadCore();
});

describe('FaultReader', () => {
  it('reads the counters the events count, and the VMAs in address order', () => {
    for (const profile of ['4.16', '6.18'] as const) {
      const run = runWorkload(core, WORKLOAD, profile);
      const f = run.state.fault;
      expect(f).not.toBeNull();
      if (!f) return;
      const count = (name: string) => run.events.filter((e) => e.name === name).length;
      expect(f.counters.pgfault).toBe(count('page_fault_user'));
      expect(f.counters.pgfault).toBe(74);
      expect(f.counters.vmaLockSuccess).toBe(
        run.events.filter((e) => e.name === 'vma_lock' && e.b === 1).length,
      );
      expect(f.counters.byPath.reduce((a, b) => a + b, 0)).toBe(74);
      expect(f.mms.map((m) => m.index)).toEqual([0]);
      const mm = f.mms[0];
      expect(mm?.mmUsers).toBe(3);
      expect(mm?.vmas.map((v) => [v.start, v.end, v.flags])).toEqual([
        [0, 512, 3],
        [1024, 1536, 1],
      ]);
      expect(mm?.vmas[0]?.faults).toBe(10);
      expect(mm?.mmapLock.write.acquisitions).toBe(4); // 3 mmaps and a munmap
      expect(mm?.mmapLock.readers).toBe(0);
      expect(f.cpus.map((c) => [c.cpu, c.threadMm])).toEqual([
        [0, 0],
        [1, 0],
        [2, 0],
      ]);
    }
  });

  it("lays out each CPU's lane: 4.16 makes the fault behind the munmap wait, 6.18 does not", () => {
    const states = (profile: '4.16' | '6.18') => {
      const f = runWorkload(core, WORKLOAD, profile).state.fault;
      const lane = f?.cpus.find((c) => c.cpu === 1)?.lane ?? [];
      for (let i = 1; i < lane.length; i++)
        expect(lane[i]?.fromNs).toBeGreaterThanOrEqual(lane[i - 1]?.toNs ?? 0);
      // the last op of CPU 1: its fault after CPU 0's munmap
      const lastOp = Math.max(...lane.map((s) => s.op));
      const last = lane.filter((s) => s.op === lastOp).map((s) => s.state);
      return { lane: lane.map((s) => s.state), last, f };
    };
    const classic = states('4.16');
    expect(classic.last).toEqual([LANE.FAULT_MMAP, LANE.WAIT_MMAP_READ, LANE.FAULT_MMAP]);
    expect(classic.lane.filter((s) => s === LANE.FAULT_MMAP).length).toBeGreaterThanOrEqual(10);
    expect(classic.f?.cpus.find((c) => c.cpu === 0)?.lane.map((s) => s.state)).toContain(
      LANE.MM_WRITE,
    );
    expect(classic.f?.cpus.find((c) => c.cpu === 2)?.lane.at(-1)?.state).toBe(LANE.USER);
    const perVma = states('6.18');
    expect(perVma.last).toEqual([LANE.FAULT_VMA]);
    // its first fault had no anon_vma: the trylock met CPU 2's mmap, so it retried and waited
    expect(perVma.lane.slice(0, 3)).toEqual([LANE.MM_WRITE, LANE.RETRY, LANE.WAIT_MMAP_READ]);
  });
});
