/*
 * parser.ts: workload text to a Workload tree (docs/workload-language.md). Recursive descent over
 * the tokens, one statement per line; defaults are filled in here so the tree is canonical. The
 * first error stops the parse and comes back as a value with its line and column: the parser never
 * throws, whatever the text.
 */
import {
  PRESETS,
  PROFILE_NAMES,
  isPresetName,
  isProfileName,
  MAX_CPUS,
  MAX_CPUS_PER_NODE,
  MAX_NR_ZONES,
  MAX_NUMNODES,
  MAX_PAGEBLOCKS,
  MAX_PAGE_ORDER_LIMIT,
  MAX_PCP_BATCH,
  MAX_SWAP_PAGES,
  ZONE_NAMES,
} from '../core/machine-config';
import { SYSCTLS, sysctlInRange, type SysctlInfo } from '../core/generated/sysctls';
import { SYSCTL_WORDS, sysctlRefusal, sysctlWordValue } from '../core/sysctl-words';
import { DEFAULT_PROFILE } from '../core/profiles';
import { GFP_DEFAULT, GFP_NAMES } from '../core/gfp';
import type {
  AddressSpaceStmt,
  CapturedFolio,
  ExplicitMachineSpec,
  FreeFoliosStmt,
  GfpSpec,
  MachineSpec,
  OpStmt,
  Purpose,
  SourceMap,
  SysctlName,
  SysctlSetting,
  Workload,
} from './ast';
import { PCP_TYPES, PERCPU_FREE_ORDERS, PURPOSES, SYSCTL_NAMES, type PcpType } from './ast';
import { didYouMean, fail, WorkloadFailure, type WorkloadError } from './errors';
import {
  MAX_MANAGED_PAGES,
  MAX_NAME_LENGTH,
  MAX_OPS,
  MAX_REPEAT_DEPTH,
  sourceTooLong,
  MAX_TICKS,
} from './limits';
import {
  ADDRESS_SPACE_WORDS,
  isAddressSpaceWord,
  isProt,
  MAX_MM,
  MAX_WORK_NS,
  MAX_TOUCH_PAGES,
  VA_PAGES,
} from './address-space';
import { describeToken, TokenStream, type Token } from './tokenizer';
import { formatCount } from '../core/count';

export type ParseResult =
  { ok: true; workload: Workload; positions: SourceMap } | { ok: false; error: WorkloadError };

const MAX_CPU = MAX_CPUS - 1;
const U32_MAX = 0xffffffff;
/** FOLIO_BATCH_SIZE (6.18 include/linux/pagevec.h): the folios one free_unref_folios frees. */
export const FOLIO_BATCH_SIZE = 31;

/** Words that start an op, for "expected" messages and suggestions (and the editor's vocabulary). */
export const OP_WORDS = [
  'alloc',
  'free',
  'drain',
  'corrupt',
  'random',
  'free_pfn',
  'free_captured',
  'free_folios',
  'offline',
  'online',
  'kswapd',
  'percpu',
  ...ADDRESS_SPACE_WORDS, // touch among them: `touch NAME` and `touch at=PAGE` share the word
] as const;
/** Words after `percpu`. */
export const PERCPU_WORDS = ['alloc', 'free', 'balance'] as const;
/** PCPU_MIN_UNIT_SIZE: the largest percpu request (include/linux/percpu.h). */
export const PCPU_MAX_SIZE = 32 * 1024;
/** PAGE_SIZE: the largest percpu alignment. */
export const PCPU_MAX_ALIGN = 4096;
const STATEMENT_WORDS = ['machine', 'profile', 'set', 'seed', 'cpu', 'tick', 'repeat', ...OP_WORDS];
/** Keys of an explicit `machine` line. */
export const MACHINE_KEYS = [
  'nodes',
  'cpus',
  'max_order',
  'pageblock_order',
  'thp',
  'batch',
  'swap',
  'dma',
  'dma32',
  'normal',
  'movable',
] as const;
type MachineKey = (typeof MACHINE_KEYS)[number];

function isMachineKey(k: string): k is MachineKey {
  return (MACHINE_KEYS as readonly string[]).includes(k);
}

function isSysctlName(k: string): k is SysctlName {
  return (SYSCTL_NAMES as readonly string[]).includes(k);
}

/** Parse workload text; never throws. */
export function parseWorkload(text: string): ParseResult {
  try {
    const tooLong = sourceTooLong(text.length);
    if (tooLong) fail({ line: 1, col: 1 }, `${tooLong} (use repeat)`);
    const parser = new Parser(new TokenStream(text));
    const workload = parser.workload();
    return { ok: true, workload, positions: parser.positions };
  } catch (e) {
    if (e instanceof WorkloadFailure) return { ok: false, error: e.error };
    throw e;
  }
}

class Parser {
  readonly positions: SourceMap = new WeakMap();
  private firstOp: Token | null = null;
  private machineAt: Token | null = null;
  private profileAt: Token | null = null;
  // the word-valued settings and where they were written (sysctlRefusal checks them at the end)
  private readonly wordSets: { at: Token; name: SysctlName; value: number }[] = [];
  private seedAt: Token | null = null;
  private readonly result: Workload = {
    machine: null,
    profile: null,
    sets: [],
    seed: null,
    ops: [],
  };

  constructor(private readonly tokens: TokenStream) {}

  private peek(ahead = 0): Token {
    return this.tokens.peek(ahead);
  }

  private next(): Token {
    return this.tokens.next();
  }

  private atStatementEnd(): boolean {
    const k = this.peek().kind;
    return k === 'newline' || k === 'eof' || k === 'rbrace';
  }

  private skipNewlines(): void {
    while (this.peek().kind === 'newline') this.next();
  }

  /** The statement is complete: only its end may follow. */
  private endStatement(what: string): void {
    if (!this.atStatementEnd()) {
      const t = this.peek();
      fail(t, `expected end of line after ${what}, found ${describeToken(t)}`);
    }
  }

  private expectWord(what: string): Token {
    const t = this.peek();
    if (t.kind !== 'word') fail(t, `expected ${what}, found ${describeToken(t)}`);
    return this.next();
  }

  /** A decimal or 0x-hex integer in [min, max]. */
  private integer(
    what: string,
    min: number,
    max: number,
    limitNote = '',
  ): { value: number; at: Token } {
    const t = this.expectWord(what);
    const value = parseNumber(t.text);
    if (value === null) fail(t, `expected ${what}, found ${describeToken(t)}`);
    if (value < min || value > max) {
      if (limitNote && value > max) fail(t, `${what} ${t.text} is above ${limitNote}`);
      fail(
        t,
        `${what} must be between ${formatCount(min)} and ${formatCount(max)}, found ${t.text}`,
      );
    }
    return { value, at: t };
  }

  /** `key=` has been seen as the current word; consume it and the `=`. */
  private keyEquals(): Token {
    const key = this.next();
    this.next(); // '='
    return key;
  }

  private isKeyValue(): boolean {
    return this.peek().kind === 'word' && this.peek(1).kind === 'equals';
  }

  workload(): Workload {
    for (;;) {
      this.skipNewlines();
      const t = this.peek();
      if (t.kind === 'eof') break;
      if (t.kind === 'rbrace') fail(t, 'expected a statement, found "}" with no open repeat');
      const op = this.statement(0);
      if (op) this.result.ops.push(op);
    }
    // values a kernel version refuses, once the profile (which may come later) is known
    const profile = this.result.profile ?? DEFAULT_PROFILE;
    for (const ws of this.wordSets) {
      const why = sysctlRefusal(profile, ws.name, ws.value);
      if (why) fail(ws.at, why);
    }
    return this.result;
  }

  /** One statement; header statements fill the result and return null. */
  private statement(depth: number): OpStmt | null {
    const t = this.peek();
    if (t.kind !== 'word')
      fail(t, `expected a statement (${STATEMENT_WORDS.join(', ')}), found ${describeToken(t)}`);
    switch (t.text) {
      case 'machine':
      case 'profile':
      case 'set':
      case 'seed':
        this.header(depth);
        return null;
      default: {
        if (this.firstOp === null) this.firstOp = t;
        const op = this.op(depth);
        this.positions.set(op, { line: t.line, col: t.col });
        return op;
      }
    }
  }

  private header(depth: number): void {
    const t = this.next();
    if (depth > 0)
      fail(t, `${t.text} may not appear inside repeat: it must come before the first op`);
    if (this.firstOp !== null) {
      fail(t, `${t.text} must come before the first op (line ${this.firstOp.line})`);
    }
    switch (t.text) {
      case 'machine': {
        if (this.machineAt)
          fail(
            t,
            `a second machine line (the first is at ${this.machineAt.line}:${this.machineAt.col})`,
          );
        this.machineAt = t;
        const m = this.machine(t);
        this.result.machine = m;
        this.positions.set(m, { line: t.line, col: t.col });
        this.endStatement('the machine');
        return;
      }
      case 'profile': {
        if (this.profileAt)
          fail(
            t,
            `a second profile line (the first is at ${this.profileAt.line}:${this.profileAt.col})`,
          );
        this.profileAt = t;
        const w = this.expectWord(`a profile (${PROFILE_NAMES.join(', ')})`);
        if (!isProfileName(w.text)) {
          fail(
            w,
            `unknown profile "${w.text}": expected ${PROFILE_NAMES.join(', ')}${didYouMean(w.text, PROFILE_NAMES)}`,
          );
        }
        this.result.profile = w.text;
        this.endStatement('the profile');
        return;
      }
      case 'set': {
        if (this.atStatementEnd())
          fail(
            this.peek(),
            `expected NAME=VALUE after set (${SYSCTL_NAMES.join(', ')}), found ${describeToken(this.peek())}`,
          );
        while (!this.atStatementEnd()) {
          const s = this.setting();
          this.result.sets.push(s);
        }
        return;
      }
      case 'seed': {
        if (this.seedAt)
          fail(t, `a second seed line (the first is at ${this.seedAt.line}:${this.seedAt.col})`);
        this.seedAt = t;
        const w = this.expectWord('a seed (a number)');
        const v = parseBigNumber(w.text);
        if (v === null || v > 0xffffffffffffffffn)
          fail(w, `expected a seed between 0 and 2^64-1, found ${describeToken(w)}`);
        this.result.seed = v;
        this.endStatement('the seed');
        return;
      }
    }
  }

  private machine(at: Token): MachineSpec {
    const presets = Object.keys(PRESETS);
    if (!this.isKeyValue()) {
      const w = this.expectWord(`a machine (${presets.join(', ')}) or key=value`);
      if (!isPresetName(w.text)) {
        fail(
          w,
          `unknown machine "${w.text}": expected ${presets.join(', ')} or key=value${didYouMean(w.text, presets)}`,
        );
      }
      return { kind: 'preset', name: w.text };
    }
    const seen = new Map<MachineKey, number>();
    const where = new Map<MachineKey, Token>();
    while (!this.atStatementEnd()) {
      if (!this.isKeyValue())
        fail(
          this.peek(),
          `expected key=value (${MACHINE_KEYS.join(', ')}), found ${describeToken(this.peek())}`,
        );
      const key = this.keyEquals();
      if (!isMachineKey(key.text)) {
        fail(
          key,
          `unknown machine key "${key.text}": expected ${MACHINE_KEYS.join(', ')}${didYouMean(key.text, MACHINE_KEYS)}`,
        );
      }
      if (seen.has(key.text)) fail(key, `${key.text} is given twice`);
      let v: number;
      switch (key.text) {
        case 'nodes':
          v = this.integer('nodes', 1, MAX_NUMNODES, `the limit of ${MAX_NUMNODES} nodes`).value;
          break;
        case 'cpus':
          v = this.integer(
            'cpus',
            1,
            MAX_CPUS_PER_NODE,
            `the limit of ${MAX_CPUS_PER_NODE} CPUs per node`,
          ).value;
          break;
        case 'max_order':
          v = this.integer('max_order', 1, MAX_PAGE_ORDER_LIMIT).value;
          break;
        case 'pageblock_order':
          v = this.integer('pageblock_order', 0, MAX_PAGE_ORDER_LIMIT).value;
          break;
        case 'thp':
          v = this.integer('thp', 0, 1).value;
          break;
        case 'batch':
          v = this.integer('batch', 1, MAX_PCP_BATCH).value;
          break;
        case 'swap':
          v = this.integer(
            'swap pages',
            0,
            MAX_SWAP_PAGES,
            `the limit of ${formatCount(MAX_SWAP_PAGES)} swap pages`,
          ).value;
          break;
        default:
          v = this.integer(
            `${key.text} pages`,
            0,
            MAX_MANAGED_PAGES,
            `the limit of ${formatCount(MAX_MANAGED_PAGES)} managed pages`,
          ).value;
      }
      seen.set(key.text, v);
      where.set(key.text, key);
    }
    const maxOrder = seen.get('max_order') ?? MAX_PAGE_ORDER_LIMIT;
    const m: ExplicitMachineSpec = {
      kind: 'explicit',
      nodes: seen.get('nodes') ?? 1,
      cpus: seen.get('cpus') ?? 2,
      maxOrder,
      // x86-64: pageblock_order is HPAGE_PMD_ORDER (9), never above MAX_PAGE_ORDER.
      pageblockOrder: seen.get('pageblock_order') ?? Math.min(9, maxOrder),
      thp: (seen.get('thp') ?? 1) === 1,
      batch: seen.get('batch') ?? 0,
      swap: seen.get('swap') ?? 0,
      dma: seen.get('dma') ?? 0,
      dma32: seen.get('dma32') ?? 0,
      normal: seen.get('normal') ?? 0,
      movable: seen.get('movable') ?? 0,
    };
    if (m.pageblockOrder > m.maxOrder) {
      fail(
        where.get('pageblock_order') ?? at,
        `pageblock_order ${m.pageblockOrder} is above max_order ${m.maxOrder}`,
      );
    }
    if (m.nodes * m.cpus > MAX_CPUS) {
      fail(
        where.get('cpus') ?? at,
        `${m.nodes} nodes of ${m.cpus} CPUs are ${m.nodes * m.cpus} CPUs: above the limit of ${MAX_CPUS} CPUs`,
      );
    }
    const perNode = m.dma + m.dma32 + m.normal + m.movable;
    if (perNode === 0)
      fail(at, 'expected at least one zone with pages (dma=N, dma32=N, normal=N or movable=N)');
    if (perNode * m.nodes > MAX_MANAGED_PAGES) {
      fail(
        at,
        `the machine has ${formatCount(perNode * m.nodes)} managed pages: above the limit of ${formatCount(MAX_MANAGED_PAGES)} (16 TiB) managed pages`,
      );
    }
    // a pageblock tag per 2^pageblock_order pages (and a partial one at each end of a zone)
    const pageblocks =
      Math.ceil(perNode / 2 ** m.pageblockOrder) * m.nodes + 2 * MAX_NR_ZONES * m.nodes;
    if (pageblocks > MAX_PAGEBLOCKS) {
      fail(
        where.get('pageblock_order') ?? at,
        `the machine would have ${formatCount(pageblocks)} pageblocks: above the limit of ${formatCount(MAX_PAGEBLOCKS)} (16 TiB at pageblock_order 9)`,
      );
    }
    return m;
  }

  private setting(): SysctlSetting {
    if (!this.isKeyValue())
      fail(
        this.peek(),
        `expected NAME=VALUE (${SYSCTL_NAMES.join(', ')}), found ${describeToken(this.peek())}`,
      );
    const key = this.keyEquals();
    if (!isSysctlName(key.text)) {
      fail(
        key,
        `unknown sysctl "${key.text}": expected ${SYSCTL_NAMES.join(', ')}${didYouMean(key.text, SYSCTL_NAMES)}`,
      );
    }
    const name = key.text;
    // The kernel's range checks, as op_sysctl applies them (page_alloc/sysctls.def).
    const info = SYSCTLS.find((t) => t.name === name);
    if (!info) return fail(key, `unknown sysctl "${name}"`);
    const words = SYSCTL_WORDS[name];
    if (words) {
      // a word-valued tunable (numa_zonelist_order): one word, checked against the profile later
      const w = this.expectWord(`${name}'s value (${words.join(', ')})`);
      const value = sysctlWordValue(name, w.text);
      if (value === null)
        fail(
          w,
          `${name} must be ${words.join(', ')} (the first letter decides), found "${w.text}"`,
        );
      this.wordSets.push({ at: w, name, value });
      return { name, values: [value] };
    }
    const values = [this.sysctlValue(info)];
    while (info.count > 1 && this.peek().kind === 'comma') {
      const comma = this.next();
      if (values.length === info.count)
        fail(
          comma,
          `${name} has one value per zone: at most ${info.count} (${ZONE_NAMES.slice(0, info.count).join(', ')})`,
        );
      values.push(this.sysctlValue(info));
    }
    return { name, values };
  }

  /** One value of a tunable, range-checked as the kernel checks it. */
  private sysctlValue(info: SysctlInfo): number {
    const v = this.integer(info.name, info.zeroOk ? 0 : info.min, info.max);
    if (!sysctlInRange(info, v.value))
      fail(v.at, `${info.name} must be 0 or at least ${formatCount(info.min)}, found ${v.value}`);
    return v.value;
  }

  /** One of a closed set of words (`what` says what they name, for the error). */
  private oneOf<T extends string>(words: readonly T[], what: string): T {
    const v = this.next();
    if (v.kind !== 'word' || !(words as readonly string[]).includes(v.text))
      fail(
        v,
        `expected ${what} (${words.join(', ')}), found ${describeToken(v)}${v.kind === 'word' ? didYouMean(v.text, words) : ''}`,
      );
    return v.text as T;
  }

  private op(depth: number): OpStmt {
    const first = this.next();
    let cpu = 0;
    let verb = first;
    let cpuGiven = false;
    if (first.text === 'cpu') {
      cpu = this.integer(
        'a cpu number',
        0,
        MAX_CPU,
        `the highest, ${MAX_CPU} (CPUs are numbered from 0; the model has at most ${MAX_CPU + 1})`,
      ).value;
      cpuGiven = true;
      verb = this.peek();
      if (verb.kind !== 'word')
        fail(
          verb,
          `expected an op after cpu ${cpu} (${OP_WORDS.join(', ')}), found ${describeToken(verb)}`,
        );
      this.next();
    }
    switch (verb.text) {
      case 'alloc': {
        const group = this.groupName();
        let order: number | null = null;
        let gfp: GfpSpec | null = null;
        let purpose: Purpose | null = null;
        while (!this.atStatementEnd()) {
          if (this.isKeyValue()) {
            const key = this.keyEquals();
            if (key.text === 'for') {
              if (purpose !== null) fail(key, 'for is given twice');
              purpose = this.oneOf(PURPOSES, 'what the memory is for');
              continue;
            }
            if (key.text !== 'order')
              fail(
                key,
                `unknown option "${key.text}=" of alloc: expected order=K, for=${PURPOSES.join('|')} or gfp flags`,
              );
            if (order !== null) fail(key, 'order is given twice');
            order = this.integer('order', 0, MAX_PAGE_ORDER_LIMIT).value;
          } else {
            if (gfp !== null)
              fail(
                this.peek(),
                `expected end of line after the gfp flags, found ${describeToken(this.peek())}`,
              );
            gfp = this.gfp();
          }
        }
        // user memory and page cache come from GFP_HIGHUSER_MOVABLE (mapping_gfp_mask's default)
        const fallbackGfp = purpose ? 'GFP_HIGHUSER_MOVABLE' : GFP_DEFAULT;
        return { kind: 'alloc', cpu, group, order: order ?? 0, gfp: gfp ?? [fallbackGfp], purpose };
      }
      case 'touch': {
        // two forms: `touch at=PAGE ...` is a thread's access to its address space (a fault when
        // not mapped); `touch NAME` marks a handle group's memory accessed (reclaim's LRU)
        if (this.isKeyValue()) return this.addressSpace(verb, cpu);
        const group = this.groupName();
        let all = false;
        if (this.peek().kind === 'star') {
          this.next();
          all = true;
        }
        this.endStatement(
          all ? `touch ${group} *` : `touch ${group} (add "*" to touch every block)`,
        );
        return { kind: 'touch_group', cpu, group, all };
      }
      case 'free': {
        const group = this.groupName();
        let all = false;
        let batched = false;
        let pcpLocked = false;
        if (this.peek().kind === 'star') {
          this.next();
          all = true;
          if (this.peek().kind === 'word' && this.peek().text === 'batched') {
            this.next();
            batched = true;
          }
        } else if (this.peek().kind === 'word' && this.peek().text === 'pcp_locked') {
          this.next();
          pcpLocked = true;
        }
        this.endStatement(
          all
            ? `free ${group} * [batched]`
            : `free ${group} [pcp_locked] (add "*" to free every block)`,
        );
        if (batched) return { kind: 'free', cpu, group, all, batched };
        return pcpLocked
          ? { kind: 'free', cpu, group, all, pcpLocked }
          : { kind: 'free', cpu, group, all };
      }
      case 'free_folios': {
        // a folio batch (free_unref_folios): up to FOLIO_BATCH_SIZE groups' blocks and captured
        // blocks (`captured order=K ...`), freed together
        const folios: FreeFoliosStmt['folios'] = [];
        do {
          if (folios.length >= FOLIO_BATCH_SIZE)
            fail(this.peek(), `a folio batch holds at most ${FOLIO_BATCH_SIZE} blocks`);
          const t = this.peek();
          if (t.kind === 'word' && t.text === 'captured' && this.peek(1).kind !== 'equals') {
            this.next();
            folios.push(this.capturedFields(true).folio);
          } else folios.push(this.groupName());
        } while (!this.atStatementEnd());
        this.endStatement('free_folios GROUP GROUP ...');
        return { kind: 'free_folios', cpu, folios };
      }
      case 'drain': {
        if (this.peek().kind === 'word' && this.peek().text === 'all') {
          const all = this.next();
          if (cpuGiven) fail(all, 'drain all drains every CPU: write it without cpu N');
          this.endStatement('drain all');
          return { kind: 'drain_all' };
        }
        this.endStatement('drain (or "drain all")');
        return { kind: 'drain', cpu };
      }
      case 'tick': {
        if (cpuGiven) {
          // one CPU's vmstat worker, where a timed trace puts it: no count
          this.endStatement(`cpu ${cpu} tick (one CPU's vmstat run takes no count)`);
          return { kind: 'tick', count: 1, cpu };
        }
        let count = 1;
        if (!this.atStatementEnd())
          count = this.integer(
            'tick count',
            1,
            MAX_TICKS,
            `the limit of ${formatCount(MAX_TICKS)} intervals`,
          ).value;
        this.endStatement('tick N');
        return { kind: 'tick', count };
      }
      case 'kswapd':
      case 'offline':
      case 'online': {
        if (!cpuGiven) fail(verb, `expected cpu N before ${verb.text} (e.g. cpu 1 ${verb.text})`);
        this.endStatement(`cpu ${cpu} ${verb.text}`);
        return { kind: verb.text, cpu };
      }
      case 'corrupt':
        this.endStatement('corrupt');
        return { kind: 'corrupt', cpu };
      case 'random': {
        const count = this.integer(
          'random step count',
          0,
          MAX_OPS,
          `the limit of ${formatCount(MAX_OPS)} ops`,
        ).value;
        let maxOrder: number | null = null;
        let freePercent: number | null = null;
        let gfp: GfpSpec | null = null;
        while (!this.atStatementEnd()) {
          if (this.isKeyValue()) {
            const key = this.keyEquals();
            if (key.text === 'max_order') {
              if (maxOrder !== null) fail(key, 'max_order is given twice');
              maxOrder = this.integer('max_order', 0, MAX_PAGE_ORDER_LIMIT).value;
            } else if (key.text === 'free') {
              if (freePercent !== null) fail(key, 'free is given twice');
              freePercent = this.integer('free percent', 0, 100).value;
            } else {
              fail(
                key,
                `unknown option "${key.text}=" of random: expected max_order=K, free=PCT or gfp flags`,
              );
            }
          } else {
            if (gfp !== null)
              fail(
                this.peek(),
                `expected end of line after the gfp flags, found ${describeToken(this.peek())}`,
              );
            gfp = this.gfp();
          }
        }
        // max_order defaults to PAGE_ALLOC_COSTLY_ORDER: every order the pcp lists hold.
        return {
          kind: 'random',
          cpu,
          count,
          maxOrder: maxOrder ?? 3,
          freePercent: freePercent ?? 50,
          gfp: gfp ?? [GFP_DEFAULT],
        };
      }
      case 'free_pfn': {
        const pfn = this.integer('a pfn', 0, U32_MAX - 1).value;
        let order = 0;
        if (!this.atStatementEnd()) {
          if (!this.isKeyValue() || this.peek().text !== 'order')
            fail(
              this.peek(),
              `expected order=K or end of line, found ${describeToken(this.peek())}`,
            );
          this.keyEquals();
          order = this.integer('order', 0, MAX_PAGE_ORDER_LIMIT).value;
        }
        this.endStatement('free_pfn PFN order=K');
        return { kind: 'free_pfn', cpu, pfn, order };
      }
      case 'free_captured': {
        // a block allocated before the trace began, of memory the captured state holds in use
        const { folio, pcpLocked } = this.capturedFields(false);
        this.endStatement('free_captured order=K pfn=P type=T pcp_locked');
        return { kind: 'free_captured', cpu, ...folio, ...(pcpLocked ? { pcpLocked } : {}) };
      }
      case 'percpu':
        return this.percpu(cpu);
      case 'thread':
      case 'mmap':
      case 'munmap':
      case 'mprotect':
      case 'work':
        return this.addressSpace(verb, cpu);
      case 'repeat': {
        if (cpuGiven) fail(verb, 'repeat takes no cpu: put cpu N on the statements inside');
        return this.repeat(verb, depth);
      }
      case 'machine':
      case 'profile':
      case 'set':
      case 'seed':
        return fail(verb, `expected an op after cpu ${cpu}, found "${verb.text}"`);
      default:
        return fail(
          verb,
          `expected ${cpuGiven ? 'an op' : 'a statement'} (${(cpuGiven ? OP_WORDS : STATEMENT_WORDS).join(', ')}), found ${describeToken(verb)}${didYouMean(verb.text, cpuGiven ? OP_WORDS : STATEMENT_WORDS)}`,
        );
    }
  }

  /** After `percpu`: alloc, free or balance (mm/percpu.c's requests, checked as pcpu_alloc checks them). */
  private percpu(cpu: number): OpStmt {
    const w = this.expectWord(`alloc, free or balance after percpu`);
    switch (w.text) {
      case 'alloc': {
        const group = this.groupName();
        let size: number | null = null;
        let align: number | null = null;
        let reserved = false;
        let atomic = false;
        while (!this.atStatementEnd()) {
          if (this.isKeyValue()) {
            const key = this.keyEquals();
            if (key.text === 'size') {
              if (size !== null) fail(key, 'size is given twice');
              const v = this.integer('size', 0, U32_MAX);
              // pcpu_alloc: WARN and NULL for size 0 or above PCPU_MIN_UNIT_SIZE
              if (v.value === 0 || v.value > PCPU_MAX_SIZE)
                fail(
                  v.at,
                  `percpu size must be 1 to ${PCPU_MAX_SIZE} bytes (PCPU_MIN_UNIT_SIZE): the kernel refuses ${v.value}`,
                );
              size = v.value;
            } else if (key.text === 'align') {
              if (align !== null) fail(key, 'align is given twice');
              const v = this.integer('align', 0, U32_MAX);
              // pcpu_alloc: WARN and NULL for align above PAGE_SIZE or not a power of two
              if (v.value === 0 || v.value > PCPU_MAX_ALIGN || (v.value & (v.value - 1)) !== 0)
                fail(
                  v.at,
                  `percpu align must be a power of two from 1 to ${PCPU_MAX_ALIGN} (PAGE_SIZE): the kernel refuses ${v.value}`,
                );
              align = v.value;
            } else {
              fail(
                key,
                `unknown option "${key.text}=" of percpu alloc: expected size=S, align=A, reserved or atomic`,
              );
            }
          } else {
            const flag = this.expectWord('size=S, align=A, reserved or atomic');
            if (flag.text === 'reserved' && !reserved) reserved = true;
            else if (flag.text === 'atomic' && !atomic) atomic = true;
            else if (flag.text === 'reserved' || flag.text === 'atomic')
              fail(flag, `${flag.text} is given twice`);
            else
              fail(
                flag,
                `expected size=S, align=A, reserved or atomic, found ${describeToken(flag)}${didYouMean(flag.text, ['reserved', 'atomic'])}`,
              );
          }
        }
        if (size === null)
          fail(this.peek(), `percpu alloc ${group} needs size=S (bytes, 1 to ${PCPU_MAX_SIZE})`);
        return { kind: 'percpu_alloc', cpu, group, size, align: align ?? 4, reserved, atomic };
      }
      case 'free': {
        const group = this.groupName();
        if (this.peek().kind !== 'star') {
          this.endStatement(
            `percpu free ${group} (add "* in-order", "* alternating" or "* reverse" to free every area)`,
          );
          return { kind: 'percpu_free', cpu, group, order: null };
        }
        this.next();
        let order: (typeof PERCPU_FREE_ORDERS)[number] = 'in-order';
        if (!this.atStatementEnd()) {
          const o = this.expectWord(`a free order (${PERCPU_FREE_ORDERS.join(', ')})`);
          const known = PERCPU_FREE_ORDERS.find((x) => x === o.text);
          if (!known)
            fail(
              o,
              `unknown free order "${o.text}": expected ${PERCPU_FREE_ORDERS.join(', ')}${didYouMean(o.text, PERCPU_FREE_ORDERS)}`,
            );
          order = known;
        }
        this.endStatement(`percpu free ${group} * ${order}`);
        return { kind: 'percpu_free', cpu, group, order };
      }
      case 'balance':
        this.endStatement('percpu balance');
        return { kind: 'percpu_balance', cpu };
      default:
        return fail(
          w,
          `expected alloc, free or balance after percpu, found ${describeToken(w)}${didYouMean(w.text, PERCPU_WORDS)}`,
        );
    }
  }

  /** `thread|mmap|munmap|mprotect|touch` and their key=value options (address-space.ts). */
  private addressSpace(verb: Token, cpu: number): AddressSpaceStmt {
    if (!isAddressSpaceWord(verb.text)) return fail(verb, `unknown statement ${verb.text}`);
    const kind = verb.text;
    if (kind === 'work') {
      if (!this.isKeyValue() || this.peek().text !== 'ns')
        fail(this.peek(), `expected ns=N after work (e.g. cpu ${cpu} work ns=5000)`);
      this.keyEquals();
      const ns = this.integer('a time in ns', 1, MAX_WORK_NS).value;
      this.endStatement('work ns=N');
      return { kind, cpu, mm: 0, at: 0, pages: ns, prot: '', file: false, write: false };
    }
    const keys: Record<string, readonly string[]> = {
      thread: ['mm'],
      mmap: ['mm', 'at', 'pages', 'prot'],
      munmap: ['mm', 'at', 'pages'],
      mprotect: ['mm', 'at', 'pages', 'prot'],
      touch: ['mm', 'at', 'pages'],
    };
    const words: Record<string, readonly string[]> = {
      thread: [],
      mmap: ['file'],
      munmap: [],
      mprotect: [],
      touch: ['read', 'write'],
    };
    const seen = new Map<string, number | string>();
    let file = false;
    let write: boolean | null = null;
    const allowed = keys[kind] ?? [];
    while (!this.atStatementEnd()) {
      if (this.isKeyValue()) {
        const key = this.keyEquals();
        if (!allowed.includes(key.text))
          fail(
            key,
            `unknown option "${key.text}=" of ${kind}: expected ${allowed.map((k) => `${k}=`).join(', ')}${didYouMean(key.text, allowed)}`,
          );
        if (seen.has(key.text)) fail(key, `${key.text} is given twice`);
        if (key.text === 'prot') {
          const p = this.expectWord('a protection (r, rw, rx, rwx, none ...)');
          if (!isProt(p.text))
            fail(
              p,
              `expected a protection made of r, w, x in that order, or none, found "${p.text}"`,
            );
          seen.set('prot', p.text);
        } else if (key.text === 'mm') {
          seen.set('mm', this.integer('a process number', 0, MAX_MM).value);
        } else if (key.text === 'at') {
          seen.set('at', this.integer('a page number', 0, VA_PAGES - 1).value);
        } else {
          const max = kind === 'touch' ? MAX_TOUCH_PAGES : VA_PAGES;
          seen.set('pages', this.integer('a page count', 1, max).value);
        }
        continue;
      }
      const w = this.expectWord(`an option of ${kind}`);
      if (!(words[kind] ?? []).includes(w.text))
        fail(
          w,
          `unexpected "${w.text}" in ${kind}: expected ${[...allowed.map((k) => `${k}=`), ...(words[kind] ?? [])].join(', ')}`,
        );
      if (w.text === 'file') {
        if (file) fail(w, 'file is given twice');
        file = true;
      } else {
        if (write !== null) fail(w, 'read or write is given twice');
        write = w.text === 'write';
      }
    }
    const need = (key: string) =>
      seen.has(key) ||
      fail(this.peek(), `${kind} needs ${key}= (e.g. cpu ${cpu} ${kind} at=0 pages=64)`);
    if (kind !== 'thread') need('at');
    if (kind === 'mmap' || kind === 'munmap' || kind === 'mprotect') need('pages');
    if (kind === 'mprotect') need('prot');
    const at = (seen.get('at') as number | undefined) ?? 0;
    const pages = (seen.get('pages') as number | undefined) ?? (kind === 'touch' ? 1 : 0);
    if (kind !== 'thread' && at + pages > VA_PAGES)
      fail(
        this.peek(),
        `the range at=${at} pages=${pages} ends past the ${VA_PAGES}-page window of a process`,
      );
    return {
      kind,
      cpu,
      mm: (seen.get('mm') as number | undefined) ?? 0,
      at,
      pages,
      prot: kind === 'mmap' || kind === 'mprotect' ? ((seen.get('prot') as string) ?? 'rw') : '',
      file,
      write: kind === 'touch' ? (write ?? true) : false,
    };
  }

  private repeat(at: Token, depth: number): OpStmt {
    if (depth + 1 > MAX_REPEAT_DEPTH)
      fail(at, `repeat nests deeper than the limit of ${MAX_REPEAT_DEPTH}`);
    const count = this.integer(
      'a repeat count',
      0,
      MAX_OPS,
      `the limit of ${formatCount(MAX_OPS)} ops`,
    ).value;
    const open = this.peek();
    if (open.kind !== 'lbrace')
      fail(open, `expected "{" after repeat ${count}, found ${describeToken(open)}`);
    this.next();
    const body: OpStmt[] = [];
    for (;;) {
      this.skipNewlines();
      const t = this.peek();
      if (t.kind === 'rbrace') {
        this.next();
        break;
      }
      if (t.kind === 'eof')
        fail(t, `expected "}" to close the repeat at ${at.line}:${at.col}, found end of file`);
      const op = this.statement(depth + 1);
      if (op) body.push(op);
      if (!this.atStatementEnd())
        fail(this.peek(), `expected end of line, found ${describeToken(this.peek())}`);
    }
    this.endStatement('"}"');
    return { kind: 'repeat', count, body };
  }

  /**
   * The fields of a captured block: `order=K pfn=P type=T`, each once, and for `free_captured` the
   * word `pcp_locked`; in a folio batch (inBatch) they end at the batch's next block (a word not
   * followed by `=`), elsewhere at the end of the line.
   */
  private capturedFields(inBatch: boolean): { folio: CapturedFolio; pcpLocked: boolean } {
    let order = 0;
    let pfn: number | undefined;
    let type: PcpType | undefined;
    let pcpLocked = false;
    const keys = new Set<string>();
    while (!this.atStatementEnd()) {
      const key = this.peek();
      if (inBatch && !this.isKeyValue()) break; // the batch's next block
      if (key.kind === 'word' && key.text === 'pcp_locked' && !this.isKeyValue() && !pcpLocked) {
        this.next();
        pcpLocked = true;
        continue;
      }
      if (
        !this.isKeyValue() ||
        (key.text !== 'order' && key.text !== 'pfn' && key.text !== 'type') ||
        keys.has(key.text)
      )
        fail(
          key,
          inBatch
            ? `expected order=K, pfn=P or type=${PCP_TYPES.join('|')} of a captured block, or the next block, found ${describeToken(key)}`
            : `expected order=K, pfn=P, type=${PCP_TYPES.join('|')}, pcp_locked or end of line, found ${describeToken(key)}`,
        );
      keys.add(key.text);
      this.keyEquals();
      if (key.text === 'order') order = this.integer('order', 0, MAX_PAGE_ORDER_LIMIT).value;
      else if (key.text === 'pfn') pfn = this.integer('a pfn', 0, U32_MAX - 1).value;
      else type = this.oneOf(PCP_TYPES, 'a migratetype with pcp lists');
    }
    const folio = {
      order,
      ...(pfn !== undefined ? { pfn } : {}),
      ...(type !== undefined ? { type } : {}),
    };
    return { folio, pcpLocked };
  }

  private groupName(): string {
    const t = this.peek();
    if (t.kind !== 'word' || this.peek(1).kind === 'equals') {
      fail(t, `expected a handle group name, found ${describeToken(t)}`);
    }
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(t.text)) {
      fail(
        t,
        `expected a handle group name (a letter or "_", then letters, digits or "_"), found ${describeToken(t)}`,
      );
    }
    if (t.text.length > MAX_NAME_LENGTH)
      fail(t, `a handle group name may have at most ${MAX_NAME_LENGTH} characters`);
    this.next();
    return t.text;
  }

  /** Flags joined by `|`: kernel names or numbers, kept as written. */
  private gfp(): GfpSpec {
    const flags: string[] = [];
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'word') fail(t, `expected a gfp flag, found ${describeToken(t)}`);
      if (!GFP_NAMES.has(t.text)) {
        const n = parseNumber(t.text);
        if (n === null || n > U32_MAX) {
          fail(t, `unknown gfp flag "${t.text}"${didYouMean(t.text, GFP_NAMES.keys())}`);
        }
      }
      this.next();
      flags.push(t.text);
      if (this.peek().kind !== 'pipe') break;
      this.next();
    }
    return flags;
  }
}

/** A decimal or 0x-hex integer up to 2^53, or null. */
export function parseNumber(text: string): number | null {
  const v = parseBigNumber(text);
  if (v === null || v > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(v);
}

function parseBigNumber(text: string): bigint | null {
  if (/^[0-9]{1,30}$/.test(text)) return BigInt(text);
  if (/^0[xX][0-9a-fA-F]{1,24}$/.test(text)) return BigInt(text);
  return null;
}
