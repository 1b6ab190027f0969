/*
 * trace-import.ts: kernel trace text to a workload. Each mm_page_alloc becomes
 * `cpu N alloc hPFN order=K FLAGS [for=WHAT]` (the gfp names as the kernel printed them, so the
 * request's migratetype is the same; user memory joins an LRU list, purposeOfGfp), each mm_page_free / mm_page_free_batched of a page allocated earlier
 * in the trace becomes `cpu N free hPFN`. Handle groups are named after the pfn, so a free finds
 * the block its allocation made. Frees of pages the trace never saw allocated are skipped and
 * counted; so are failed allocations, frees by the kernel's reclaim (kswapd's, and those between
 * a task's direct_reclaim_begin and _end: the model's reclaim makes its own) and every other
 * event. Where the trace shows a node's kswapd running, `cpu N kswapd` puts the model's there. The percpu allocator's
 * percpu_alloc_percpu and percpu_free_percpu become `percpu alloc` and `percpu free` statements
 * (trace-import-percpu.ts), their areas matched by ptr= as pages are by pfn=.
 *
 * Time: the trace's timestamps order the ops and place the vmstat worker, which decays pcp->high
 * and drains what is above it once a second on each CPU (`cpu N tick`). A trace that recorded the
 * worker (workqueue_execute_start of vmstat_update, as scripts/capture/capture.sh does) gets a
 * tick exactly where each ran; otherwise every CPU that appears ticks at the kernel's interval:
 * sysctl_stat_interval = HZ rounded by round_jiffies_relative, i.e. on whole seconds of jiffies
 * less 3 jiffies per CPU number (its skew), taking the trace clock's whole seconds for jiffies'.
 */
import { GFP_BITS, GFP_NAMES, gfpMigratetype } from '../core/gfp';
import { MAX_CPUS, MAX_PAGE_ORDER_LIMIT } from '../core/machine-config';
import { PCP_TYPES, type FreeFoliosStmt, type OpStmt, type Workload } from './ast';
import { gfpMask } from './compiler';
import { didYouMean, type WorkloadError } from './errors';
import { freeListTypes } from './free-list-types';
import { PcpLockWindows } from './pcp-locked-frees';
import { KSWAPD_TASK, nonLruReclaimFrees } from './reclaim-singles';
import { parseTraceLine, traceNumber, type TraceRecord } from './ftrace';
import { formatCount } from '../core/count';
import { MAX_LIVE_BLOCKS, MAX_OPS, sourceTooLong } from './limits';
import { FOLIO_BATCH_SIZE } from './parser';
import { printWorkload } from './printer';
import { fieldColumn, percpuLine, PERCPU_TRACE_EVENTS } from './trace-import-percpu';

/** Where the vmstat ticks come from: the trace's own worker runs, the kernel's interval, or none. */
export type TickSource = 'auto' | 'traced' | 'interval' | 'none';

export interface TraceImportOptions {
  ticks?: TickSource; // default auto: traced when the trace has worker runs, else interval
  hz?: number; // CONFIG_HZ for the interval ticks; default 250 (x86-64 distribution kernels)
  // a free of a page the trace never saw allocated becomes `free_captured` (the machine boots in
  // the captured state, which holds that memory in use) instead of being skipped
  capturedFrees?: boolean;
  pageblockOrder?: number; // the machine's, for which pageblock a captured free's block is in; default 9
}

export interface TraceImportStats {
  lines: number;
  ticks: number; // `cpu N tick` ops put in
  tickSource: 'traced' | 'interval' | 'none';
  firstTime: number | null; // seconds, as the trace prints them
  lastTime: number | null;
  allocs: number; // imported mm_page_alloc
  frees: number; // imported frees
  failedAllocs: number; // mm_page_alloc with no page (pfn 0): nothing to replay
  unmatchedFrees: number; // frees of pages the trace never allocated (or freed twice)
  capturedFrees: number; // of those, replayed as frees of captured in-use memory
  pcpLockedFrees: number; // frees in an interrupt while their CPU's pcp lock was held (to the buddy)
  reclaimFrees: number; // frees by the kernel's reclaim (kswapd, direct reclaim): the model reclaims itself
  nonLruReclaimFrees: number; // kswapd's frees of pages on no LRU list (reclaim-singles.ts): ordinary frees
  kswapdMoves: number; // `cpu N kswapd` put in: where the trace saw each node's kswapd run
  folioBatches: number; // runs of frees replayed as one `free_folios` batch
  batchedRepeats: number; // mm_page_free_batched of a page whose mm_page_free came just before
  migratetypeMismatches: number; // migratetype= that the gfp flags would not give
  lostEvents: number; // "[LOST n EVENTS]" lines
  percpuAllocs: number; // imported percpu_alloc_percpu
  percpuFrees: number; // imported percpu_free_percpu
  percpuUnmatchedFrees: number; // percpu_free_percpu of areas the trace never allocated
  skipped: Map<string, number>; // other events by name
  maxCpu: number;
}

/** A block the kernel's reclaim freed that was in use before the trace began (its pfn, order). */
export interface ReclaimedBlock {
  pfn: number;
  order: number;
}

export type TraceImportResult =
  | {
      ok: true;
      workload: Workload;
      stats: TraceImportStats;
      times: number[]; // seconds of each op
      // reclaim's frees of memory allocated before the trace, in the trace's order: the folios
      // at the tails of the LRU lists (web/core/lru-tail.ts)
      reclaimed: ReclaimedBlock[];
    }
  | { ok: false; error: WorkloadError };

/** At most this many of reclaim's frees of captured memory are kept (a bound, not a kernel figure). */
const MAX_RECLAIMED = 1 << 16;

/** The vmstat worker's run in a trace line: workqueue_execute_start of vmstat_update. */
const VMSTAT_RUN = /workqueue_execute_start: work struct \S+: function vmstat_update\b/;

/** The handle group of a pfn: `h` and its hex digits. */
export function pfnGroup(pfn: number): string {
  return 'h' + pfn.toString(16);
}

/** The gfp_flags= text as workload flags: `none` is 0; names must be the kernel's. */
function gfpFlags(text: string): string[] | string {
  if (text === 'none' || text === '0') return ['0'];
  const flags = text.split('|');
  for (const f of flags) {
    if (!GFP_NAMES.has(f) && !/^0x[0-9a-fA-F]{1,8}$/.test(f)) {
      return `unknown gfp flag "${f}" in gfp_flags=${text}${didYouMean(f, GFP_NAMES.keys())}`;
    }
  }
  return flags;
}

/**
 * What an allocation was for, as far as its gfp flags say (the trace names no caller). User
 * memory is what may be moved and is bound to the task's cpuset (__GFP_MOVABLE and
 * __GFP_HARDWALL: GFP_HIGHUSER_MOVABLE and GFP_TRANSHUGE, or a file's mapping_gfp_mask); the
 * rest is kernel memory, on no LRU. Of user memory, 6.18 asks with __GFP_WRITE for page cache a
 * write(2) dirties (__filemap_get_folio with FGP_WRITE); with __GFP_ZERO for an anonymous fault
 * (vma_alloc_zeroed_movable_folio) and with __GFP_NOMEMALLOC for a THP (GFP_TRANSHUGE_LIGHT);
 * readahead adds __GFP_NORETRY to the mapping's mask (readahead_gfp_mask), and a mapping that
 * may not recurse into the filesystem lacks __GFP_FS: both are page cache. What is left (the
 * full GFP_HIGHUSER_MOVABLE: a copy-on-write copy, shmem) is swap-backed, anonymous.
 */
export function purposeOfGfp(mask: number): 'anon' | 'file' | 'file-dirty' | null {
  const has = (bit: number) => (mask & bit) !== 0;
  if (!has(GFP_BITS.__GFP_MOVABLE) || !has(GFP_BITS.__GFP_HARDWALL)) return null;
  if (has(GFP_BITS.__GFP_WRITE)) return 'file-dirty';
  if (has(GFP_BITS.__GFP_ZERO) || has(GFP_BITS.__GFP_NOMEMALLOC)) return 'anon';
  if (has(GFP_BITS.__GFP_NORETRY) || !has(GFP_BITS.__GFP_FS)) return 'file';
  return 'anon';
}

// the workload names the CPU, and the language stops at the model's largest machine
function checkCpu(cpu: number): string | null {
  return cpu >= MAX_CPUS
    ? `expected a CPU 0..${MAX_CPUS - 1} (the model's limit), found CPU ${cpu}`
    : null;
}

function checkOps(n: number): string | null {
  return n >= MAX_OPS ? `the trace gives more than ${formatCount(MAX_OPS)} ops (the limit)` : null;
}

const tooManyLive = `the trace holds more than ${formatCount(MAX_LIVE_BLOCKS)} live blocks (the limit)`;

export function importTrace(text: string, options: TraceImportOptions = {}): TraceImportResult {
  const hz = options.hz ?? 250;
  const wanted = options.ticks ?? 'auto';
  const tickSource: TraceImportStats['tickSource'] =
    wanted === 'auto' ? (VMSTAT_RUN.test(text) ? 'traced' : 'interval') : wanted;
  const stats: TraceImportStats = {
    lines: 0,
    ticks: 0,
    tickSource,
    firstTime: null,
    lastTime: null,
    allocs: 0,
    frees: 0,
    failedAllocs: 0,
    unmatchedFrees: 0,
    capturedFrees: 0,
    pcpLockedFrees: 0,
    reclaimFrees: 0,
    nonLruReclaimFrees: 0,
    kswapdMoves: 0,
    folioBatches: 0,
    batchedRepeats: 0,
    migratetypeMismatches: 0,
    lostEvents: 0,
    percpuAllocs: 0,
    percpuFrees: 0,
    percpuUnmatchedFrees: 0,
    skipped: new Map(),
    maxCpu: -1,
  };
  const ops: OpStmt[] = [];
  const times: number[] = [];
  const nextTick = new Map<number, number>(); // cpu -> jiffy of its next interval tick
  const live = new Map<number, number>(); // pfn -> live blocks allocated there
  // free_unref_folios() traces mm_page_free (in free_pages_prepare) and then mm_page_free_batched
  // for the same page: the second is the same free, not another one.
  const freedByMmPageFree = new Set<number>();
  const reclaimed: ReclaimedBlock[] = [];
  const livePercpu = new Map<string, number>(); // ptr -> live areas allocated there
  let liveTotal = 0; // page blocks and percpu areas: they share the core's handles
  const lines = text.split('\n');
  // frees in an interrupt while their CPU's pcp lock was held go to the buddy (pcp-locked-frees.ts)
  const pcpLocks = new PcpLockWindows();
  // the list each captured free reached, as the trace shows it (free-list-types.ts)
  const freeTypes = options.capturedFrees
    ? freeListTypes(lines, options.pageblockOrder ?? 9)
    : new Map<number, number>();
  // kswapdN's CPU, as the scheduler placed it: the model's kswapd frees to that CPU's lists
  const kswapdCpu = new Map<number, number>(); // node -> CPU of its kswapd's last line
  const inDirectReclaim = new Set<number>(); // pids between direct_reclaim_begin and _end
  // kswapd's frees of pages on no LRU list: frees like any other, not the model's reclaim's
  const nonLru = nonLruReclaimFrees(lines);
  for (const line of lines) {
    const k = KSWAPD_TASK.exec(line);
    if (!k) continue;
    const p = parseTraceLine(line);
    if (p.kind === 'record' && !kswapdCpu.has(Number(k[1])))
      kswapdCpu.set(Number(k[1]), p.record.cpu);
  }
  const kswapdOps: OpStmt[] = [...kswapdCpu.values()].map((cpu) => ({ kind: 'kswapd', cpu }));
  const error = (line: number, message: string): TraceImportResult => ({
    ok: false,
    error: { line, col: 1, message },
  });
  const field = (r: TraceRecord, key: string): string | undefined => r.fields.get(key);

  // every record in order, with how many ops there were before it: which ops it gave
  const records: RecordOps[] = [];
  for (const op of kswapdOps) {
    const limitError = checkCpu(op.kind === 'kswapd' ? op.cpu : 0);
    if (limitError) return error(1, limitError);
    ops.push(op);
    times.push(0);
    stats.kswapdMoves++;
  }
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const parsed = parseTraceLine(lines[i] ?? '');
    stats.lines = lineNo;
    if (parsed.kind === 'skip') continue;
    if (parsed.kind === 'lost') {
      stats.lostEvents += parsed.count;
      continue;
    }
    if (parsed.kind === 'malformed') return error(lineNo, `expected ${parsed.expected}`);
    const r = parsed.record;
    const pcpLocked = pcpLocks.lockedFree(r);
    records.push({ cpu: r.cpu, pid: r.pid, event: r.event, opsBefore: ops.length, pcpLocked });
    const time = Number(r.timestamp);
    if (stats.firstTime === null) stats.firstTime = time;
    if (time < (stats.lastTime ?? time))
      return error(
        lineNo,
        `timestamp ${r.timestamp} is earlier than the line before's: is the trace sorted?`,
      );
    stats.lastTime = time;
    if (r.cpu >= MAX_CPUS) {
      return error(
        lineNo,
        `expected a CPU 0..${MAX_CPUS - 1} (the model's limit), found CPU ${r.cpu}`,
      );
    }
    const tick = (cpu: number): TraceImportResult | null => {
      if (ops.length >= MAX_OPS)
        return error(lineNo, `the trace gives more than ${formatCount(MAX_OPS)} ops (the limit)`);
      ops.push({ kind: 'tick', count: 1, cpu });
      times.push(time);
      stats.ticks++;
      stats.maxCpu = Math.max(stats.maxCpu, cpu);
      return null;
    };
    if (tickSource === 'interval') {
      // round_jiffies_relative(HZ) on CPU c: whole seconds of jiffies, less c * 3 jiffies
      const jiffy = Math.floor(time * hz);
      if (!nextTick.has(r.cpu)) {
        const skew = 3 * r.cpu;
        nextTick.set(r.cpu, (Math.floor((jiffy + skew) / hz) + 1) * hz - skew);
      }
      for (const [cpu, at] of nextTick) {
        let due = at;
        // one tick per interval passed: the worker re-arms itself each time it runs
        for (let k = 0; due <= jiffy && k < MAX_OPS; k++) {
          const failed = tick(cpu);
          if (failed) return failed;
          due += hz;
        }
        nextTick.set(cpu, due);
      }
    } else if (tickSource === 'traced' && r.event === 'workqueue_execute_start') {
      if (VMSTAT_RUN.test(lines[i] ?? '')) {
        const failed = tick(r.cpu);
        if (failed) return failed;
        continue;
      }
    }
    const kswapd = KSWAPD_TASK.exec(lines[i] ?? '');
    if (kswapd) {
      const node = Number(kswapd[1]);
      if (kswapdCpu.get(node) !== r.cpu) {
        const limitError = checkCpu(r.cpu) ?? checkOps(ops.length);
        if (limitError) return error(lineNo, limitError);
        kswapdCpu.set(node, r.cpu);
        ops.push({ kind: 'kswapd', cpu: r.cpu });
        times.push(time);
        stats.kswapdMoves++;
      }
    }
    if (r.event === 'mm_vmscan_direct_reclaim_begin') inDirectReclaim.add(r.pid);
    else if (r.event === 'mm_vmscan_direct_reclaim_end') inDirectReclaim.delete(r.pid);
    if (nonLru.has(i)) stats.nonLruReclaimFrees++;
    else if (
      (kswapd || inDirectReclaim.has(r.pid)) &&
      (r.event === 'mm_page_free' || r.event === 'mm_page_free_batched')
    ) {
      // reclaim's frees: the model's own reclaim frees what it reclaims
      stats.reclaimFrees++;
      const pfn = traceNumber(field(r, 'pfn'));
      const order = traceNumber(field(r, 'order'));
      // the same free traced twice (freedByMmPageFree): one block, once
      const repeat = r.event === 'mm_page_free_batched' && freedByMmPageFree.delete(pfn ?? -1);
      if (pfn !== null && order !== null && order <= MAX_PAGE_ORDER_LIMIT && !repeat) {
        if (r.event === 'mm_page_free') freedByMmPageFree.add(pfn);
        if (!live.has(pfn) && reclaimed.length < MAX_RECLAIMED) reclaimed.push({ pfn, order });
      }
      continue;
    }
    if (PERCPU_TRACE_EVENTS.has(r.event)) {
      const p = percpuLine(r);
      if (p.kind === 'bad') {
        return {
          ok: false,
          error: {
            line: lineNo,
            col: fieldColumn(lines[i] ?? '', r.event, p.field),
            message: p.message,
          },
        };
      }
      const limitError = checkCpu(r.cpu) ?? checkOps(ops.length);
      if (limitError) return error(lineNo, limitError);
      const n = livePercpu.get(p.ptr) ?? 0;
      if (p.kind === 'alloc') {
        if (liveTotal >= MAX_LIVE_BLOCKS) return error(lineNo, tooManyLive);
        livePercpu.set(p.ptr, n + 1);
        liveTotal++;
        stats.percpuAllocs++;
      } else if (n === 0) {
        stats.percpuUnmatchedFrees++;
        continue;
      } else {
        if (n === 1) livePercpu.delete(p.ptr);
        else livePercpu.set(p.ptr, n - 1);
        liveTotal--;
        stats.percpuFrees++;
      }
      stats.maxCpu = Math.max(stats.maxCpu, r.cpu);
      ops.push(p.stmt);
      times.push(time);
      continue;
    }
    if (
      r.event !== 'mm_page_alloc' &&
      r.event !== 'mm_page_free' &&
      r.event !== 'mm_page_free_batched'
    ) {
      stats.skipped.set(r.event, (stats.skipped.get(r.event) ?? 0) + 1);
      continue;
    }
    const pfn = traceNumber(field(r, 'pfn'));
    const order = traceNumber(field(r, 'order'));
    if (pfn === null)
      return error(lineNo, `expected pfn=0x... in ${r.event}, found ${field(r, 'pfn') ?? 'none'}`);
    if (order === null || order > MAX_PAGE_ORDER_LIMIT) {
      return error(
        lineNo,
        `expected order=0..${MAX_PAGE_ORDER_LIMIT} in ${r.event}, found ${field(r, 'order') ?? 'none'}`,
      );
    }
    const limitError = checkCpu(r.cpu) ?? checkOps(ops.length);
    if (limitError) return error(lineNo, limitError);
    stats.maxCpu = Math.max(stats.maxCpu, r.cpu);
    if (r.event === 'mm_page_alloc') {
      const gfpText = field(r, 'gfp_flags');
      if (gfpText === undefined) return error(lineNo, 'expected gfp_flags= in mm_page_alloc');
      const gfp = gfpFlags(gfpText);
      if (typeof gfp === 'string') return error(lineNo, gfp);
      if (pfn === 0) {
        stats.failedAllocs++;
        continue;
      }
      const mt = traceNumber(field(r, 'migratetype'));
      if (mt !== null && mt !== gfpMigratetype(gfpMask(gfp))) stats.migratetypeMismatches++;
      if (liveTotal >= MAX_LIVE_BLOCKS) return error(lineNo, tooManyLive);
      ops.push({
        kind: 'alloc',
        cpu: r.cpu,
        group: pfnGroup(pfn),
        order,
        gfp,
        purpose: purposeOfGfp(gfpMask(gfp)),
      });
      times.push(time);
      live.set(pfn, (live.get(pfn) ?? 0) + 1);
      freedByMmPageFree.delete(pfn);
      liveTotal++;
      stats.allocs++;
    } else {
      const n = live.get(pfn) ?? 0;
      if (n === 0) {
        if (r.event === 'mm_page_free_batched' && freedByMmPageFree.delete(pfn)) {
          stats.batchedRepeats++;
        } else {
          stats.unmatchedFrees++;
          if (r.event === 'mm_page_free') freedByMmPageFree.add(pfn);
          if (options.capturedFrees) {
            if (ops.length >= MAX_OPS)
              return error(
                lineNo,
                `the trace gives more than ${formatCount(MAX_OPS)} ops (the limit)`,
              );
            const type = PCP_TYPES[freeTypes.get(i) ?? -1];
            ops.push({
              kind: 'free_captured',
              cpu: r.cpu,
              order,
              pfn,
              ...(type !== undefined ? { type } : {}),
              ...(pcpLocked ? { pcpLocked } : {}),
            });
            if (pcpLocked) stats.pcpLockedFrees++;
            times.push(time);
            stats.capturedFrees++;
          }
        }
        continue;
      }
      if (r.event === 'mm_page_free') freedByMmPageFree.add(pfn);
      if (n === 1) live.delete(pfn);
      else live.set(pfn, n - 1);
      liveTotal--;
      ops.push({
        kind: 'free',
        cpu: r.cpu,
        group: pfnGroup(pfn),
        all: false,
        ...(pcpLocked ? { pcpLocked } : {}),
      });
      times.push(time);
      stats.frees++;
      if (pcpLocked) stats.pcpLockedFrees++;
    }
  }
  const batched = gatherFolioBatches(records, ops, times);
  stats.folioBatches = batched.batches;
  return {
    ok: true,
    workload: { machine: null, profile: null, sets: [], seed: null, ops: batched.ops },
    stats,
    times: batched.times,
    reclaimed,
  };
}

/** A trace record and where its ops begin in the op list. */
interface RecordOps {
  cpu: number;
  pid: number;
  event: string;
  opsBefore: number;
  pcpLocked: boolean; // a free whose CPU's pcp lock was held (pcp-locked-frees.ts)
}

/**
 * free_unref_folios frees a folio batch (munmap's, reclaim's: up to FOLIO_BATCH_SIZE) in two
 * loops: free_pages_prepare traces mm_page_free for every folio, then each goes to the pcp, where
 * a commit may drain (mm_page_pcpu_drain). So a task's consecutive frees on a CPU followed there by
 * a drain end with the batch whose commits drained: its last 31 frees at most are replayed as
 * one `free_folios` batch, so the drains come after all its mm_page_free lines, as in the trace.
 * Frees of memory allocated before the trace (`free_captured`) join it as captured blocks.
 * The run's earlier frees committed without draining, in batches or alone: the lists went
 * through the same states either way, as they would if the batch were single frees: only the
 * lines' order differs. (munmap's mmu_gather hands folios over from a first bundle of 8, then in
 * batches of 31, so the batch that drains is mostly a full one.) The batch moves to its last
 * free, past other CPUs' ops in between.
 */
function gatherFolioBatches(
  records: RecordOps[],
  ops: OpStmt[],
  times: number[],
): { ops: OpStmt[]; times: number[]; batches: number } {
  const runs = new Map<number, { pid: number; at: number[] }>(); // cpu -> its frees' op indices
  const removed = new Set<number>();
  let batches = 0;
  records.forEach((rec, k) => {
    const next = records[k + 1]?.opsBefore ?? ops.length;
    const made = ops.slice(rec.opsBefore, next);
    const op = made[0];
    const run = runs.get(rec.cpu);
    if (rec.event === 'mm_page_pcpu_drain') {
      runs.delete(rec.cpu);
      if (!run) return;
      // the batch whose commits drained: the last FOLIO_BATCH_SIZE frees before the drain at
      // most, none of a group twice (freed, allocated elsewhere, freed again)
      const at: number[] = [];
      const folios: FreeFoliosStmt['folios'] = [];
      const seen = new Set<string>();
      for (let i = run.at.length - 1; i >= 0 && at.length < FOLIO_BATCH_SIZE; i--) {
        const free = ops[run.at[i] ?? -1];
        if (free?.kind === 'free_captured') {
          const { order, pfn, type } = free;
          folios.unshift({
            order,
            ...(pfn !== undefined ? { pfn } : {}),
            ...(type ? { type } : {}),
          });
        } else if (free?.kind === 'free' && !seen.has(free.group)) {
          seen.add(free.group);
          folios.unshift(free.group);
        } else break;
        at.unshift(run.at[i] ?? -1);
      }
      if (at.length < 2) return;
      for (const i of at.slice(0, -1)) removed.add(i);
      ops[at[at.length - 1] ?? -1] = { kind: 'free_folios', cpu: rec.cpu, folios };
      batches++;
    } else if (
      rec.event === 'mm_page_free' &&
      made.length === 1 &&
      (op?.kind === 'free' || op?.kind === 'free_captured') &&
      !op.pcpLocked &&
      (!run || run.pid === rec.pid)
    ) {
      if (run) run.at.push(rec.opsBefore);
      else runs.set(rec.cpu, { pid: rec.pid, at: [rec.opsBefore] });
    } else if (!(rec.event === 'mm_page_free_batched' && made.length === 0)) {
      // anything else the CPU did ends the run (a batched line repeating its mm_page_free does not)
      runs.delete(rec.cpu);
    }
  });
  if (removed.size === 0) return { ops, times, batches };
  return {
    ops: ops.filter((_, i) => !removed.has(i)),
    times: times.filter((_, i) => !removed.has(i)),
    batches,
  };
}

/** The importer's summary, one line (for stderr and the editor's status). */
export function describeImport(s: TraceImportStats): string {
  const skipped = [...s.skipped.entries()].map(([name, n]) => `${name} ${n}`).join(', ');
  const percpu = s.percpuAllocs + s.percpuFrees + s.percpuUnmatchedFrees > 0;
  const parts: string[] = [];
  if (!percpu || s.allocs + s.frees + s.unmatchedFrees + s.capturedFrees > 0) {
    parts.push(
      `imported ${s.allocs} allocs and ${s.frees} frees`,
      s.capturedFrees
        ? `${s.capturedFrees} frees of pages allocated before the trace, as frees of captured memory`
        : `skipped ${s.unmatchedFrees} frees of pages not allocated in the trace`,
    );
  }
  if (s.ticks)
    parts.push(
      `${s.ticks} vmstat ticks (${s.tickSource === 'traced' ? "the trace's own vmstat_update runs" : 'at the kernel interval'})`,
    );
  if (percpu) {
    parts.push(
      `imported ${s.percpuAllocs} percpu allocs and ${s.percpuFrees} percpu frees; skipped ${s.percpuUnmatchedFrees} percpu frees of areas not allocated in the trace`,
    );
  }
  if (s.folioBatches)
    parts.push(`${s.folioBatches} runs of frees followed by a drain as folio batches`);
  if (s.pcpLockedFrees)
    parts.push(
      `${s.pcpLockedFrees} frees in an interrupt while their CPU's pcp lock was held, to the buddy`,
    );
  if (s.reclaimFrees)
    parts.push(`${s.reclaimFrees} frees by the kernel's reclaim left to the model's reclaim`);
  if (s.nonLruReclaimFrees)
    parts.push(
      `${s.nonLruReclaimFrees} frees by kswapd of pages on no LRU list, as ordinary frees`,
    );
  if (s.batchedRepeats)
    parts.push(`${s.batchedRepeats} mm_page_free_batched repeating their mm_page_free`);
  if (s.failedAllocs) parts.push(`${s.failedAllocs} failed allocations`);
  if (skipped) parts.push(`other events: ${skipped}`);
  if (s.lostEvents) parts.push(`the trace lost ${s.lostEvents} events`);
  if (s.migratetypeMismatches)
    parts.push(
      `${s.migratetypeMismatches} allocations whose migratetype= differs from their gfp flags`,
    );
  return parts.join('; ');
}

/**
 * An imported trace as workload text under a header comment, or why it cannot be one: a long
 * trace can import to more text than a workload may hold, and must be refused here rather than
 * handed to the editor as if it would run.
 */
export function importedWorkloadText(
  workload: Workload,
  header: string,
): { ok: true; text: string } | { ok: false; message: string } {
  const text = `${header}\n${printWorkload(workload)}`;
  const tooLong = sourceTooLong(text.length);
  if (tooLong)
    return {
      ok: false,
      message: `the trace imports to ${formatCount(workload.ops.length)} ops, too many to run: ${tooLong}; trace a shorter stretch`,
    };
  return { ok: true, text };
}
