// The page-fault views on real runs of the core: a thread faulting behind CPU 0's munmap waits
// for mmap_lock under 4.16 and not under 6.18 (the lanes draw and say so, marking the segment of
// the current event), the VMA list shows each VMA with the path's lock state, and the Counters
// view adds the fault figures with the other profile's difference.
import { renderToStaticMarkup } from '../../app/static-markup';
import { beforeAll, describe, expect, it } from 'vitest';
import { LANE } from '../../core/generated/lanes';
import { loadCore, type Core } from '../../core/module';
import { runWorkload } from '../../reproductions/runner';
import type { NamedEvent, RunRecord } from '../../reproductions/types';
import { Counters } from '../Counters';
import { CpuLanes } from './CpuLanes';
import { formatNs, laneLayout } from './lanes-model';
import { VmaList } from './VmaList';
import { eventTarget, protWords } from './vma-list-model';
import { FAULT_WORKLOAD as WORKLOAD } from '../../core/testing/fault-workload';

const options = { theme: 'light' as const, reducedMotion: true };
let core: Core;
const runs: Record<string, RunRecord> = {};
beforeAll(async () => {
  core = await loadCore();
  for (const p of ['4.16', '4.16-spf-v9', '6.18'] as const)
    runs[p] = runWorkload(core, WORKLOAD, p);
});
const run = (p: string): RunRecord => {
  const r = runs[p];
  if (!r) throw new Error(`no run ${p}`);
  return r;
};
/** The last event of name in run. */
const lastOf = (r: RunRecord, name: string): NamedEvent => {
  const e = r.events.filter((x) => x.name === name).at(-1);
  if (!e) throw new Error(`no ${name}`);
  return e;
};

describe('laneLayout', () => {
  it('places every lane on one window and finds the current event’s segment', () => {
    const r = run('4.16');
    const asked = lastOf(r, 'mmap_lock_start_locking');
    const f = r.state.fault;
    if (!f) throw new Error('no fault state');
    const l = laneLayout(f, asked, asked.op);
    expect(l.rows.map((x) => x.cpu)).toEqual([0, 1, 2]);
    expect(l.current?.cpu).toBe(1);
    expect(l.current?.segment.state).toBe(LANE.WAIT_MMAP_READ);
    for (const row of l.rows)
      for (const s of row.segments) {
        expect(s.left).toBeGreaterThanOrEqual(0);
        expect(s.left + s.width).toBeLessThanOrEqual(100.0001);
      }
    expect(l.ticks.length).toBeGreaterThan(2);
    for (let i = 1; i < l.ticks.length; i++)
      expect((l.ticks[i]?.left ?? 0) - (l.ticks[i - 1]?.left ?? 0)).toBeGreaterThanOrEqual(21);
    // zoomed to the op: the window holds its segments with a margin, not the whole history
    const z = laneLayout(f, asked, asked.op, true);
    expect(z.toNs - z.fromNs).toBeLessThan(l.toNs - l.fromNs);
    expect(z.opSpan && z.fromNs <= z.opSpan.fromNs && z.toNs >= z.opSpan.toNs).toBe(true);
    // CPU 0's 64 faults and its munmap wrapped its ring: the time before its first kept is hatched
    expect(l.rows[0]?.truncated).toBe(true);
    expect(l.rows[1]?.truncated).toBe(false);
  });

  it('formats virtual time', () => {
    expect([850, 12_500, 3_200_000, 2e9].map(formatNs)).toEqual([
      '850 ns',
      '12.5 µs',
      '3.2 ms',
      '2 s',
    ]);
  });
});

describe('CpuLanes', () => {
  it('draws the wait under 4.16 and none in the last fault under 6.18', () => {
    const classic = run('4.16');
    const ev = lastOf(classic, 'mmap_lock_start_locking');
    const h = renderToStaticMarkup(
      <CpuLanes state={classic.state} event={ev} opEvents={[]} options={options} />,
    );
    expect(h).toContain('<h3');
    expect(h).toContain('CPU lanes');
    expect(h).toMatch(/data-state="WAIT_MMAP_READ"[^>]*data-highlighted="true"/);
    expect(h).toContain('Current event: CPU 1, waiting for mmap_lock (read)');
    expect(h).toMatch(/aria-label="CPU 1, a thread of mm 0: [^"]*waiting for mmap_lock \(read\)/);
    const perVma = run('6.18');
    const done = lastOf(perVma, 'fault_done');
    const h2 = renderToStaticMarkup(
      <CpuLanes state={perVma.state} event={done} opEvents={[]} options={options} />,
    );
    expect(h2).toMatch(/data-state="FAULT_VMA"[^>]*data-highlighted="true"/);
    expect(h2).toContain('Current event: CPU 1, fault under its VMA lock');
  });

  it('says so when no thread has started', () => {
    const r = runWorkload(core, 'machine tiny\ncpu 0 alloc a order=0\n', '6.18');
    const h = renderToStaticMarkup(
      <CpuLanes state={r.state} event={null} opEvents={[]} options={options} />,
    );
    expect(h).toContain('No thread has started yet');
  });
});

describe('VmaList', () => {
  it('lists the VMAs with the lock state of each path and marks the event’s VMA', () => {
    const classic = run('4.16');
    const h = renderToStaticMarkup(
      <VmaList
        state={classic.state}
        event={lastOf(classic, 'fault_done')}
        opEvents={[]}
        options={options}
      />,
    );
    expect(h).toContain('Process mm 0 · 3 threads · 2 VMAs');
    expect(h).toContain('0–511');
    expect(h).toContain('1024–1535');
    expect(h).toMatch(/data-highlighted="true" data-vma="\d+"><th scope="row">0–511/);
    expect(h).toContain('read 1 taken'.slice(0, 4)); // mmap_lock's read side is listed
    expect(h).toMatch(/write 4 taken, \d+ waited/);
    const spf = run('4.16-spf-v9');
    const hs = renderToStaticMarkup(
      <VmaList state={spf.state} event={null} opEvents={[]} options={options} />,
    );
    expect(hs).toContain('vm_sequence');
    const per = run('6.18');
    const hp = renderToStaticMarkup(
      <VmaList state={per.state} event={null} opEvents={[]} options={options} />,
    );
    expect(hp).toContain('vm_refcnt 1 (attached, no reader)');
    expect(hp).toMatch(/never write-locked|unlocked \(last write-locked/);
  });

  it('finds the VMA of an address and the mmap_lock of a lock event', () => {
    const r = run('4.16');
    const f = r.state.fault;
    if (!f) throw new Error('no fault state');
    expect(eventTarget(f, lastOf(r, 'page_fault_user'))).toMatchObject({ mm: 0, lock: false });
    expect(eventTarget(f, lastOf(r, 'page_fault_user')).vma).not.toBeNull();
    expect(eventTarget(f, lastOf(r, 'mmap_lock_released'))).toEqual({
      mm: 0,
      vma: null,
      lock: true,
    });
    expect([3, 1, 5, 0x8].map(protWords)).toEqual(['rw-p', 'r--p', 'r-xp', '---s']);
  });
});

describe('Counters with page faults', () => {
  it('adds the fault figures, with the other profile’s value and the difference', () => {
    const a = run('4.16');
    const b = run('6.18');
    const h = renderToStaticMarkup(
      <Counters
        state={a.state}
        event={null}
        opEvents={[]}
        options={{ ...options, compare: b.state }}
      />,
    );
    expect(h).toContain('<caption>Page faults</caption>');
    expect(h).toContain('vma_lock_success');
    // 74 faults on both; 4.16 took mmap_lock for every fault, 6.18 for a few
    expect(h).toMatch(/pgfault<\/th><td>74<span[^>]*>.*?6\.18: 74 \(=\)/);
    expect(h).toMatch(/mmap_lock reads by faults<\/th><td>74<span/);
    const plain = runWorkload(core, 'machine tiny\ncpu 0 alloc a order=0\n', '6.18');
    const hp = renderToStaticMarkup(
      <Counters state={plain.state} event={null} opEvents={[]} options={options} />,
    );
    expect(hp).not.toContain('Page faults');
  });
});
