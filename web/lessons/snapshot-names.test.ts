// snapshot-names.test.ts: every state field a lesson reads keeps the C name the core gives it
// (wasm-core/src/layout.def, generated into LAYOUT_FIELDS), so a rename in the snapshot cannot
// slip in; the few fields the snapshot derives are listed here by name.
import { beforeAll, describe, expect, it } from 'vitest';
import { LAYOUT_FIELDS } from '../core/generated/layout';
import { loadCore, type Core } from '../core/module';
import { snapshotFromSim } from './snapshot-from-sim';

let core: Core;

beforeAll(async () => {
  core = await loadCore();
});

/** Field names of struct `name` that layout.def publishes. */
function cFields(name: string): Set<string> {
  const prefix = `${name}.`;
  return new Set(
    LAYOUT_FIELDS.filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length)),
  );
}

/** Keys of obj that are neither a C field of struct `name` nor one of `derived`. */
function renamed(obj: object, name: string, derived: string[]): string[] {
  const c = cFields(name);
  return Object.keys(obj).filter((k) => !c.has(k) && !derived.includes(k));
}

describe('lesson snapshot names', () => {
  it('uses the C field names of every struct it mirrors', () => {
    const sim = core.createSim({ machine: { kind: 'preset', name: 'small' } });
    try {
      const s = snapshotFromSim(sim);
      const zone = s.zones['Normal'];
      if (!zone) throw new Error('small has a Normal zone');
      // name, node: the zone's name and zone_to_nid; the rest are derived from C fields.
      expect(
        renamed(zone, 'zone', [
          'name',
          'node',
          'populated',
          'below_high',
          'buddyinfo',
          'pageblocks',
        ]),
      ).toEqual([]);
      expect(Object.keys(zone._watermark)).toEqual(['min', 'low', 'high', 'promo']); // enum wmark
      expect(renamed(zone.lock, 'lock_stats', [])).toEqual([]);
      for (const fa of zone.free_area) expect(renamed(fa, 'free_area', [])).toEqual([]);
      const pcp = s.pcp['cpu0']?.['Normal'];
      if (!pcp || Array.isArray(pcp)) throw new Error('cpu0 has a Normal pageset');
      expect(renamed(pcp, 'per_cpu_pages', ['lists', 'orders'])).toEqual([]);
      const cpu = s.cpus[0];
      if (!cpu) throw new Error('small has CPUs');
      expect(renamed(cpu, 'cpu', ['id'])).toEqual([]);
      const node = s.nodes[0];
      if (!node) throw new Error('small has a node');
      expect(renamed(node, 'node', ['id'])).toEqual([]);
      // pgalloc[zone] is spelled as vmstat spells it
      const vm = cFields('vm_events');
      expect(
        Object.keys(s.vm_events).filter((k) => !vm.has(k) && !/^pgalloc_[a-z0-9]+$/.test(k)),
      ).toEqual([]);
      expect(
        renamed(s.machine, 'sim', ['profile', 'nr_nodes', 'max_order', 'pageblock_order', 'error']),
      ).toEqual([]);
    } finally {
      sim.dispose();
    }
  });
});
