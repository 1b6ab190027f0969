// state-bench.ts: what the state of a machine costs (issue 18): bytes per managed page, the arena
// reserved and the state a snapshot holds, and a restore on server2 next to the whole-arena copy a
// checkpoint took before frames were materialised on demand. Run by scripts/bench.mjs through tsx.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { compileText } from '../../web/app/compile';
import { loadCore, type Core } from '../../web/core/module';
import type { Sim } from '../../web/core/sim';
import { server2Workload } from '../../web/bench/workloads';
import { machineFromCapture, minFreeKbytesFromZoneinfo } from '../../web/workload/captured-state';
import { compileWorkload } from '../../web/workload/compiler';
import { pcpListsFromTrace } from '../../web/workload/pcp-from-trace';
import { importTrace } from '../../web/workload/trace-import';
import { parseZoneinfo } from '../../web/workload/zoneinfo-machine';
import { readText } from '../sim/input';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** A Sim that ran the workload text to its end. */
function ran(core: Core, text: string): Sim {
  const out = compileText(text);
  if (!out.ok) throw new Error(out.error.message);
  const sim = core.createSim(out.program.config);
  sim.applyOps(out.program.ops);
  sim.clearEvents();
  return sim;
}

/** Median of n timings of fn, in milliseconds. */
function median(n: number, fn: () => void): number {
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    fn();
    t.push(performance.now() - start);
  }
  t.sort((a, b) => a - b);
  return t[Math.floor(n / 2)] ?? 0;
}

export interface StatePerPage {
  preset: string;
  managed: number; // managed pages
  arenaBytes: number; // the arena reserved (the frame pool included, touched or not)
  liveBytes: number; // a snapshot: the fixed state and the slabs in use
}

export interface RestoreBench {
  wholeBytes: number; // the arena up to the event buffer: what a checkpoint copied before
  wholeMs: number;
  snapshotBytes: number;
  snapshotMs: number;
}

/** Two CPUs allocating and freeing orders 0..3 on preset (the core bench's stream, shorter). */
function randomWorkload(preset: string): string {
  return `machine ${preset}\nseed 42\ncpu 0 random 20000 max_order=3 free=50 GFP_KERNEL\ncpu 1 random 20000 max_order=3 free=50 GFP_KERNEL\n`;
}

/**
 * A big machine in use (traces/scaled/1tib-kswapd: the kswapd capture's use scaled to the 1 TiB
 * zoneinfo; 2tib-4node-kswapd: to each node of a 2 TiB, 4-node one; 99% of either in use) after
 * the kswapd capture's trace, as `npm run sim -- --machine-from-zoneinfo` builds and runs it.
 */
function capturedBig(core: Core, folder: string): Sim {
  const dir = join(repo, 'traces/scaled', folder);
  const file = (name: string) => ({ name, text: readText(join(dir, name)) });
  const m = machineFromCapture(file('zoneinfo'), {
    buddyinfo: file('buddyinfo'),
    pagetypeinfo: file('pagetypeinfo'),
  });
  if (!m.ok) throw new Error(m.error.message);
  const trace = readText(join(repo, 'traces/captured/kswapd/trace.gz'));
  const imported = importTrace(trace, { capturedFrees: true });
  if (!imported.ok) throw new Error(imported.error.message);
  const c = compileWorkload(imported.workload, { machine: m.machine });
  if (!c.ok) throw new Error(c.error.message);
  const zones = parseZoneinfo(file('zoneinfo').text);
  const minFreeKbytes = zones.ok ? minFreeKbytesFromZoneinfo(zones.zones) : null;
  const machine = c.program.config.machine;
  const sim = core.createSim({
    ...c.program.config,
    machine:
      machine.kind === 'explicit' && machine.captured
        ? { ...machine, captured: pcpListsFromTrace(machine.captured, machine, trace) }
        : machine,
    ...(minFreeKbytes !== null
      ? { tunables: { ...c.program.config.tunables, minFreeKbytes } }
      : {}),
  });
  sim.applyOps(c.program.ops);
  sim.clearEvents();
  if (sim.state().frozen) throw new Error(`the machine of ${folder} froze`);
  return sim;
}

export async function stateBench(): Promise<{ perPage: StatePerPage[]; restore: RestoreBench }> {
  const core = await loadCore();
  const perPage: StatePerPage[] = [];
  for (const preset of ['bench1m', 'bench1t']) {
    const sim = ran(core, randomWorkload(preset));
    const managed = sim
      .state()
      .nodes.flatMap((n) => n.zones)
      .reduce((a, z) => a + z.managed, 0);
    perPage.push({ preset, managed, arenaBytes: sim.size(), liveBytes: sim.snapshotBytes() });
    sim.dispose();
  }
  for (const [folder, label] of [
    ['1tib-kswapd', '1 TiB 99% in use + kswapd trace'],
    ['2tib-4node-kswapd', '2 TiB, 4 nodes, 99% in use + kswapd trace'],
  ] as const) {
    const big = capturedBig(core, folder);
    perPage.push({
      preset: label,
      managed: big
        .state()
        .nodes.flatMap((n) => n.zones)
        .reduce((a, z) => a + z.managed, 0),
      arenaBytes: big.size(),
      liveBytes: big.snapshotBytes(),
    });
    big.dispose();
  }
  const sim = ran(core, server2Workload());
  try {
    const heap = () => core.mod.HEAPU8;
    const eventsOff = sim.view().getUint32(sim.address + core.layout.off('sim.events_off'), true);
    const whole = heap().slice(sim.address, sim.address + eventsOff);
    const snap = sim.snapshot();
    const wholeMs = median(101, () => heap().set(whole, sim.address));
    const snapshotMs = median(101, () => sim.restore(snap));
    return {
      perPage,
      restore: { wholeBytes: whole.length, wholeMs, snapshotBytes: snap.length, snapshotMs },
    };
  } finally {
    sim.dispose();
  }
}
