/*
 * The percpu allocator against the live 6.18 machine (traces/percpu/, captured with debugfs
 * mounted for the read): the first-chunk geometry recomputed from the machine's static size and
 * 2 CPUs gives its boot line and its percpu_stats allocation info, and percpu_stats has the
 * kernel's fields in the kernel's order, chunk by chunk.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCore, type Core } from './module';

let core: Core;
beforeAll(async () => {
  core = await loadCore();
});

const live = (name: string) => readFileSync(`traces/percpu/${name}`, 'utf8');

/** The field names of percpu_stats text in order, with the section and chunk header lines. */
function shape(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (l.startsWith('  ') ? l.slice(0, l.indexOf(':')).trim() : l));
}

describe('percpu geometry and percpu_stats against the live machine', () => {
  const staticSize = Number(/ s(\d+) /.exec(live('boot-line-6.18.txt'))?.[1]);

  it('recomputes the boot line from the static size and the CPUs', () => {
    const sim = core.createSim({
      machine: { kind: 'preset', name: 'small' },
      percpuStaticSize: staticSize,
    });
    try {
      expect(sim.percpuText('boot')).toBe(live('boot-line-6.18.txt').trim());
      // K.9's capture on an earlier boot
      const other = core.createSim({ machine: { kind: 'preset', name: 'small' } });
      expect(other.percpuText('boot')).toBe(
        'percpu: Embedded 53 pages/cpu s185560 r0 d31528 u1048576',
      );
      other.dispose();
    } finally {
      sim.dispose();
    }
  });

  it('prints the allocation info and every field in the kernel order', () => {
    const sim = core.createSim({
      machine: { kind: 'preset', name: 'small' },
      percpuStaticSize: staticSize,
      percpuPeakKib: 2048,
    });
    try {
      // one dynamic chunk beside the first, as on the live machine
      const text = live('percpu_stats-6.18.txt');
      const model = sim.percpuText('percpu_stats');
      const info = (t: string) => t.slice(0, t.indexOf('Global Stats:'));
      expect(info(model)).toBe(info(text));
      expect(shape(model)).toEqual(shape(text).slice(0, shape(model).length));
      expect(shape(model).length).toBeGreaterThan(30);
    } finally {
      sim.dispose();
    }
  });
});
