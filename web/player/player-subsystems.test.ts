// The player on the real core with every subsystem's state in play: seeking backwards restores a
// checkpoint and replays, and that must bring back the reclaim, percpu and fault regions too, not
// only the page allocator's (the checkpoints once stopped at the event buffer, which the
// subsystem regions followed, so a restore left them as the run had ended: a replayed touch found
// its pages already mapped and produced no fault).
import { describe, expect, it } from 'vitest';
import { loadCore } from '../core/module';
import { compileWorkload } from '../workload/compiler';
import { parseWorkload } from '../workload/parser';
import { Player } from './player';

const WORKLOAD = `
machine nodes=1 cpus=4 normal=16384 swap=1024
profile 4.16-spf-v9
cpu 0 thread mm=0
cpu 1 thread mm=0
cpu 2 thread mm=0
cpu 1 mmap mm=0 at=0 pages=64 prot=rw
cpu 2 mmap mm=0 at=1024 pages=64 prot=rw
cpu 1 touch mm=0 at=0 pages=8 write
cpu 0 mmap mm=0 at=64 pages=16 prot=rw
cpu 2 touch mm=0 at=1024 pages=8 write
cpu 1 touch mm=0 at=8 pages=8 write
cpu 0 munmap mm=0 at=64 pages=16
cpu 0 percpu alloc p size=64 align=8
cpu 0 percpu alloc p size=4096 align=8
cpu 1 alloc f order=0 GFP_HIGHUSER_MOVABLE for=file
cpu 1 touch f
cpu 0 percpu free p
cpu 2 work ns=2000
`;

describe('Player checkpoints carry every subsystem', async () => {
  const core = await loadCore();
  const parsed = parseWorkload(WORKLOAD);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const compiled = compileWorkload(parsed.workload);
  if (!compiled.ok) throw new Error(compiled.error.message);
  const { config, ops } = compiled.program;

  it('shows, at every op seeked backwards, the events and the fault and percpu state of a straight run', () => {
    const straight = core.createSim(config);
    const expected: { events: string; fault: string; percpu: string }[] = [];
    for (let i = 0; i < ops.length; i++) {
      straight.clearEvents();
      straight.applyAt(ops, i);
      const s = straight.state();
      expected.push({
        events: JSON.stringify(straight.events()),
        fault: JSON.stringify(s.fault),
        percpu: JSON.stringify(s.percpu),
      });
    }
    const engine = core.createSim(config);
    const p = new Player(engine, ops, { checkpointEvery: 3 });
    for (let i = ops.length; i >= 1; i--) {
      p.seekOp(i);
      expect(JSON.stringify(p.currentOpEvents), `op ${i}`).toBe(expected[i - 1]?.events);
      const s = engine.state();
      expect(JSON.stringify(s.fault), `op ${i}`).toBe(expected[i - 1]?.fault);
      expect(JSON.stringify(s.percpu), `op ${i}`).toBe(expected[i - 1]?.percpu);
    }
    expect(p.currentOpEvents.length).toBeGreaterThan(0);
    straight.dispose();
    engine.dispose();
  });
});
