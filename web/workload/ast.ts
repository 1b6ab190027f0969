/*
 * ast.ts: a parsed workload as plain data (docs/workload-language.md). Defaults are filled in by
 * the parser, so the tree is already canonical: printing it and parsing the text back gives an
 * equal tree. Source positions live beside the tree (see SourceMap), not in it, for the same reason.
 */
import { SYSCTLS, type SysctlName } from '../core/generated/sysctls';
import type { PresetName, ProfileName } from '../core/machine-config';

/** `machine PRESET` */
export interface PresetMachineSpec {
  kind: 'preset';
  name: PresetName;
}

/** `machine nodes=N cpus=N ...`: zone sizes are pages per node; 0 means no such zone. */
export interface ExplicitMachineSpec {
  kind: 'explicit';
  nodes: number;
  cpus: number; // per node
  maxOrder: number;
  pageblockOrder: number;
  thp: boolean;
  batch: number; // teaching override of every zone's pcp batch; 0 = the kernel's zone_batchsize()
  dma: number;
  dma32: number;
  normal: number;
  movable: number;
}

export type MachineSpec = PresetMachineSpec | ExplicitMachineSpec;

/** The sysctls `set` may write: every tunable of the sysctls.def files. */
export const SYSCTL_NAMES: readonly SysctlName[] = SYSCTLS.map((s) => s.name);
export type { SysctlName };

/** One NAME=VALUE of a `set` line; lowmem_reserve_ratio has one value per zone, the others one. */
export interface SysctlSetting {
  name: SysctlName;
  values: number[];
}

/** A gfp mask as written: names (or numbers such as `0x40`) joined by `|`, in the order given. */
export type GfpSpec = string[];

export interface AllocStmt {
  kind: 'alloc';
  cpu: number;
  group: string;
  order: number;
  gfp: GfpSpec;
}

export interface FreeStmt {
  kind: 'free';
  cpu: number;
  group: string;
  all: boolean; // `free NAME *`: every live block, oldest first
}

export interface DrainStmt {
  kind: 'drain';
  cpu: number;
}

export interface DrainAllStmt {
  kind: 'drain_all';
}

export interface TickStmt {
  kind: 'tick';
  count: number;
}

export interface HotplugStmt {
  kind: 'offline' | 'online';
  cpu: number;
}

export interface CorruptStmt {
  kind: 'corrupt';
  cpu: number;
}

export interface RandomStmt {
  kind: 'random';
  cpu: number;
  count: number;
  maxOrder: number;
  freePercent: number;
  gfp: GfpSpec;
}

export interface FreePfnStmt {
  kind: 'free_pfn';
  cpu: number;
  pfn: number;
  order: number;
}

/** `cpu N thread|mmap|munmap|mprotect|touch mm=M ...`: a process's address space (address-space.ts). */
export interface AddressSpaceStmt {
  kind: 'thread' | 'mmap' | 'munmap' | 'mprotect' | 'touch' | 'work';
  cpu: number;
  mm: number; // the process, 0..3 (work: 0)
  at: number; // first page of the range (thread, work: 0)
  pages: number; // pages of the range (thread: 0); work: its nanoseconds
  prot: string; // mmap, mprotect: r, w, x in that order, or none; else ''
  file: boolean; // mmap: a file mapping
  write: boolean; // touch: write (true) or read
}

export interface RepeatStmt {
  kind: 'repeat';
  count: number;
  body: OpStmt[];
}

/** A statement that becomes ops. */
export type OpStmt =
  | AllocStmt
  | FreeStmt
  | DrainStmt
  | DrainAllStmt
  | TickStmt
  | HotplugStmt
  | CorruptStmt
  | RandomStmt
  | FreePfnStmt
  | AddressSpaceStmt
  | RepeatStmt;

/** A whole workload: the header (machine, profile, sysctls, seed) and the ops. */
export interface Workload {
  machine: MachineSpec | null; // null: `tiny`
  profile: ProfileName | null; // null: 6.18
  sets: SysctlSetting[];
  seed: bigint | null; // null: the core's default seed
  ops: OpStmt[];
}

/** A 1-based line and column. */
export interface SourcePos {
  line: number;
  col: number;
}

/** Where each statement of a parsed tree was written (absent for trees built in code). */
export type SourceMap = WeakMap<object, SourcePos>;
