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
  swap: number; // swap space in pages; 0 = none (anonymous memory cannot be reclaimed)
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

/** What an allocation is for (`for=`), in enum lru_purpose order from 1; null: kernel memory. */
export const PURPOSES = ['anon', 'file', 'file-dirty', 'file-mapped'] as const;
export type Purpose = (typeof PURPOSES)[number];

export interface AllocStmt {
  kind: 'alloc';
  cpu: number;
  group: string;
  order: number;
  gfp: GfpSpec;
  purpose: Purpose | null; // anonymous memory or page cache: the block joins an LRU list
}

/** `touch NAME [*]`: the most recent live block of NAME (or every one) is used again. */
export interface TouchStmt {
  kind: 'touch_group';
  cpu: number;
  group: string;
  all: boolean;
}

export interface FreeStmt {
  kind: 'free';
  cpu: number;
  group: string;
  all: boolean; // `free NAME *`: every live block, oldest first
  batched?: boolean; // `free NAME * batched`: as folio batches (free_unref_folios), not one by one
  // `free NAME pcp_locked`: in an interrupt that came while the CPU's task held its pcp lock
  // (6.0+: the pcp trylock fails and the block goes straight to the buddy)
  pcpLocked?: boolean;
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
  cpu?: number; // `cpu N tick`: only that CPU's vmstat worker runs (count is 1)
}

/** `cpu N kswapd`: the kswapd of CPU N's node runs on CPU N from here (a trace saw it there). */
export interface KswapdStmt {
  kind: 'kswapd';
  cpu: number;
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

/**
 * `cpu N free_folios G1 captured order=K ... G2 ...`: the newest block of each group, and blocks of
 * captured memory, freed as one folio batch.
 */
export interface FreeFoliosStmt {
  kind: 'free_folios';
  cpu: number;
  folios: (string | CapturedFolio)[]; // 1 .. 31 (FOLIO_BATCH_SIZE): a group's name, or captured
}

/**
 * `captured [order=K] [pfn=P] [type=T]` in a folio batch: a block of captured memory, chosen as
 * `free_captured` chooses it when the batch gathers it (a trace's free of memory allocated before
 * it, in a batch).
 */
export type CapturedFolio = Pick<FreeCapturedStmt, 'order' | 'pfn' | 'type'>;

export interface FreeCapturedStmt {
  kind: 'free_captured';
  cpu: number;
  order: number;
  pfn?: number; // the kernel's pfn (a trace's free): the block is taken from the zone that spans it
  // the pcp list (migratetype) the trace showed the kernel's free reaching: the block is taken
  // from a pageblock of that type while one is left
  type?: PcpType;
  pcpLocked?: boolean; // as FreeStmt's: in an interrupt while the CPU's pcp lock was held
}

/** The migratetypes with pcp lists, as the workload language names them. */
export const PCP_TYPES = ['unmovable', 'movable', 'reclaimable'] as const;
export type PcpType = (typeof PCP_TYPES)[number];

/** `percpu alloc NAME size=S align=A [reserved] [atomic]`: alloc_percpu into handle group NAME. */
export interface PercpuAllocStmt {
  kind: 'percpu_alloc';
  cpu: number;
  group: string;
  size: number; // bytes, 1..32768 (PCPU_MIN_UNIT_SIZE)
  align: number; // a power of two, 1..4096 (PAGE_SIZE)
  reserved: boolean; // served from the reserved chunk only
  atomic: boolean; // GFP_NOWAIT: may not create or populate a chunk
}

/** The order `percpu free NAME *` frees a group's areas in. */
export const PERCPU_FREE_ORDERS = ['in-order', 'alternating', 'reverse'] as const;
export type PercpuFreeOrder = (typeof PERCPU_FREE_ORDERS)[number];

/**
 * `percpu free NAME` (the newest area) or `percpu free NAME * ORDER`: every live area, oldest first
 * (in-order), newest first (reverse), or the 1st, 3rd, 5th ... then the 2nd, 4th ... (alternating).
 */
export interface PercpuFreeStmt {
  kind: 'percpu_free';
  cpu: number;
  group: string;
  order: PercpuFreeOrder | null; // null: only the newest area
}

/** `percpu balance`: pcpu_balance_workfn runs now (it also runs at every tick when scheduled). */
export interface PercpuBalanceStmt {
  kind: 'percpu_balance';
  cpu: number;
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
  | TouchStmt
  | FreeStmt
  | DrainStmt
  | DrainAllStmt
  | TickStmt
  | HotplugStmt
  | KswapdStmt
  | CorruptStmt
  | RandomStmt
  | FreePfnStmt
  | FreeCapturedStmt
  | FreeFoliosStmt
  | PercpuAllocStmt
  | PercpuFreeStmt
  | PercpuBalanceStmt
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
