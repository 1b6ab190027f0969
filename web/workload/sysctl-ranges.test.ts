// The workload parser and the core refuse the same sysctl values: both read the range checks of
// page_alloc/sysctls.def. Each tunable is tried at and around its bounds (and at 0) on both sides;
// numa_zonelist_order under the default profile (6.18), which refuses "zone" in both.
import { describe, expect, it } from 'vitest';
import { SYSCTLS } from '../core/generated/sysctls';
import { loadCore } from '../core/module';
import { OpKind } from '../core/ops';
import { sysctlValueText } from '../core/sysctl-words';
import { parseWorkload } from './parser';

const SIM_OK = 0;
const SIM_EINVAL = 2;

describe('sysctl range checks', async () => {
  const core = await loadCore();

  it.each(SYSCTLS.map((s) => [s.name, s] as const))('%s: parser and core agree', (_, s) => {
    const sim = core.createSim({ machine: { kind: 'preset', name: 'tiny' } });
    const values = [0, 1, s.min - 1, s.min, s.min + 1, s.max - 1, s.max, 7, 8, 3000, 3001];
    for (const v of values.filter((x) => x >= 0 && x <= 0x7fffffff)) {
      // a word-valued tunable is written as its word (a number is refused, as the kernel does)
      const parsed = parseWorkload(`set ${s.name}=${sysctlValueText(s.name, v)}\n`).ok;
      for (let id = s.id; id < s.id + s.count; id++) {
        const err = sim.apply({
          kind: OpKind.SYSCTL,
          order: 0,
          cpu: 0,
          gfp: 0,
          handle: id,
          arg: v,
        });
        expect(err, `${s.name}=${v} (id ${id})`).toBe(parsed ? SIM_OK : SIM_EINVAL);
      }
    }
    sim.dispose();
  });

  it('covers every id the core accepts, and no more', () => {
    const sim = core.createSim({ machine: { kind: 'preset', name: 'tiny' } });
    const last = Math.max(...SYSCTLS.map((s) => s.id + s.count));
    // each id with its tunable's smallest accepted value; past the last, any value is refused
    for (let id = 0; id <= last; id++) {
      const s = SYSCTLS.find((t) => id >= t.id && id < t.id + t.count);
      const arg = s ? s.min : 0;
      expect(
        sim.apply({ kind: OpKind.SYSCTL, order: 0, cpu: 0, gfp: 0, handle: id, arg }),
        `id ${id}`,
      ).toBe(s ? SIM_OK : SIM_EINVAL);
    }
    expect(last).toBe(13); // NR_SYSCTLS: ids 0..12
    sim.dispose();
  });
});
