import { describe, expect, it } from 'vitest';
import { parseTraceLine } from './ftrace';
import { gfpMask } from './compiler';
import { parseWorkload } from './parser';
import { printWorkload } from './printer';
import { describeImport, importedWorkloadText, importTrace, purposeOfGfp } from './trace-import';
import { compareRunsTable, RunCounter } from './trace-runs';
import { comparedLines, machineFromZoneinfo, parseZoneinfo } from './zoneinfo-machine';

const line = (cpu: number, event: string, fields: string) =>
  `           touch-6588    [00${cpu}] .....   192.073750: ${event}: ${fields}`;

describe('parseTraceLine', () => {
  it('splits task, pid, cpu, timestamp, event and fields; task names may hold spaces and dashes', () => {
    const t = parseTraceLine(
      '  Web Content-my-12 (   12) [003] d..2.  5.000001: mm_page_free: page=0000 pfn=0x10 order=2',
    );
    expect(t).toEqual({
      kind: 'record',
      record: {
        task: 'Web Content-my',
        pid: 12,
        cpu: 3,
        flags: 'd..2.',
        timestamp: '5.000001',
        event: 'mm_page_free',
        fields: new Map([
          ['page', '0000'],
          ['pfn', '0x10'],
          ['order', '2'],
        ]),
      },
    });
    expect(parseTraceLine('# tracer: nop')).toEqual({ kind: 'skip' });
    expect(parseTraceLine('CPU:1 [LOST 42 EVENTS]')).toEqual({ kind: 'lost', count: 42 });
    expect(parseTraceLine('garbage').kind).toBe('malformed');
  });
});

describe('importTrace', () => {
  it('turns allocs and frees into ops on pfn-named groups and skips the rest', () => {
    const text = [
      '# tracer: nop',
      line(
        1,
        'mm_page_alloc',
        'page=1 pfn=0x1961b8 order=0 migratetype=0 gfp_flags=GFP_KERNEL_ACCOUNT|__GFP_ZERO',
      ),
      line(
        0,
        'mm_page_alloc',
        'page=2 pfn=0x20 order=3 migratetype=1 gfp_flags=GFP_HIGHUSER_MOVABLE|__GFP_COMP',
      ),
      line(0, 'mm_page_alloc', 'page=(null) pfn=0 order=9 migratetype=1 gfp_flags=GFP_TRANSHUGE'),
      line(0, 'mm_page_free', 'page=1 pfn=0x1961b8 order=0'),
      line(0, 'mm_page_free_batched', 'page=1 pfn=0x1961b8 order=0'),
      line(1, 'mm_page_free', 'page=3 pfn=0x999 order=0'),
      line(1, 'percpu_create_chunk', 'base_addr=00000000d5dfe17e'),
      line(1, 'mm_page_free_batched', 'page=2 pfn=0x20 order=0'),
      '',
    ].join('\n');
    const r = importTrace(text);
    if (!r.ok) throw new Error(r.error.message);
    expect(printWorkload(r.workload)).toBe(
      [
        'cpu 1 alloc h1961b8 order=0 GFP_KERNEL_ACCOUNT|__GFP_ZERO',
        'cpu 0 alloc h20 order=3 GFP_HIGHUSER_MOVABLE|__GFP_COMP for=anon',
        'cpu 0 free h1961b8',
        'cpu 1 free h20',
        '',
      ].join('\n'),
    );
    expect(r.stats).toMatchObject({
      allocs: 2,
      frees: 2,
      failedAllocs: 1,
      unmatchedFrees: 1,
      batchedRepeats: 1,
      maxCpu: 1,
    });
    expect(describeImport(r.stats)).toMatch(
      /imported 2 allocs and 2 frees; skipped 1 frees of pages not allocated in the trace; 1 mm_page_free_batched repeating their mm_page_free; 1 failed allocations; other events: percpu_create_chunk 1/,
    );
  });

  it('frees an interrupt made while its CPU held the pcp lock pcp_locked, others as usual', () => {
    const at = (cpu: number, flags: string, event: string, fields: string) =>
      `           touch-6588    [00${cpu}] ${flags}   192.073750: ${event}: ${fields}`;
    const alloc = (cpu: number, pfn: string) =>
      at(
        cpu,
        '.....',
        'mm_page_alloc',
        `page=1 pfn=${pfn} order=0 migratetype=1 gfp_flags=GFP_HIGHUSER_MOVABLE`,
      );
    const text = [
      alloc(0, '0x100'),
      alloc(0, '0x101'),
      alloc(0, '0x102'),
      at(
        0,
        'd..3.',
        'mm_page_alloc_zone_locked',
        'page=1 pfn=0x200 order=0 migratetype=1 percpu_refill=1',
      ),
      // a softirq at the task's depth (2) + 1, between the refill and its mm_page_alloc: locked
      at(0, '..s3.', 'mm_page_free', 'page=1 pfn=0x100 order=0'),
      // the same on CPU 1, which holds no lock: an ordinary free
      at(1, '..s3.', 'mm_page_free', 'page=1 pfn=0x101 order=0'),
      // after the lock was let go (depth 0): an ordinary free
      at(0, '..s..', 'mm_page_free', 'page=1 pfn=0x102 order=0'),
      alloc(0, '0x200'),
    ].join('\n');
    const r = importTrace(text);
    if (!r.ok) throw new Error(r.error.message);
    expect(
      printWorkload(r.workload)
        .split('\n')
        .filter((l) => l.includes('free')),
    ).toEqual(['cpu 0 free h100 pcp_locked', 'cpu 1 free h101', 'cpu 0 free h102']);
    expect(r.stats.pcpLockedFrees).toBe(1);
    expect(describeImport(r.stats)).toMatch(
      /1 frees in an interrupt while their CPU's pcp lock was held/,
    );
    expect(parseTraceLine(text.split('\n')[4] ?? '')).toMatchObject({ record: { flags: '..s3.' } });
  });

  it('tells user memory by its gfp flags: anonymous, page cache, dirty page cache', () => {
    const flags = (text: string) => gfpMask(text.split('|'));
    expect(purposeOfGfp(flags('GFP_HIGHUSER_MOVABLE|__GFP_ZERO|__GFP_COMP'))).toBe('anon');
    expect(purposeOfGfp(flags('GFP_TRANSHUGE|__GFP_NORETRY|__GFP_THISNODE'))).toBe('anon');
    expect(purposeOfGfp(flags('GFP_HIGHUSER_MOVABLE|__GFP_COMP'))).toBe('anon');
    expect(
      purposeOfGfp(
        flags(
          'GFP_NOFS|__GFP_HIGHMEM|__GFP_MOVABLE|__GFP_NOWARN|__GFP_NORETRY|__GFP_COMP|__GFP_HARDWALL',
        ),
      ),
    ).toBe('file');
    expect(purposeOfGfp(flags('GFP_HIGHUSER_MOVABLE|__GFP_NOWARN|__GFP_NORETRY'))).toBe('file');
    expect(purposeOfGfp(flags('GFP_HIGHUSER_MOVABLE|__GFP_WRITE|__GFP_COMP'))).toBe('file-dirty');
    // not movable, or not a task's: kernel memory
    expect(purposeOfGfp(flags('GFP_HIGHUSER|__GFP_ACCOUNT'))).toBeNull();
    expect(purposeOfGfp(flags('GFP_KERNEL_ACCOUNT|__GFP_ZERO|__GFP_COMP'))).toBeNull();
    expect(purposeOfGfp(flags('GFP_NOWAIT'))).toBeNull();
  });

  it("leaves reclaim's frees to the model and puts its kswapd where the trace saw the kernel's", () => {
    const text = [
      line(0, 'mm_page_alloc', 'page=1 pfn=0x100 order=0 migratetype=1 gfp_flags=GFP_KERNEL'),
      line(1, 'mm_vmscan_kswapd_wake', 'nid=0 order=0').replace('touch-6588', 'kswapd0-45'),
      line(1, 'mm_page_free', 'page=2 pfn=0x200 order=0').replace('touch-6588', 'kswapd0-45'),
      line(0, 'mm_vmscan_direct_reclaim_begin', 'order=0 gfp_flags=GFP_KERNEL'),
      line(0, 'mm_page_free', 'page=3 pfn=0x300 order=0'),
      line(0, 'mm_vmscan_direct_reclaim_end', 'nr_reclaimed=1'),
      line(0, 'mm_page_free', 'page=4 pfn=0x400 order=0'),
      line(0, 'mm_page_free', 'page=1 pfn=0x100 order=0').replace('touch-6588', 'kswapd0-45'),
    ].join('\n');
    const r = importTrace(text, { capturedFrees: true });
    if (!r.ok) throw new Error(r.error.message);
    // kswapd0 first ran on CPU 1 and then on CPU 0; frees by kswapd or inside direct reclaim
    // are reclaim's, the rest of pre-trace memory comes from its pfn's zone
    expect(printWorkload(r.workload)).toBe(
      [
        'cpu 1 kswapd',
        'cpu 0 alloc h100 order=0 GFP_KERNEL',
        'cpu 0 free_captured order=0 pfn=0x400',
        'cpu 0 kswapd',
        '',
      ].join('\n'),
    );
    expect(r.stats).toMatchObject({ reclaimFrees: 3, capturedFrees: 1, kswapdMoves: 2 });
    // what reclaim freed of memory allocated before the trace: the LRU tails, in order
    expect(r.reclaimed).toEqual([
      { pfn: 0x200, order: 0 },
      { pfn: 0x300, order: 0 },
    ]);
    const round = parseWorkload(printWorkload(r.workload));
    expect(round.ok && round.workload.ops).toEqual(r.workload.ops);
  });

  it("replays kswapd's frees beyond what its shrink_inactive_list reclaimed, alone, as frees", () => {
    const k = (event: string, fields: string) =>
      line(1, event, fields).replace('touch-6588', 'kswapd0-45');
    const inactive = (reclaimed: number) =>
      k('mm_vmscan_lru_shrink_inactive', `nid=0 nr_scanned=${reclaimed} nr_reclaimed=${reclaimed}`);
    const text = [
      k('mm_vmscan_kswapd_wake', 'nid=0 order=0'),
      // a slab page given back between batches, then a batch of two reclaimed folios: the call
      // freed 3 pages and reclaimed 2, so the one standing alone was on no LRU list
      k('mm_page_free', 'page=1 pfn=0x100 order=0'),
      k('mm_page_pcpu_drain', 'page=9 pfn=0x900 order=0 migratetype=1'),
      k('mm_page_free', 'page=2 pfn=0x200 order=0'),
      k('mm_page_free', 'page=3 pfn=0x300 order=0'),
      inactive(2),
      // a batch of one folio looks the same: here the call reclaimed all it freed
      k('mm_page_free', 'page=4 pfn=0x400 order=0'),
      inactive(1),
    ].join('\n');
    const r = importTrace(text, { capturedFrees: true });
    if (!r.ok) throw new Error(r.error.message);
    expect(printWorkload(r.workload)).toBe(
      ['cpu 1 kswapd', 'cpu 1 free_captured order=0 pfn=0x100', ''].join('\n'),
    );
    expect(r.stats).toMatchObject({ reclaimFrees: 3, nonLruReclaimFrees: 1 });
    expect(r.reclaimed.map((b) => b.pfn)).toEqual([0x200, 0x300, 0x400]);
  });

  it('gathers frees of captured memory into the folio batch whose commits drained', () => {
    const text = [
      line(0, 'mm_page_alloc', 'page=1 pfn=0x100 order=0 migratetype=0 gfp_flags=GFP_KERNEL'),
      line(0, 'mm_page_alloc', 'page=1 pfn=0x101 order=0 migratetype=0 gfp_flags=GFP_KERNEL'),
      // a batch: a handle's block, two captured pages, a handle's; then the commits' drains
      // (each captured pfn in a pageblock of its own: a drain there would tell its type)
      line(0, 'mm_page_free', 'page=1 pfn=0x100 order=0'),
      line(0, 'mm_page_free', 'page=2 pfn=0x500 order=0'),
      line(0, 'mm_page_free', 'page=3 pfn=0x1501 order=0'),
      line(0, 'mm_page_free', 'page=4 pfn=0x101 order=0'),
      line(0, 'mm_page_pcpu_drain', 'page=5 pfn=0x500 order=0 migratetype=1'),
      line(0, 'mm_page_pcpu_drain', 'page=6 pfn=0x3777 order=0 migratetype=1'),
      // captured frees with no drain after them stay one by one
      line(1, 'mm_page_free', 'page=7 pfn=0x2600 order=1'),
      line(1, 'mm_page_free', 'page=8 pfn=0x2601 order=0'),
      line(1, 'mm_page_alloc', 'page=9 pfn=0x102 order=0 migratetype=0 gfp_flags=GFP_KERNEL'),
    ].join('\n');
    const r = importTrace(text, { capturedFrees: true });
    if (!r.ok) throw new Error(r.error.message);
    expect(printWorkload(r.workload)).toBe(
      [
        'cpu 0 alloc h100 order=0 GFP_KERNEL',
        'cpu 0 alloc h101 order=0 GFP_KERNEL',
        // the drained page's type (movable) is the list the captured free reached
        'cpu 0 free_folios h100 captured order=0 pfn=0x500 type=movable captured order=0 pfn=0x1501 h101',
        'cpu 1 free_captured order=1 pfn=0x2600',
        'cpu 1 free_captured order=0 pfn=0x2601',
        'cpu 1 alloc h102 order=0 GFP_KERNEL',
        '',
      ].join('\n'),
    );
    expect(r.stats).toMatchObject({ frees: 2, capturedFrees: 4, folioBatches: 1 });
    const round = parseWorkload(printWorkload(r.workload));
    expect(round.ok && round.workload.ops).toEqual(r.workload.ops);
  });

  it.each([
    [
      line(0, 'mm_page_alloc', 'pfn=0x1 order=0 migratetype=0 gfp_flags=GFP_KERNAL'),
      /^1:1: unknown gfp flag "GFP_KERNAL" in gfp_flags=GFP_KERNAL \(did you mean GFP_KERNEL\?\)$/,
    ],
    [
      line(0, 'mm_page_alloc', 'pfn=0x1 order=12 migratetype=0 gfp_flags=GFP_KERNEL'),
      /^1:1: expected order=0\.\.10 in mm_page_alloc, found 12$/,
    ],
    [
      line(0, 'mm_page_free', 'order=0'),
      /^1:1: expected pfn=0x\.\.\. in mm_page_free, found none$/,
    ],
    ['\n\nhello', /^3:1: expected a trace line/],
    // found by the trace fuzzer: CPU 512 was imported into a workload the parser refuses
    [
      line(0, 'mm_page_alloc', 'pfn=0x1 order=0 migratetype=0 gfp_flags=GFP_KERNEL').replace(
        '[000]',
        '[1024]',
      ),
      /^1:1: expected a CPU 0\.\.1023 \(the model's limit\), found CPU 1024$/,
    ],
  ])('reports %j with its line', (text, message) => {
    const r = importTrace(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(`${r.error.line}:${r.error.col}: ${r.error.message}`).toMatch(message);
  });
});

describe('RunCounter', () => {
  it('counts runs per CPU and order, ended by another event on the same CPU', () => {
    const runs = new RunCounter();
    for (let i = 0; i < 3; i++) runs.add({ cpu: 0, kind: 'refill', order: 0 });
    runs.add({ cpu: 1, kind: 'other', order: 0 }); // another CPU: the run goes on
    runs.add({ cpu: 0, kind: 'refill', order: 0 });
    runs.add({ cpu: 0, kind: 'other', order: 0 });
    runs.add({ cpu: 0, kind: 'refill', order: 0 });
    runs.add({ cpu: 0, kind: 'refill', order: 3 }); // order change ends it
    runs.add({ cpu: 1, kind: 'drain', order: 0 });
    const t = runs.finish();
    expect(t.refill).toEqual(
      new Map([
        [
          '0/0',
          new Map([
            [4, 1],
            [1, 1],
          ]),
        ],
        ['0/3', new Map([[1, 1]])],
      ]),
    );
    expect(t.drain).toEqual(new Map([['1/0', new Map([[1, 1]])]]));
    expect(compareRunsTable(t, t)).toMatch(/^\s+0\s+0\s+2\s+2\.5\s+4×1 1×1\s+2\s+2\.5\s+4×1 1×1$/m);
  });
});

describe('zoneinfo', () => {
  const text = [
    'Node 0, zone      DMA',
    '  pages free     3840',
    '        min      43',
    '        low      53',
    '        high     63',
    '        promo    73',
    '        spanned  4095',
    '        present  3998',
    '        managed  3840',
    '        protection: (0, 3019, 5835, 5835, 5835)',
    '  pagesets',
    '    cpu: 0',
    '              count:    0',
    '              high:     0',
    '              batch:    1',
    '              high_min: 26',
    '              high_max: 240',
    '    cpu: 1',
    '              batch:    1',
    '  start_pfn:           1',
    'Node 0, zone  Movable',
    '        spanned  0',
    '        present  0',
    '        managed  0',
    '        protection: (0, 0, 0, 0, 0)',
  ].join('\n');

  it('reads zones, figures and pagesets, and builds the machine', () => {
    const z = parseZoneinfo(text);
    if (!z.ok) throw new Error(z.error.message);
    expect(comparedLines(z.zones).slice(0, 8)).toEqual([
      'Node 0, zone DMA: min 43',
      'Node 0, zone DMA: low 53',
      'Node 0, zone DMA: high 63',
      'Node 0, zone DMA: promo 73',
      'Node 0, zone DMA: spanned 4095',
      'Node 0, zone DMA: present 3998',
      'Node 0, zone DMA: managed 3840',
      'Node 0, zone DMA: protection (0, 3019, 5835, 5835, 5835)',
    ]);
    const m = machineFromZoneinfo(z.zones);
    if (!m.ok) throw new Error(m.error.message);
    expect(m.cpus).toBe(2);
    expect(m.machine).toMatchObject({
      nodes: 1,
      cpusPerNode: 2,
      maxOrder: 10,
      pageblockOrder: 9,
      thp: true,
    });
    expect(m.machine.zones[0]?.[0]).toEqual({
      startPfn: 1,
      spanned: 4095,
      present: 3998,
      managed: 3840,
    });
    expect(m.machine.zones[0]?.[3]).toEqual({ startPfn: 0, spanned: 0, present: 0, managed: 0 });
  });

  // found by the zoneinfo fuzzer: Math.max(...list) overflowed the stack on huge inputs
  it('reads a zoneinfo of 200k zones or 130k CPUs to a message, without a stack overflow', () => {
    const zones = parseZoneinfo('Node 0, zone      DMA\n'.repeat(200_000));
    expect(zones.ok ? '' : `${zones.error.line}: ${zones.error.message}`).toBe(
      '2: zone DMA of node 0 appears a second time (first at line 1): the kernel prints each zone once',
    );
    const head = 'Node 0, zone   Normal\n  spanned 9\n  present 9\n  managed 9\n  pagesets\n';
    const cpus = parseZoneinfo(head + '    cpu: 0\n'.repeat(130_000) + '  start_pfn: 0\n');
    if (!cpus.ok) throw new Error(cpus.error.message);
    const c = machineFromZoneinfo(cpus.zones);
    expect(c.ok ? '' : `${c.error.line}: ${c.error.message}`).toBe(
      "1: 130000 CPUs: above the model's limit of 1024",
    );
  });

  it('says what is missing', () => {
    const noStart = parseZoneinfo(text.replace('  start_pfn:           1', ''));
    if (!noStart.ok) throw new Error('parse');
    const m = machineFromZoneinfo(noStart.zones);
    expect(m.ok ? '' : `${m.error.line}: ${m.error.message}`).toBe(
      '1: zone DMA of node 0 has pages but no start_pfn line',
    );
    const bad = parseZoneinfo('Node 0, zone Highmem\n');
    expect(bad.ok ? '' : bad.error.message).toBe(
      'unknown zone "Highmem": expected DMA, DMA32, Normal, Movable, Device',
    );
  });
});

describe('importedWorkloadText', () => {
  const one = importTrace(
    line(0, 'mm_page_alloc', 'page=0000 pfn=0x10 order=0 migratetype=0 gfp_flags=GFP_KERNEL'),
  );
  if (!one.ok) throw new Error(one.error.message);
  const op = one.workload.ops[0]!;

  it('prints an imported trace under its header', () => {
    const r = importedWorkloadText(one.workload, '# imported from t');
    expect(r).toEqual({ ok: true, text: `# imported from t\n${printWorkload(one.workload)}` });
  });

  it('refuses a trace that imports to more text than a workload may hold', () => {
    const big = { ...one.workload, ops: new Array(800_000).fill(op) };
    const r = importedWorkloadText(big, '# imported from big');
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.message).toMatch(
        /^the trace imports to 800,000 ops, too many to run: the workload is [\d,]+ characters long: above the limit of 16,777,216; trace a shorter stretch$/,
      );
  });
});
