/*
 * args.ts: the runner's command line. Bad arguments are user errors: a message and exit code 2,
 * never a stack trace.
 */
import {
  isPresetName,
  isProfileName,
  PROFILE_NAMES,
  PRESETS,
  type PresetName,
  type ProfileName,
} from '../../web/core/machine-config';

/** The machines the core knows by name (base/machine.def), for the usage text and errors. */
const PRESET_NAMES = Object.keys(PRESETS);

export const PRINTS = [
  'zoneinfo',
  'buddyinfo',
  'pagetypeinfo',
  'vmstat',
  'numastat',
  'events',
  'stats',
  'percpu_stats',
  'meminfo',
  'percpu_boot',
] as const;
export type PrintKind = (typeof PRINTS)[number];

export interface SimArgs {
  file: string | null; // workload file, "-" for stdin
  prints: PrintKind[];
  zoneinfo: string | null; // --machine-from-zoneinfo
  buddyinfo: string | null; // --buddyinfo, with --machine-from-zoneinfo
  pagetypeinfo: string | null; // --pagetypeinfo, with --machine-from-zoneinfo
  sysctl: string | null; // --sysctl: `sysctl vm` output, with --machine-from-zoneinfo
  lruState: string | null; // --lru-state: the capture's LRU folios, with --compare-trace
  machine: PresetName | null; // --machine
  profile: ProfileName | null; // --profile
  importTrace: string | null;
  compareTrace: string | null;
  reproduce: string | null; // --reproduce [NAME]: "" when no name was given
  json: boolean; // --json, with --reproduce
  help: boolean;
}

export const USAGE = `usage: npm run --silent sim -- FILE [--print WHAT]...
       npm run --silent sim -- --machine-from-zoneinfo ZONEINFO [--buddyinfo F] [--pagetypeinfo F]
                               [--sysctl F] [FILE] [--print WHAT]...
       npm run --silent sim -- --import-trace TRACE[.gz]
       npm run --silent sim -- --compare-trace TRACE[.gz] [--machine-from-zoneinfo ZONEINFO ...
                               [--lru-state F]]
       npm run --silent sim -- --compare-trace CAPTURE_DIR
       npm run --silent sim -- --reproduce NAME [--json]

  FILE                       a workload (docs/workload-language.md); "-" reads stdin
  --print WHAT               zoneinfo | buddyinfo | pagetypeinfo | vmstat | numastat | events | stats |
                             percpu_stats | meminfo (its Percpu: line) | percpu_boot (the boot line)
                             (repeatable; default buddyinfo). events: ftrace text of every event;
                             stats: JSON counters per zone, per CPU and machine-wide (C names)
  --machine-from-zoneinfo F  simulate the machine a real /proc/zoneinfo describes, in the state it
                             shows: each zone's free pages, each pageset's count and high, the rest
                             of memory in use (the workload's own machine line is then ignored)
  --buddyinfo F              with it: the free blocks per order, from /proc/buddyinfo
  --pagetypeinfo F           with it: the free blocks per order and migratetype and the pageblocks
                             per type, from /proc/pagetypeinfo
  --sysctl F                 with it: the vm sysctls (min_free_kbytes, watermark factors,
                             percpu_pagelist_high_fraction, ...) from \`sysctl vm\` output
  --machine PRESET           ${PRESET_NAMES.join(' | ')}, instead of the workload's
  --profile NAME             ${PROFILE_NAMES.join(' | ')}, instead of the workload's
  --import-trace F           kernel trace text to a workload on stdout (summary on stderr)
  --compare-trace F          run the imported trace and print real vs simulated pcp refill and
                             drain runs and mm_page_alloc_extfrag per CPU and order, and kswapd's
                             wakeups (slow path, boost), balance_pgdat runs and sleeps per CPU.
                             With --machine-from-zoneinfo, replayed from the captured state as
                             the fidelity test replays it (the pcp lists the trace shows, each
                             auto-tuned pageset's count as its first drains show it, the
                             trace's clock and vmstat runs). F may be a folder scripts/capture wrote:
                             its trace.gz, zoneinfo, buddyinfo, pagetypeinfo, sysctl-vm and
                             lru-state.gz are read from it
  --lru-state F              with --compare-trace: the capture's LRU folios (memcgs, lists,
                             orders), from scripts/capture's lru-state
  --reproduce NAME           run a seed reproduction (web/reproductions/) and print the model's
                             figures beside the source's; no or an unknown NAME lists them
  --json                     with --reproduce: {"seed", "title", "rows", "notes"} as JSON
Exit codes: 0 done, 2 bad input, 1 internal error.`;

export class UsageError extends Error {}

/** Parse argv (without node and the script). */
export function parseArgs(argv: string[]): SimArgs {
  const a: SimArgs = {
    file: null,
    prints: [],
    zoneinfo: null,
    buddyinfo: null,
    pagetypeinfo: null,
    sysctl: null,
    lruState: null,
    machine: null,
    profile: null,
    importTrace: null,
    compareTrace: null,
    reproduce: null,
    json: false,
    help: false,
  };
  const value = (i: number, opt: string): string => {
    const v = argv[i + 1];
    if (v === undefined || (v.startsWith('--') && v !== '-'))
      throw new UsageError(`${opt} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    // --opt=value is the same as --opt value
    if (eq > 0) {
      argv = [...argv.slice(0, i), arg.slice(0, eq), arg.slice(eq + 1), ...argv.slice(i + 1)];
    }
    const opt = argv[i] ?? '';
    switch (opt) {
      case '--help':
      case '-h':
        a.help = true;
        break;
      case '--print': {
        const v = value(i++, opt);
        if (!(PRINTS as readonly string[]).includes(v)) {
          throw new UsageError(`--print ${v}: expected one of ${PRINTS.join(', ')}`);
        }
        a.prints.push(v as PrintKind);
        break;
      }
      case '--machine-from-zoneinfo':
        a.zoneinfo = value(i++, opt);
        break;
      case '--buddyinfo':
        a.buddyinfo = value(i++, opt);
        break;
      case '--pagetypeinfo':
        a.pagetypeinfo = value(i++, opt);
        break;
      case '--sysctl':
        a.sysctl = value(i++, opt);
        break;
      case '--lru-state':
        a.lruState = value(i++, opt);
        break;
      case '--machine': {
        const v = value(i++, opt);
        if (!isPresetName(v))
          throw new UsageError(
            `--machine ${v}: expected ${PRESET_NAMES.slice(0, -1).join(', ')} or ${PRESET_NAMES.at(-1)}`,
          );
        a.machine = v;
        break;
      }
      case '--profile': {
        const v = value(i++, opt);
        if (!isProfileName(v))
          throw new UsageError(`--profile ${v}: expected one of ${PROFILE_NAMES.join(', ')}`);
        a.profile = v;
        break;
      }
      case '--import-trace':
        a.importTrace = value(i++, opt);
        break;
      case '--compare-trace':
        a.compareTrace = value(i++, opt);
        break;
      case '--reproduce': {
        // The name is optional: without one the runner lists the reproductions it knows.
        const v = argv[i + 1];
        a.reproduce = v === undefined || v.startsWith('-') ? '' : v;
        if (a.reproduce) i++;
        break;
      }
      case '--json':
        a.json = true;
        break;
      default:
        if (opt.startsWith('--') || (opt.startsWith('-') && opt !== '-'))
          throw new UsageError(`unknown option ${opt}`);
        if (a.file !== null)
          throw new UsageError(`one workload file only (got ${a.file} and ${opt})`);
        a.file = opt;
    }
  }
  if (a.help) return a;
  if (a.reproduce !== null) {
    if (
      a.file ||
      a.prints.length ||
      a.zoneinfo ||
      a.machine ||
      a.profile ||
      a.importTrace ||
      a.compareTrace
    )
      throw new UsageError('--reproduce runs its own workloads: give only NAME and --json');
    return a;
  }
  if (a.json) throw new UsageError('--json goes with --reproduce');
  if (a.importTrace && a.compareTrace)
    throw new UsageError('--import-trace and --compare-trace are separate runs: give one');
  if (a.importTrace && (a.file || a.prints.length || a.zoneinfo || a.machine || a.profile)) {
    throw new UsageError('--import-trace takes only the trace file');
  }
  if (a.compareTrace && (a.file || a.prints.length))
    throw new UsageError('--compare-trace runs the trace itself: give no workload file or --print');
  if (a.zoneinfo && a.machine)
    throw new UsageError('--machine-from-zoneinfo and --machine both choose the machine: give one');
  for (const [given, opt] of [
    [a.buddyinfo, '--buddyinfo'],
    [a.pagetypeinfo, '--pagetypeinfo'],
    [a.sysctl, '--sysctl'],
    [a.lruState, '--lru-state'],
  ] as const) {
    if (given && !a.zoneinfo)
      throw new UsageError(
        `${opt} describes the machine of --machine-from-zoneinfo: give that too`,
      );
  }
  if (a.lruState && !a.compareTrace)
    throw new UsageError('--lru-state goes with --compare-trace (a capture replayed)');
  if (!a.importTrace && !a.compareTrace && !a.file && !a.zoneinfo)
    throw new UsageError('no workload file given');
  if (a.prints.length === 0) a.prints.push('buddyinfo');
  return a;
}
