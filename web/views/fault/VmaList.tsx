/*
 * VmaList.tsx: each process's VMAs in address order with what the fault paths read of them (the
 * range, anonymous or file, the protection, the faults it took), the lock state of the profile's
 * path (SPF: the vm_sequence count and the reads it made retry; per-VMA locks: vm_lock_seq against
 * mm_lock_seq and the last write-locked interval, the refcount on 6.15+), and the process's
 * mmap_lock: who took it how often, how many waited and for how long. Ops are applied whole, so
 * between ops nobody holds a lock; the figures say what happened inside them. The VMA (or
 * mmap_lock) the current event is about is marked.
 */
import { useId } from 'react';
import { formatCount } from '../../core/count';
import type { MmState, RwsemState } from '../../core/fault-reader';
import { eventAttrs, type ViewProps } from '../options';
import { formatNs } from './lanes-model';
import { eventTarget, faultPath, kindWords, protWords, vmaLockWords } from './vma-list-model';
import './fault.css';

/** One side of an rwsem in words: "read 120 taken, 3 waited (84 µs)". */
function side(name: string, l: RwsemState['read']): string {
  return `${name} ${formatCount(l.acquisitions)} taken, ${formatCount(l.contended)} waited${l.contended ? ` (${formatNs(l.waitNs)})` : ''}`;
}

function MmapLock({ mm, lit }: { mm: MmState; lit: boolean }) {
  const l = mm.mmapLock;
  const held = l.writer ? 'held for write' : l.readers ? `held by ${l.readers} readers` : 'free';
  return (
    <p
      className={`mmap-lock small${lit ? ' lit' : ''}`}
      data-highlighted={lit || undefined}
      data-mmap-lock={mm.index}
    >
      <strong>mmap_lock</strong> {held} · {side('read', l.read)} · {side('write', l.write)}
      {l.write.acquisitions > 0 &&
        ` · last write hold ${formatNs(l.writeAcquiredAtNs)}–${formatNs(l.writerFreeAtNs)}`}
      {mm.rbLockSpins > 0 &&
        ` · SPF lookups that spun on the VMA tree lock: ${formatCount(mm.rbLockSpins)} (${formatNs(mm.rbLockSpinNs)})`}
    </p>
  );
}

export function VmaList({ state, event }: ViewProps) {
  const hid = useId();
  const fault = state.fault;
  const path = faultPath(state.profileId);
  const target = fault ? eventTarget(fault, event) : { mm: null, vma: null, lock: false };
  return (
    <section className="view fault-vmas" aria-labelledby={hid} {...eventAttrs(event)}>
      <header className="view-head">
        <h3 id={hid}>VMAs and mmap_lock</h3>
        <p className="muted small">
          {state.profile}: {path.words}.
        </p>
      </header>
      {!fault || fault.mms.length === 0 ? (
        <p className="muted">No process yet: a workload&apos;s `thread` line starts one.</p>
      ) : (
        fault.mms.map((mm) => (
          <div key={mm.index} className="fault-mm" data-mm={mm.index}>
            <h4>
              Process mm {mm.index} · {mm.mmUsers} thread{mm.mmUsers === 1 ? '' : 's'} ·{' '}
              {mm.mapCount} VMA{mm.mapCount === 1 ? '' : 's'}
            </h4>
            <MmapLock mm={mm} lit={target.lock && target.mm === mm.index} />
            {mm.vmas.length === 0 ? (
              <p className="muted small">No VMA mapped.</p>
            ) : (
              <div className="counter-scroll" tabIndex={0}>
                <table>
                  <caption className="visually-hidden">VMAs of mm {mm.index}, by address</caption>
                  <thead>
                    <tr>
                      <th scope="col">pages</th>
                      <th scope="col">kind</th>
                      <th scope="col">prot</th>
                      <th scope="col">faults</th>
                      {path.rule === 'FAULT_LOCK_SPF' && (
                        <>
                          <th scope="col">vm_sequence</th>
                          <th scope="col">retried reads</th>
                        </>
                      )}
                      {path.rule === 'FAULT_LOCK_PER_VMA' && <th scope="col">VMA lock</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {mm.vmas.map((v) => {
                      const lit = target.vma === v.index && target.mm === mm.index;
                      return (
                        <tr
                          key={v.index}
                          className={lit ? 'lit' : undefined}
                          data-highlighted={lit || undefined}
                          data-vma={v.index}
                        >
                          <th scope="row">
                            {v.start}–{v.end - 1}
                            <span className="muted small"> ({formatCount(v.end - v.start)})</span>
                          </th>
                          <td className="kind">{kindWords(v)}</td>
                          <td>
                            <code>{protWords(v.flags)}</code>
                          </td>
                          <td>{formatCount(v.faults)}</td>
                          {path.rule === 'FAULT_LOCK_SPF' && (
                            <>
                              <td title="even: stable; odd while a writer changes the VMA">
                                {v.vmSequence.sequence}
                              </td>
                              <td>
                                {formatCount(v.vmSequence.retries)} of{' '}
                                {formatCount(v.vmSequence.reads)}
                              </td>
                            </>
                          )}
                          {path.rule === 'FAULT_LOCK_PER_VMA' && (
                            <td className="kind">{vmaLockWords(v, mm, path)}</td>
                          )}
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            )}
          </div>
        ))
      )}
    </section>
  );
}
