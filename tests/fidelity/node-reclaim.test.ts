/*
 * Fidelity: node reclaim's tunables and NUMA counters against the machine the tests run on
 * (docs/kernel/page_alloc/walk.md (D.8)). It has one node, so no remote fallback and no zonelist cache (gone since 4.4)
 * can be seen; what can be checked is checked: booted on the machine's own zoneinfo with its
 * vm.zone_reclaim_mode and vm.min_unmapped_ratio (written as the sysctls), the model derives the
 * node's min_unmapped_pages from the managed pages of the real /proc/zoneinfo as
 * setup_min_unmapped_ratio does (J.13's machine gave 21529; wasm-core/tests/test_zlc.c checks that one), prints /proc/vmstat's zone_reclaim lines
 * where the kernel prints them and numastat with the kernel's six lines, and orders the zonelist
 * by node, as numa_zonelist_order reads back "Node".
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCore } from '../../web/core/module';
import { compileWorkload } from '../../web/workload/compiler';
import { parseWorkload } from '../../web/workload/parser';
import {
  machineFromZoneinfo,
  parseZoneinfo,
  type ZoneinfoZone,
} from '../../web/workload/zoneinfo-machine';

const live = existsSync('/proc/zoneinfo') && existsSync('/proc/sys/vm/min_unmapped_ratio');
const read = (path: string) => readFileSync(path, 'utf8');

/** Boot the machine a zoneinfo text describes (6.18, nothing run); returns its Sim. */
async function boot(zoneinfo: string, extra = '') {
  const zi = parseZoneinfo(zoneinfo);
  if (!zi.ok) throw new Error(`zoneinfo: ${zi.error.message}`);
  const machine = machineFromZoneinfo(zi.zones);
  if (!machine.ok) throw new Error(`machine: ${machine.error.message}`);
  const parsed = parseWorkload(`${extra}cpu 0 tick\n`);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const compiled = compileWorkload(parsed.workload, { machine: machine.machine });
  if (!compiled.ok) throw new Error(compiled.error.message);
  const core = await loadCore();
  const sim = core.createSim(compiled.program.config);
  sim.runOps(compiled.program.ops, () => undefined);
  return { sim, zones: zi.zones };
}

/** setup_min_unmapped_ratio [6.18]: per zone managed * ratio / 100, rounded down, summed per node. */
function minUnmapped(zones: ZoneinfoZone[], ratio: number, nid = 0): number {
  return zones
    .filter((z) => z.node === nid)
    .reduce((n, z) => n + Math.floor(((z.figures.get('managed') ?? 0) * ratio) / 100), 0);
}

describe('node reclaim against the live kernel', () => {
  it.runIf(live)(
    'this machine: the defaults, min_unmapped_pages, vmstat and numastat lines',
    async () => {
      const ratio = Number(read('/proc/sys/vm/min_unmapped_ratio').trim());
      const mode = Number(read('/proc/sys/vm/zone_reclaim_mode').trim());
      // the kernel's defaults (0 and 1) unless this machine was tuned; the model boots with them
      const { sim, zones } = await boot(
        read('/proc/zoneinfo'),
        `set zone_reclaim_mode=${mode}\nset min_unmapped_ratio=${ratio}\n`,
      );
      try {
        const state = sim.state();
        expect(state.nodes[0]?.minUnmappedPages).toBe(minUnmapped(zones, ratio));
        // one node: its zonelist is its own zones, highest first (node order, "Node")
        expect(state.nodes[0]?.zonelistOrder).toBe(1);
        if (existsSync('/proc/sys/vm/numa_zonelist_order'))
          expect(read('/proc/sys/vm/numa_zonelist_order').trim()).toBe('Node');
        // /proc/vmstat: zone_reclaim_success then zone_reclaim_failed, right after pgsteal_file
        const names = (text: string) => text.split('\n').map((l) => l.split(' ')[0] ?? '');
        const kernel = names(read('/proc/vmstat'));
        const model = names(sim.proc('vmstat'));
        const after = (list: string[]) =>
          list.slice(list.indexOf('pgsteal_file'), list.indexOf('pgsteal_file') + 3);
        expect(after(model)).toEqual(after(kernel));
        // numastat: the kernel's six lines, in its order
        const node0 = '/sys/devices/system/node/node0/numastat';
        if (existsSync(node0)) {
          const model0 = sim.proc('numastat').split('\n').slice(1, 7);
          expect(model0.map((l) => l.split(' ')[0])).toEqual(
            read(node0)
              .trim()
              .split('\n')
              .map((l) => l.split(' ')[0]),
          );
        }
      } finally {
        sim.dispose();
      }
    },
  );
});
