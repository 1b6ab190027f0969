/*
 * main.ts: the command-line runner (scripts/sim.mjs starts it). Runs a workload on the wasm core
 * and prints /proc files, trace text or counters; builds a machine from a real /proc/zoneinfo;
 * imports kernel traces as workloads and compares their refill and drain runs with the model's.
 * User errors print `sim: FILE:LINE:COL: message` and exit 2; only bugs exit 1.
 */
import { statSync } from 'node:fs';
import {
  machineCpuCount,
  MAX_EVENT_CAPACITY,
  ZONE_NAMES,
  type ExplicitMachine,
  type MachineConfig,
  type PresetMachine,
  type Tunables,
} from '../../web/core/machine-config';
import { loadCore, type Core } from '../../web/core/module';
import { SIM_ERRORS, type Sim } from '../../web/core/sim';
import { findReproduction } from '../../web/reproductions/index';
import type { Workload } from '../../web/workload/ast';
import { compileWorkload, type CompiledProgram } from '../../web/workload/compiler';
import { formatError, type WorkloadError } from '../../web/workload/errors';
import { parseWorkload } from '../../web/workload/parser';
import { describeImport, importedWorkloadText, importTrace } from '../../web/workload/trace-import';
import { captureReplayCounted, type FoundCount } from '../../web/workload/pcp-count-replay';
import {
  compareExtfragTable,
  compareKswapdTable,
  kernelCounts,
  modelCounts,
  type CaptureTexts,
} from '../../web/workload/trace-compare';
import { compareRunsTable } from '../../web/workload/trace-runs';
import {
  machineFromCapture,
  minFreeKbytesFromZoneinfo,
  tunablesFromSysctl,
} from '../../web/workload/captured-state';
import { parseZoneinfo } from '../../web/workload/zoneinfo-machine';
import { parseArgs, USAGE, UsageError, type PrintKind, type SimArgs } from './args';
import {
  captureFolderPaths,
  capturePathOf,
  readCapture,
  vmstatDelta,
  type CapturePaths,
} from './capture-folder';
import { InputError, readText } from './input';
import { note, Output } from './output';
import { listReproductions, renderReproduction } from './reproduce';
import { statsJson, type RunSummary } from './stats';

/** Whether path names a folder (a capture's), not a file. */
function isDirectory(path: string): boolean {
  try {
    return path !== '-' && statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A user error: printed as is, exit code 2. */
class BadInput extends Error {}

function positioned(file: string, e: WorkloadError): BadInput {
  return new BadInput(`${file}:${formatError(e)}`);
}

/** Events the CLI's Sims keep between clears: one op's worth, even a drain of a big machine. */
const EVENT_CAPACITY = Math.min(1 << 18, MAX_EVENT_CAPACITY);

export async function main(argv: string[]): Promise<number> {
  let args: SimArgs;
  try {
    args = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`sim: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (args.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const out = new Output();
  try {
    if (args.reproduce !== null) await runReproduce(args.reproduce, args.json, out);
    else if (args.importTrace) runImport(args.importTrace, out);
    else if (args.compareTrace) await runCompare(args, args.compareTrace, out);
    else await runWorkload(args, out);
    await out.end();
    return 0;
  } catch (e) {
    await out.end();
    if (e instanceof BadInput || e instanceof InputError) {
      process.stderr.write(`sim: ${e.message}\n`);
      return 2;
    }
    const err = e instanceof Error ? e : new Error(String(e));
    process.stderr.write(`sim: internal error: ${err.message}\n`);
    if (process.env.BUDDYSCOPE_DEBUG) process.stderr.write(`${err.stack ?? ''}\n`);
    return 1;
  }
}

/** The machine of --machine-from-zoneinfo, in the state its files show. */
function zoneinfoMachine(args: SimArgs, path: string): ExplicitMachine {
  const file = (p: string | null) => (p ? { name: p, text: readText(p) } : undefined);
  const buddyinfo = file(args.buddyinfo);
  const pagetypeinfo = file(args.pagetypeinfo);
  const m = machineFromCapture(
    { name: path, text: readText(path) },
    { ...(buddyinfo ? { buddyinfo } : {}), ...(pagetypeinfo ? { pagetypeinfo } : {}) },
  );
  if (!m.ok) throw positioned(m.file, m.error);
  return m.machine;
}

/**
 * The capture's tunables: min_free_kbytes as the zones' min watermarks of --machine-from-zoneinfo
 * show it (as --compare-trace takes it), then --sysctl's over it. Without it a captured machine
 * got the boot-time rule (calculate_min_free_kbytes over the managed pages it shows), which the
 * capture's marks need not follow: managed pages move after boot, and an administrator may have
 * written the sysctl. The 1 TiB zoneinfo's marks say 129700 KiB, the rule 129684: 4 pages low.
 */
function sysctlTunables(args: SimArgs): Partial<Tunables> | undefined {
  let tunables: Partial<Tunables> | undefined;
  if (args.zoneinfo) {
    const zones = parseZoneinfo(readText(args.zoneinfo));
    const minFreeKbytes = zones.ok ? minFreeKbytesFromZoneinfo(zones.zones) : null;
    if (minFreeKbytes !== null) tunables = { minFreeKbytes };
  }
  if (!args.sysctl) return tunables;
  const t = tunablesFromSysctl(readText(args.sysctl));
  if (!t.ok) throw positioned(args.sysctl, t.error);
  return { ...tunables, ...t.tunables };
}

/** config with --sysctl's tunables over the workload's (the capture's sysctls are the machine's). */
function withSysctl(args: SimArgs, config: MachineConfig): MachineConfig {
  const t = sysctlTunables(args);
  return t ? { ...config, tunables: { ...config.tunables, ...t } } : config;
}

/** The machine chosen on the command line, if any. */
function machineOverride(args: SimArgs): PresetMachine | ExplicitMachine | undefined {
  if (args.zoneinfo) return zoneinfoMachine(args, args.zoneinfo);
  if (args.machine) return { kind: 'preset', name: args.machine };
  return undefined;
}

function compileOrFail(
  file: string,
  w: Workload,
  args: SimArgs,
  positions?: WeakMap<object, { line: number; col: number }>,
  fallback?: PresetMachine,
): CompiledProgram {
  const machine = machineOverride(args) ?? fallback;
  if (machine && w.machine) {
    note(
      `${file}: its machine line is ignored: the machine comes from ${args.zoneinfo ?? `--machine ${args.machine ?? ''}`}`,
    );
  }
  const profiled: Workload = args.profile ? { ...w, profile: args.profile } : w;
  const c = compileWorkload(
    profiled,
    machine ? { machine, ...(positions ? { positions } : {}) } : positions ? { positions } : {},
  );
  if (!c.ok) throw positioned(file, c.error);
  return c.program;
}

/** Run every op, one at a time; onOp sees each op's events before they are cleared. */
function run(sim: Sim, program: CompiledProgram, onOp?: (index: number) => void): RunSummary {
  const summary: RunSummary = { ops: 0, refused: new Map(), events: 0, eventsDropped: 0 };
  summary.ops = sim.runOps(program.ops, (index, err) => {
    // SIM_ENOMEM is the allocator saying no, not a refused op: it shows in the events.
    if (err !== 0 && err !== 1) {
      const name = SIM_ERRORS[err] ?? `error ${err}`;
      summary.refused.set(name, (summary.refused.get(name) ?? 0) + 1);
    }
    summary.events += sim.eventCount();
    summary.eventsDropped += sim.eventsDropped();
    onOp?.(index);
  });
  return summary;
}

function reportRun(summary: RunSummary, sim: Sim, lines?: Uint32Array): void {
  if (summary.refused.size) {
    note(`refused ops: ${[...summary.refused.entries()].map(([k, v]) => `${k} ×${v}`).join(', ')}`);
  }
  if (summary.eventsDropped) note(`${summary.eventsDropped} events were dropped (buffer full)`);
  if (sim.frozen()) {
    // the op that froze it: the last one applied, at its source line when the program has them
    const line = lines?.[sim.opCount() - 1] ?? 0;
    const why = sim.frozenReason() ?? sim.check() ?? 'corrupted';
    note(`${line ? `line ${line}: ` : ''}the state froze: ${why}`);
  }
}

async function runWorkload(args: SimArgs, out: Output): Promise<void> {
  const file = args.file ?? '(no workload)';
  const text = args.file ? readText(args.file) : '';
  const parsed = parseWorkload(text);
  if (!parsed.ok) throw positioned(file, parsed.error);
  const program = compileOrFail(file, parsed.workload, args, parsed.positions);
  const core = await loadCore();
  let sim: Sim;
  try {
    sim = core.createSim(withSysctl(args, { ...program.config, eventCapacity: EVENT_CAPACITY }));
  } catch (e) {
    throw new BadInput(`${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const printEvents = args.prints.includes('events');
  const summary = run(sim, program, printEvents ? () => out.write(sim.trace()) : undefined);
  reportRun(summary, sim, program.lines);
  for (const what of args.prints) printAfterRun(what, sim, summary, out);
  sim.dispose();
}

function printAfterRun(what: PrintKind, sim: Sim, summary: RunSummary, out: Output): void {
  switch (what) {
    case 'events':
      return; // printed while running
    case 'stats':
      out.write(statsJson(sim, summary));
      return;
    case 'percpu_stats':
      out.write(sim.percpuText('percpu_stats'));
      return;
    case 'meminfo':
      out.write(sim.percpuText('meminfo'));
      return;
    case 'percpu_boot':
      out.write(`${sim.percpuText('boot')}\n`);
      return;
    default:
      out.write(sim.proc(what));
  }
}

function importOrFail(path: string) {
  const imported = importTrace(readText(path));
  if (!imported.ok) throw positioned(path, imported.error);
  return imported;
}

async function runReproduce(name: string, json: boolean, out: Output): Promise<void> {
  const r = findReproduction(name);
  if (!r) {
    const why = name ? `no reproduction called "${name}"` : '--reproduce needs a NAME';
    throw new BadInput(`${why}; the known ones:\n${listReproductions()}`);
  }
  out.write(renderReproduction(await loadCore(), r, json));
}

function runImport(path: string, out: Output): void {
  const imported = importOrFail(path);
  const text = importedWorkloadText(
    imported.workload,
    '# imported from a kernel trace by npm run sim -- --import-trace',
  );
  if (!text.ok) throw new BadInput(`${path}: ${text.message}`);
  out.write(text.text);
  note(describeImport(imported.stats));
}

/**
 * A capture replayed as the fidelity test replays it (captureReplayCounted): its machine in the
 * captured state, the pcp lists and counts the trace shows, its memory cgroups and folios when the
 * lru-state is given, the trace's clock and vmstat runs. Errors name the file given.
 */
function replayCapture(core: Core, paths: CapturePaths, texts: CaptureTexts) {
  const counts: FoundCount[] = [];
  const r = captureReplayCounted(core, texts, EVENT_CAPACITY, counts);
  if (!r.ok) throw positioned(capturePathOf(paths, r.file), r.error);
  note(describeImport(r.stats));
  for (const { cpu, node, zone, count } of counts)
    note(
      `CPU ${cpu}'s ${ZONE_NAMES[zone] ?? zone} pageset of node ${node} held ${count} pages at the trace's start, as its first drains show`,
    );
  return r;
}

/** Refill and drain runs of a real trace, from its lines. */
async function runCompare(args: SimArgs, given: string, out: Output): Promise<void> {
  // a captured machine: a capture folder, or the trace with --machine-from-zoneinfo's files
  let paths: CapturePaths | null = args.zoneinfo
    ? {
        trace: given,
        zoneinfo: args.zoneinfo,
        buddyinfo: args.buddyinfo,
        pagetypeinfo: args.pagetypeinfo,
        sysctl: args.sysctl,
        lruState: args.lruState,
        vmstatBefore: null,
        vmstatAfter: null,
      }
    : null;
  if (isDirectory(given)) {
    if (paths || args.machine)
      throw new BadInput(
        `${given} is a capture folder, which names its machine: give no --machine-from-zoneinfo, --machine or its files`,
      );
    paths = captureFolderPaths(given);
  }
  const path = paths?.trace ?? given;
  if (paths) {
    const texts = readCapture(paths);
    const core = await loadCore();
    const r = replayCapture(core, paths, texts);
    const config = args.profile ? { ...r.config, profile: args.profile } : r.config;
    let scanned = 0;
    const model = modelCounts(core, config, r.ops, (sim) => {
      scanned = sim.state().vm.pgscanKswapd;
    });
    writeComparison(out, path, config, model, kernelCounts(texts.trace));
    if (paths.vmstatBefore && paths.vmstatAfter) {
      const real = vmstatDelta(paths, 'pgscan_kswapd');
      out.write(
        `pgscan_kswapd (vmstat-after - vmstat-before): real ${Number.isNaN(real) ? '-' : real}, sim ${scanned}\n`,
      );
    }
    return;
  }
  const text = readText(path);
  const imported = importTrace(text);
  if (!imported.ok) throw positioned(path, imported.error);
  note(describeImport(imported.stats));
  if (!args.machine) note('no --machine-from-zoneinfo: running on the laptop machine');
  const program = compileOrFail(path, imported.workload, args, undefined, {
    kind: 'preset',
    name: 'laptop',
  });
  const core = await loadCore();
  const config = { ...program.config, eventCapacity: EVENT_CAPACITY };
  writeComparison(out, path, config, modelCounts(core, config, program.ops), kernelCounts(text));
}

/** The kernel's runs, extfrag events and kswapd beside the model's, with what went wrong. */
function writeComparison(
  out: Output,
  path: string,
  config: MachineConfig,
  model: ReturnType<typeof modelCounts>,
  real: ReturnType<typeof kernelCounts>,
): void {
  if (model.summary.refused.size)
    note(
      `refused ops: ${[...model.summary.refused.entries()].map(([k, v]) => `${k} ×${v}`).join(', ')}`,
    );
  if (model.summary.eventsDropped)
    note(`${model.summary.eventsDropped} events were dropped (buffer full)`);
  if (model.summary.frozen) note(`the state froze: ${model.summary.frozen}`);
  const m = config.machine;
  const managed = m.kind === 'explicit' ? m.zones.flat().reduce((n, z) => n + z.managed, 0) : null;
  out.write(`trace: ${path}\n`);
  out.write(
    `model: profile ${config.profile ?? '6.18'}, ${machineCpuCount(m)} CPUs${managed !== null ? `, ${managed} managed pages` : ''}${m.kind === 'explicit' && m.captured ? ', booted in the captured state' : ''}\n\n`,
  );
  const nothingReal = real.runs.refill.size === 0 && real.runs.drain.size === 0;
  if (nothingReal)
    out.write(
      '(the trace has no mm_page_alloc_zone_locked percpu_refill=1 or mm_page_pcpu_drain lines: its pcp lists never refilled or drained while tracing, or those events were not enabled)\n\n',
    );
  out.write(compareRunsTable(real.runs, model.counts.runs));
  out.write(compareExtfragTable(real, model.counts));
  out.write(compareKswapdTable(real, model.counts));
}
