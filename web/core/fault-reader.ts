/*
 * fault-reader.ts: the page-fault subsystem's state (wasm-core/src/fault/mm.h) as plain data,
 * read from the fault region of the arena at offsets the C publishes (layout.def): the
 * /proc/vmstat counters, each process in use with mmap_lock and its VMAs, and each CPU's lane
 * (fault/lane.h: the last stretches of virtual time its thread spent working, faulting, waiting
 * or retrying). Field names are the C's in camelCase. Only processes in use and CPUs that ran a
 * thread or a lane segment are read, so a machine that never faults pays for the counters alone.
 */
import type { LayoutField } from './generated/layout';
import type { StructName } from './layout';
import type { Sim } from './sim';
import type { LockStats } from './state';

/** struct rw_semaphore between ops: what it counted, and the last writer's hold. */
export interface RwsemState {
  read: LockStats;
  write: LockStats;
  readers: number; // inside down_read .. up_read (0 between ops: the checker holds it so)
  writer: boolean;
  writeAcquiredAtNs: number; // the last writer's hold: [writeAcquiredAtNs, writerFreeAtNs]
  writerFreeAtNs: number;
}

/** seqcount_t: the count and what its readers did. */
export interface SeqcountState {
  sequence: number; // even between ops
  reads: number; // read sections begun
  retries: number; // read sections that had to be done again
  writes: number; // write sections
}

/** struct vm_area_struct, as the model keeps it */
export interface VmaState {
  index: number; // slot in the VMA pool (the `vma` field of the fault events)
  mm: number;
  start: number; // first page
  end: number; // one past the last page
  flags: number; // VM_READ | VM_WRITE | VM_EXEC | ... | VMA_FILE
  anonVma: boolean; // anon_vma_prepare has run
  vmLockSeq: number; // per-VMA locks: equals mmLockSeq while write-locked (0xffffffff: never)
  vmRefcnt: number; // 6.15+ form: 1 while attached
  writeLockedFromNs: number; // the last vma_start_write .. its mmap_write_unlock
  writeLockedUntilNs: number;
  faults: number; // faults handled in it
  vmLock: RwsemState; // the per-VMA lock (6.4-6.14 an rwsem; 6.15+ the refcount stands for it)
  vmSequence: SeqcountState; // SPF's vm_sequence
}

/** struct mm_struct */
export interface MmState {
  index: number;
  mmUsers: number; // threads
  mapCount: number;
  mmLockSeq: number;
  mmapLock: RwsemState;
  rbLockSpins: number; // SPF: lookups that spun on the mm_rb rwlock
  rbLockSpinNs: number;
  vmas: VmaState[]; // in address order
}

/** One stretch of a CPU's lane (struct fault_lane_seg); state is an id of LANE (generated/lanes.ts). */
export interface LaneSegment {
  fromNs: number;
  toNs: number;
  op: number; // the op that ran it
  seqFrom: number; // its events: [seqFrom, seqTo)
  seqTo: number;
  state: number;
  mm: number;
}

/** struct fault_cpu with its lane */
export interface FaultCpuState {
  cpu: number;
  threadMm: number | null; // the process of the thread pinned here, null: none
  faults: number;
  faultNs: number; // inside fault handling, waits included
  mmapWaitNs: number;
  vmaWaitNs: number;
  retryNs: number;
  wastedPages: number;
  laneCount: number; // segments recorded ever; the lane keeps the last laneSegs
  lane: LaneSegment[]; // oldest first
}

/** struct fault_events: the /proc/vmstat counters */
export interface FaultCounters {
  pgfault: number;
  speculativePgfault: number;
  vmaLockSuccess: number;
  vmaLockAbort: number;
  vmaLockRetry: number;
  vmaLockMiss: number;
  spfAbort: number[]; // by kind, spf_vma_changed first
  faultMmapReads: number; // mmap_lock read acquisitions made by faults
  sigsegv: number;
  wastedPages: number;
  wastedAtOnceMax: number;
  byPath: number[]; // faults finished on each path: [unused, vma_lock, spf, mmap_lock]
}

export interface FaultState {
  counters: FaultCounters;
  mms: MmState[]; // processes a thread started in
  cpus: FaultCpuState[]; // CPUs with a thread or a lane segment
  laneSegs: number; // FAULT_LANE_SEGS: segments each lane keeps
  mmapWriteAcquisitions: number; // mmap_lock write acquisitions of every process
}

/** Reads one Sim's fault region. */
export class FaultReader {
  private readonly dv: DataView;
  private readonly base: number;

  constructor(private readonly sim: Sim) {
    this.dv = sim.view();
    this.base = sim.address + sim.core.mod._bs_fault_region(sim.address);
  }

  private off(f: LayoutField): number {
    return this.sim.core.layout.off(f);
  }
  private size(s: StructName): number {
    return this.sim.core.layout.sizeOf(s);
  }
  private u8(at: number): number {
    return this.dv.getUint8(at);
  }
  private u16(at: number): number {
    return this.dv.getUint16(at, true);
  }
  private u32(at: number): number {
    return this.dv.getUint32(at, true);
  }
  private u64(at: number): number {
    return Number(this.dv.getBigUint64(at, true));
  }

  private lockStats(at: number): LockStats {
    return {
      acquisitions: this.u64(at + this.off('lock_stats.acquisitions')),
      contended: this.u64(at + this.off('lock_stats.contended')),
      waitNs: this.u64(at + this.off('lock_stats.wait_ns')),
      holdNs: this.u64(at + this.off('lock_stats.hold_ns')),
      handovers: this.u64(at + this.off('lock_stats.handovers')),
    };
  }

  private rwsem(at: number): RwsemState {
    return {
      read: this.lockStats(at + this.off('rwsem.read')),
      write: this.lockStats(at + this.off('rwsem.write')),
      readers: this.u32(at + this.off('rwsem.readers')),
      writer: this.u8(at + this.off('rwsem.writer')) !== 0,
      writeAcquiredAtNs: this.u64(at + this.off('rwsem.write_acquired_at_ns')),
      writerFreeAtNs: this.u64(at + this.off('rwsem.writer_free_at_ns')),
    };
  }

  private vma(index: number): VmaState {
    const at = this.base + this.off('fault_state.vmas') + index * this.size('vm_area');
    const f = (n: string) => at + this.off(`vm_area.${n}` as LayoutField);
    const seq = f('vm_sequence');
    const until = this.dv.getBigUint64(f('write_locked_until_ns'), true);
    return {
      index,
      mm: this.u8(f('mm')),
      start: this.u32(f('vm_start')),
      end: this.u32(f('vm_end')),
      flags: this.u32(f('vm_flags')),
      anonVma: this.u8(f('anon_vma')) !== 0,
      vmLockSeq: this.u32(f('vm_lock_seq')),
      vmRefcnt: this.u32(f('vm_refcnt')),
      writeLockedFromNs: this.u64(f('write_locked_from_ns')),
      // UINT64_MAX while marked inside an op; never seen between ops
      writeLockedUntilNs: until === 0xffffffffffffffffn ? Infinity : Number(until),
      faults: this.u64(f('faults')),
      vmLock: this.rwsem(f('vm_lock')),
      vmSequence: {
        sequence: this.u32(seq + this.off('seqcount.sequence')),
        reads: this.u64(seq + this.off('seqcount.reads')),
        retries: this.u64(seq + this.off('seqcount.retries')),
        writes: this.u64(seq + this.off('seqcount.write') + this.off('lock_stats.acquisitions')),
      },
    };
  }

  private mm(index: number, maxVmas: number): MmState {
    const at = this.base + this.off('fault_state.mms') + index * this.size('mm');
    const f = (n: string) => at + this.off(`mm.${n}` as LayoutField);
    const vmas: VmaState[] = [];
    const next = this.off('vm_area.next');
    const pool = this.base + this.off('fault_state.vmas');
    for (let i = this.u16(f('mmap')); i !== 0xffff && vmas.length < maxVmas;) {
      vmas.push(this.vma(i));
      i = this.u16(pool + i * this.size('vm_area') + next);
    }
    return {
      index,
      mmUsers: this.u32(f('mm_users')),
      mapCount: this.u32(f('map_count')),
      mmLockSeq: this.u32(f('mm_lock_seq')),
      mmapLock: this.rwsem(f('mmap_lock')),
      rbLockSpins: this.u64(f('rb_lock_spins')),
      rbLockSpinNs: this.u64(f('rb_lock_spin_ns')),
      vmas,
    };
  }

  /** cpu's lane, oldest segment first. */
  private lane(cpu: number, count: number, segs: number): LaneSegment[] {
    const ring =
      this.base +
      this.u32(this.base + this.off('fault_state.lanes_off')) +
      cpu * segs * this.size('fault_lane_seg');
    const kept = Math.min(count, segs);
    const out: LaneSegment[] = [];
    for (let k = count - kept; k < count; k++) {
      const at = ring + (k % segs) * this.size('fault_lane_seg');
      const f = (n: string) => at + this.off(`fault_lane_seg.${n}` as LayoutField);
      out.push({
        fromNs: this.u64(f('from_ns')),
        toNs: this.u64(f('to_ns')),
        op: this.u32(f('op')),
        seqFrom: this.u32(f('seq_from')),
        seqTo: this.u32(f('seq_to')),
        state: this.u8(f('state')),
        mm: this.u8(f('mm')),
      });
    }
    return out;
  }

  /** The whole state; nrCpus is the machine's. */
  state(nrCpus: number): FaultState {
    const b = this.base;
    const ev = b + this.off('fault_state.ev');
    const e = (n: string) => ev + this.off(`fault_events.${n}` as LayoutField);
    const u64s = (n: string, len: number) =>
      Array.from({ length: len }, (_, k) => this.u64(e(n) + 8 * k));
    const layout = this.sim.core.layout;
    const maxVmas = layout.size('fault_state.vmas') / this.size('vm_area');
    const mms: MmState[] = [];
    const nrMms = layout.size('fault_state.mms') / this.size('mm');
    for (let i = 0; i < nrMms; i++) {
      const at = b + this.off('fault_state.mms') + i * this.size('mm');
      if (this.u8(at + this.off('mm.in_use'))) mms.push(this.mm(i, maxVmas));
    }
    const segs = this.u32(b + this.off('fault_state.lane_segs'));
    const cpus: FaultCpuState[] = [];
    for (let cpu = 0; cpu < nrCpus; cpu++) {
      // the CPU records follow the fault state (fault_cpus in fault/mm.h)
      const at = b + this.size('fault_state') + cpu * this.size('fault_cpu');
      const f = (n: string) => at + this.off(`fault_cpu.${n}` as LayoutField);
      const thread = this.u8(f('thread_mm'));
      const count = this.u64(f('lane_count'));
      if (!thread && !count) continue;
      cpus.push({
        cpu,
        threadMm: thread ? thread - 1 : null,
        faults: this.u64(f('faults')),
        faultNs: this.u64(f('fault_ns')),
        mmapWaitNs: this.u64(f('mmap_wait_ns')),
        vmaWaitNs: this.u64(f('vma_wait_ns')),
        retryNs: this.u64(f('retry_ns')),
        wastedPages: this.u64(f('wasted_pages')),
        laneCount: count,
        lane: this.lane(cpu, count, segs),
      });
    }
    return {
      counters: {
        pgfault: this.u64(e('pgfault')),
        speculativePgfault: this.u64(e('speculative_pgfault')),
        vmaLockSuccess: this.u64(e('vma_lock_success')),
        vmaLockAbort: this.u64(e('vma_lock_abort')),
        vmaLockRetry: this.u64(e('vma_lock_retry')),
        vmaLockMiss: this.u64(e('vma_lock_miss')),
        spfAbort: u64s('spf_abort', layout.size('fault_events.spf_abort') / 8),
        faultMmapReads: this.u64(e('fault_mmap_reads')),
        sigsegv: this.u64(e('sigsegv')),
        wastedPages: this.u64(e('wasted_pages')),
        wastedAtOnceMax: this.u64(e('wasted_at_once_max')),
        byPath: u64s('by_path', layout.size('fault_events.by_path') / 8),
      },
      mms,
      cpus,
      laneSegs: segs,
      mmapWriteAcquisitions: mms.reduce((n, m) => n + m.mmapLock.write.acquisitions, 0),
    };
  }
}
