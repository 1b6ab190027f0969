/*
 * A machine from a capture, in the captured state: the /proc parsers (positioned errors), the
 * state they give, and the model booted in it, read back through its own /proc files.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCore } from '../core/module';
import { checkMachine } from '../share/validate';
import { machineFromCapture, tunablesFromSysctl } from './captured-state';
import { parseBuddyinfo, parsePagetypeinfo } from './free-blocks';
import { compileWorkload } from './compiler';
import { pcpListsFromTrace } from './pcp-from-trace';
import { parseZoneinfo } from './zoneinfo-machine';
import { importTrace } from './trace-import';
import { printWorkload } from './printer';
import { parseWorkload } from './parser';

const dir = fileURLToPath(new URL('../../traces/captured/thp/', import.meta.url));
const file = (name: string) => ({ name, text: readFileSync(dir + name, 'utf8') });

describe('parseBuddyinfo and parsePagetypeinfo', () => {
  it('read the captured files', () => {
    const b = parseBuddyinfo(file('buddyinfo').text);
    expect(b.ok && b.value.map((z) => [z.zone, z.free.length])).toEqual([
      [0, 11],
      [1, 11],
      [2, 11],
    ]);
    const p = parsePagetypeinfo(file('pagetypeinfo').text);
    expect(p.ok && p.value.pageblockOrder).toBe(9);
    const normal = p.ok ? p.value.zones.find((z) => z.zone === 2) : undefined;
    expect(normal?.blocks?.reduce((a, n) => a + n, 0)).toBe(1343488 / 512);
  });

  it('name the line and column of what is wrong', () => {
    expect(parseBuddyinfo('Node 0, zone   Normal      1    2   x3')).toEqual({
      ok: false,
      error: { line: 1, col: 37, message: 'expected a count of free blocks, found "x3"' },
    });
    expect(parseBuddyinfo('\nNode 0, zone   Highmem  1')).toMatchObject({
      ok: false,
      error: { line: 2, col: 16 },
    });
    const p = parsePagetypeinfo(
      'Page block order: 9\nNumber of blocks type     Unmovable      Movable\nNode 0, zone   Normal   3   4   5\n',
    );
    expect(p).toEqual({
      ok: false,
      error: {
        line: 3,
        col: 33,
        message: 'expected 2 pageblock counts (Unmovable, Movable), found 3',
      },
    });
    expect(parsePagetypeinfo('hello')).toMatchObject({ ok: false, error: { line: 1, col: 1 } });
  });
});

describe('machineFromCapture', () => {
  it('takes free blocks per order and type, pageblocks per type and every pageset', () => {
    const m = machineFromCapture(file('zoneinfo'), {
      buddyinfo: file('buddyinfo'),
      pagetypeinfo: file('pagetypeinfo'),
    });
    if (!m.ok) throw new Error(m.error.message);
    const normal = m.machine.captured?.zones.find((z) => z.zone === 2);
    expect(normal?.pageblocks).toEqual([141, 2389, 94, 0, 0]);
    expect(m.machine.captured?.pcps.filter((p) => p.zone === 2).map((p) => p.cpu)).toEqual([0, 1]);
  });

  it('names the file, line and column of a bad one, and refuses a zone zoneinfo lacks', () => {
    const bad = machineFromCapture(file('zoneinfo'), {
      buddyinfo: { name: 'buddyinfo', text: 'Node 0, zone   Normal   1 2 3\n' },
    });
    expect(bad).toMatchObject({ ok: false, file: 'buddyinfo', error: { line: 1 } });
    expect(!bad.ok && bad.error.message).toMatch(/expected 11 orders/);
    const other = machineFromCapture(file('zoneinfo'), {
      buddyinfo: { name: 'buddyinfo', text: 'Node 1, zone   Normal ' + '1 '.repeat(11) },
    });
    expect(!other.ok && other.error.message).toMatch(/has no managed pages in zoneinfo/);
  });

  it('boots the model in that state: its zoneinfo shows the capture back', async () => {
    const m = machineFromCapture(file('zoneinfo'), {
      buddyinfo: file('buddyinfo'),
      pagetypeinfo: file('pagetypeinfo'),
    });
    if (!m.ok) throw new Error(m.error.message);
    const core = await loadCore();
    const sim = core.createSim({ machine: m.machine });
    try {
      expect(sim.check()).toBeNull();
      // the model's free lists are the kernel's, type by type (pagetypeinfo, the finest file,
      // read last): the Normal zone exactly; DMA32, whose frames the model packs into fewer
      // pageblocks (1510 for the kernel's 1528 with holes), leaves one order-4 block unplaced
      const rows = (text: string, zone: string) =>
        text.split('\n').filter((l) => l.includes(`zone ${zone.padStart(8)}, type`));
      const mine = sim.proc('pagetypeinfo');
      const theirs = file('pagetypeinfo').text;
      expect(rows(mine, 'Normal')).toEqual(rows(theirs, 'Normal'));
      expect(rows(mine, 'DMA')).toEqual(rows(theirs, 'DMA'));
      const free = (text: string) =>
        rows(text, 'DMA32').reduce(
          (n, l) =>
            n +
            l
              .trim()
              .split(/\s+/)
              .slice(6)
              .reduce((m, c, o) => m + Number(c) * 2 ** o, 0),
          0,
        );
      expect(free(theirs) - free(mine)).toBe(16);
      const pagesets = [...sim.proc('zoneinfo').matchAll(/count:\s+(\d+)\n\s+high:\s+(\d+)/g)];
      const real = [...file('zoneinfo').text.matchAll(/count:\s+(\d+)\n\s+high:\s+(\d+)/g)];
      expect(pagesets.map((x) => [x[1], x[2]])).toEqual(real.map((x) => [x[1], x[2]]));
      expect(sim.opCount()).toBe(0);
      expect(sim.eventCount()).toBe(0);
    } finally {
      sim.dispose();
    }
  });

  it('travels in a share link', () => {
    const m = machineFromCapture(file('zoneinfo'), { pagetypeinfo: file('pagetypeinfo') });
    if (!m.ok) throw new Error(m.error.message);
    const back = checkMachine(JSON.parse(JSON.stringify(m.machine)));
    expect(back).toEqual({ ok: true, value: m.machine });
    const broken = { ...m.machine, captured: { zones: [], pcps: [{ cpu: 99 }] } };
    expect(checkMachine(broken).ok).toBe(false);
  });
});

describe('pcpListsFromTrace', () => {
  it('puts on each list what the trace saw it give out before a refill', () => {
    const m = machineFromCapture(file('zoneinfo'), {});
    if (!m.ok || !m.machine.captured) throw new Error('no machine');
    const pfn = (n: number) => `0x${(0x150000 + n).toString(16)}`;
    const rec = (event: string, fields: string) =>
      `  touch-1 [001] ..... 5.000000: ${event}: page=0 ${fields}`;
    const trace = [
      rec('mm_page_alloc', `pfn=${pfn(0)} order=0 migratetype=1 gfp_flags=GFP_HIGHUSER_MOVABLE`),
      rec('mm_page_alloc', `pfn=${pfn(1)} order=0 migratetype=1 gfp_flags=GFP_HIGHUSER_MOVABLE`),
      rec('mm_page_alloc_zone_locked', `pfn=${pfn(2)} order=0 migratetype=1 percpu_refill=1`),
      rec('mm_page_pcpu_drain', `pfn=${pfn(512)} order=9 migratetype=1`),
    ].join('\n');
    const s = pcpListsFromTrace(m.machine.captured, m.machine, trace);
    const cpu1 = s.pcps.find((p) => p.cpu === 1 && p.zone === 2);
    const count = m.machine.captured.pcps.find((p) => p.cpu === 1 && p.zone === 2)?.count ?? 0;
    // the THP list held at least one block; the rest of the count went to it (never seen empty)
    const thp = cpu1?.lists?.find((l) => l.order === 9)?.blocks ?? 0;
    expect(thp).toBe(Math.floor((count - 2) / 512));
    // the order-0 MOVABLE list held the 2 it gave out (the refill proved it empty then); what no
    // whole THP takes goes to an order-0 list the trace never touched (UNMOVABLE here)
    expect(cpu1?.lists?.find((l) => l.order === 0 && l.mt === 1)?.blocks).toBe(2);
    expect(cpu1?.lists?.find((l) => l.order === 0 && l.mt === 0)?.blocks).toBe((count - 2) % 512);
    expect(cpu1?.lists?.reduce((n, l) => n + l.blocks * 2 ** l.order, 0)).toBe(count);
  });

  it('raises the count to the bounds by one refill at most, else scales them to it', () => {
    const m = machineFromCapture(file('zoneinfo'), {});
    const zones = parseZoneinfo(file('zoneinfo').text);
    if (!m.ok || !m.machine.captured || !zones.ok) throw new Error('no machine');
    const count = m.machine.captured.pcps.find((p) => p.cpu === 1 && p.zone === 2)?.count ?? 0;
    const takes = (n: number) =>
      Array.from(
        { length: n },
        (_, i) =>
          `  touch-1 [001] ..... 5.000000: mm_page_alloc: page=0 pfn=0x${(0x150000 + i).toString(16)} order=0 migratetype=0 gfp_flags=GFP_KERNEL`,
      ).join('\n');
    const cpu1 = (n: number) =>
      pcpListsFromTrace(m.machine.captured!, m.machine, takes(n), zones.zones).pcps.find(
        (p) => p.cpu === 1 && p.zone === 2,
      );
    // 100 more than zoneinfo counted: read a moment before they came (batch 63: up to 2016)
    expect(cpu1(count + 100)?.count).toBe(count + 100);
    // 3000 more is no lag but lines taken for the wrong list: the count stands
    expect(cpu1(count + 3000)?.count).toBe(count);
    expect(cpu1(count + 3000)?.lists?.[0]?.blocks).toBeLessThanOrEqual(count);
  });
});

describe('pcpListsFromTrace: the count a refill shows', () => {
  // two-cpu-drain's machine: percpu_pagelist_high_fraction fixed CPU 0's Normal high at 3358
  const dir2 = fileURLToPath(new URL('../../traces/captured/two-cpu-drain/', import.meta.url));
  const zoneinfo = readFileSync(dir2 + 'zoneinfo', 'utf8');
  const m = machineFromCapture({ name: 'zoneinfo', text: zoneinfo }, {});
  const zones = parseZoneinfo(zoneinfo);
  if (!m.ok || !m.machine.captured || !zones.ok) throw new Error('no machine');
  const machine = m.machine;
  const captured = m.machine.captured;
  const pfn = (n: number) => `0x${(0x150000 + n).toString(16)}`;
  const rec = (event: string, fields: string, flags = '.....') =>
    `  touch-1 [000] ${flags} 5.000000: ${event}: page=0 ${fields}`;
  const alloc = (n: number) =>
    rec('mm_page_alloc', `pfn=${pfn(n)} order=0 migratetype=1 gfp_flags=GFP_HIGHUSER_MOVABLE`);
  const refill = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) =>
      rec(
        'mm_page_alloc_zone_locked',
        `pfn=${pfn(from + i)} order=0 migratetype=1 percpu_refill=1`,
        'd..3.',
      ),
    );
  const cpu0 = (lines: string[]) =>
    pcpListsFromTrace(captured, machine, lines.join('\n'), zones.zones).pcps.find(
      (p) => p.cpu === 0 && p.zone === 2,
    );
  const zoneinfoCount = captured.pcps.find((p) => p.cpu === 0 && p.zone === 2)?.count ?? 0;

  it('reads it from a refill the room left capped (high - batch - blocks)', () => {
    expect(zoneinfoCount).toBe(3307);
    // 2 pages taken, then a refill of 100 (not 63 << k): count was 3358 - 63 - 100 = 3195 then
    expect(cpu0([alloc(0), alloc(1), ...refill(10, 100), alloc(10)])?.count).toBe(3195 + 2);
    // a refill of 63 << k says nothing of the count
    expect(cpu0([alloc(0), alloc(1), ...refill(10, 126), alloc(10)])?.count).toBe(zoneinfoCount);
  });

  it('takes a refill held to batch after a refill as a lower bound, and the bounds over zoneinfo', () => {
    // 150 UNMOVABLE pages taken; the second MOVABLE refill came with alloc_factor >= 1, asked 126
    // and got 63: count >= 3358 - 126 then, 3232 + 150 + 1 - 63 + 1 at the start, above zoneinfo's
    const unmovable = Array.from({ length: 150 }, (_, i) =>
      rec('mm_page_alloc', `pfn=${pfn(9000 + i)} order=0 migratetype=0 gfp_flags=GFP_KERNEL`),
    );
    const twice = [...unmovable, alloc(0), ...refill(10, 63), alloc(10), ...refill(100, 63)];
    expect(cpu0([...twice, alloc(100)])?.count).toBe(3232 + 150 + 1 - 63 + 1);
    // a free between the two halves alloc_factor: no bound
    const freed = [
      ...unmovable,
      alloc(0),
      ...refill(10, 63),
      alloc(10),
      rec('mm_page_free', `pfn=${pfn(10)} order=0`),
      ...refill(100, 63),
      alloc(100),
    ];
    expect(cpu0(freed)?.count).toBe(zoneinfoCount);
  });

  it('does not count a free that came while the pcp lock was held', () => {
    const lines = [
      alloc(0),
      ...refill(10, 63),
      // a softirq between the refill and its mm_page_alloc: the trylock failed, to the buddy
      rec('mm_page_free', `pfn=${pfn(5000)} order=0`, '..s3.'),
      alloc(10),
    ];
    const lists = cpu0(lines)?.lists ?? [];
    // the order-0 MOVABLE list gave out 1 before its refill: the free did not reach it
    expect(lists.find((l) => l.order === 0 && l.mt === 1)?.blocks).toBe(1);
  });

  it('counts the blocks a refill stole, which only an extfrag line traces', () => {
    const steal = (n: number) =>
      rec(
        'mm_page_alloc_extfrag',
        `pfn=${pfn(n)} alloc_order=0 fallback_order=0 pageblock_order=9 alloc_migratetype=1 fallback_migratetype=0 fragmenting=1 change_ownership=0`,
        'd..3.',
      );
    const movable = (lines: string[]) =>
      cpu0(lines)?.lists?.find((l) => l.order === 0 && l.mt === 1)?.blocks;
    const taken = Array.from({ length: 10 }, (_, i) => alloc(i));
    // a refill of 2 blocks off the Movable list and 3 stolen: the 5 taken after it came from it,
    // so the list held just the 10 taken before it
    expect(
      movable([
        ...taken,
        ...refill(100, 2),
        steal(200),
        steal(201),
        steal(202),
        alloc(100),
        ...[101, 200, 201, 202].map(alloc),
      ]),
    ).toBe(10);
    // one block stolen for an allocation from the buddy (no refill around it) left the list alone
    expect(movable([...taken, steal(300), alloc(300), ...refill(100, 63), alloc(100)])).toBe(10);
  });

  it('takes the lists a drain left or passed over as empty then', () => {
    const drain = (n: number, order: number, mt: number) =>
      rec('mm_page_pcpu_drain', `pfn=${pfn(n)} order=${order} migratetype=${mt}`, 'd..3.');
    // one drain: 3 pages off the order-0 Movable list, then 2 blocks off the order-2 Unmovable
    // one: the Movable list held 3 and the lists between (order-0 Reclaimable, order 1) nothing
    const lists =
      cpu0([drain(0, 0, 1), drain(1, 0, 1), drain(2, 0, 1), drain(8, 2, 0), drain(12, 2, 0)])
        ?.lists ?? [];
    expect(lists.find((l) => l.order === 0 && l.mt === 1)?.blocks).toBe(3);
    expect(lists.some((l) => l.order === 0 && l.mt === 2)).toBe(false);
    expect(lists.some((l) => l.order === 1)).toBe(false);
    // the rest of the count is where no drain looked: on the order-2 list it stopped at, and the
    // order-0 Unmovable list it did not reach
    expect(lists.reduce((n, l) => n + l.blocks * 2 ** l.order, 0)).toBe(zoneinfoCount);
    // a drain that seems to come back to a list printed a page's pageblock type, not its list's:
    // it shows nothing, so no list is closed and the order-0 lists share the rest of the count
    const back = cpu0([drain(0, 0, 1), drain(1, 0, 0), drain(2, 0, 1), drain(8, 2, 0)])?.lists;
    expect(back?.find((l) => l.order === 0 && l.mt === 0)?.blocks).toBeGreaterThan(1000);
  });

  describe('the count two drains show', () => {
    const free = (n: number) => rec('mm_page_free', `pfn=${pfn(n)} order=0`);
    const drain = (n: number, order = 0) =>
      rec('mm_page_pcpu_drain', `pfn=${pfn(n)} order=${order} migratetype=1`, 'd..3.');
    const range = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => from + i);
    // 12 pages taken (free_count halved past anything it held), then 50 frees traced as one
    // folio batch: the 40th brought count to high 3358, free_count 40 asked batch 63 (30 pages
    // from before the trace, then the batch's first 33); the batch's last 10 and 53 more frees
    // brought it back after 63 pages, free_count 103 asked the order-0 list's 70 and 17 order-1
    // blocks: its last order-0 page was that trigger. So count was 3358 - 40 + 12 at the start.
    const taken = range(0, 11).map(alloc);
    const d1 = [...range(5000, 5029), ...range(100, 132)].map((n) => drain(n));
    const second = range(133, 202).map((n) => drain(n));
    const order1 = range(0, 16).map((i) => drain(6000 + 2 * i, 1));
    const burst = [...range(100, 149).map(free), ...d1, ...range(150, 202).map(free)];

    it('reads it from the free that triggered the second, which emptied its first list', () => {
      expect(cpu0([...taken, ...burst, ...second, ...order1])?.count).toBe(3358 - 40 + 12);
    });

    it('keeps what the drains showed a list held where the bounds exceed that count', () => {
      // 3400 pages taken off the order-0 Unmovable list and given back before the rest: a bound
      // of 3400 there, which with what the drains showed the Movable list holding exceeds the
      // count the drains read (3330); the bound gives way, the Movable list keeps its pages
      const pages = range(7000, 10399);
      const unmovable = pages.map((n) =>
        rec('mm_page_alloc', `pfn=${pfn(n)} order=0 migratetype=0 gfp_flags=GFP_KERNEL`),
      );
      const lines = [...taken, ...burst, ...second, ...order1];
      const movable = (p: ReturnType<typeof cpu0>) =>
        p?.lists?.find((l) => l.order === 0 && l.mt === 1)?.blocks;
      const p = cpu0([...unmovable, ...pages.map(free), ...lines]);
      expect(p?.count).toBe(3358 - 40 + 12);
      expect(movable(p)).toBe(movable(cpu0(lines)));
      expect(p?.lists?.find((l) => l.order === 0 && l.mt === 0)?.blocks).toBeLessThan(3400);
      expect(p?.lists?.reduce((n, l) => n + l.blocks * 2 ** l.order, 0)).toBe(3358 - 40 + 12);
    });

    it('says nothing when the second stayed on one list, or something was taken between', () => {
      expect(cpu0([...taken, ...burst, ...second])?.count).toBe(zoneinfoCount);
      const between = [...burst.slice(0, 113), alloc(20), ...burst.slice(113)];
      expect(cpu0([...taken, ...between, ...second, ...order1])?.count).toBe(zoneinfoCount);
    });
  });
});

describe('free NAME pcp_locked in the core', () => {
  it('goes to the buddy on 6.18 (the pcp trylock fails) and to the list on 5.14', async () => {
    const core = await loadCore();
    for (const [profile, onList] of [
      ['6.18', 0],
      ['5.14', 1],
    ] as const) {
      const text = `machine small\nprofile ${profile}\ncpu 0 alloc a\ncpu 0 alloc a\n`;
      const parsed = parseWorkload(`${text}cpu 0 free a pcp_locked\ncpu 0 free a\n`);
      if (!parsed.ok) throw new Error(parsed.error.message);
      const compiled = compileWorkload(parsed.workload);
      if (!compiled.ok) throw new Error(compiled.error.message);
      const sim = core.createSim(compiled.program.config);
      const counts: number[] = [];
      try {
        sim.runOps(compiled.program.ops, () => {
          counts.push(sim.pcps().find((p) => p.cpu === 0 && p.count > 0)?.count ?? 0);
        });
      } finally {
        sim.dispose();
      }
      // after the two allocs, the locked free, the ordinary free
      const [, afterAllocs, locked, plain] = counts;
      expect(locked).toBe((afterAllocs ?? 0) + onList);
      expect(plain).toBe((locked ?? 0) + 1);
    }
  });
});

describe('tunablesFromSysctl', () => {
  it('takes the vm sysctls the model boots with and says where a value is bad', () => {
    expect(
      tunablesFromSysctl(
        'vm.min_free_kbytes = 67584\nvm.page-cluster = 3\nvm.lowmem_reserve_ratio = 256\t256\t32\t0\t0\n',
      ),
    ).toEqual({
      ok: true,
      tunables: { minFreeKbytes: 67584, lowmemReserveRatio: [256, 256, 32, 0, 0] },
    });
    expect(tunablesFromSysctl('vm.watermark_scale_factor = ten')).toEqual({
      ok: false,
      error: {
        line: 1,
        col: 29,
        message: 'expected a number for vm.watermark_scale_factor, found "ten"',
      },
    });
  });
});

describe('timed import', () => {
  const rec = (cpu: number, t: string, event: string, fields: string) =>
    `  touch-1 [00${cpu}] ..... ${t}: ${event}: ${fields}`;
  const alloc = (cpu: number, t: string, pfn: number) =>
    rec(
      cpu,
      t,
      'mm_page_alloc',
      `page=0 pfn=0x${pfn.toString(16)} order=0 migratetype=1 gfp_flags=GFP_HIGHUSER_MOVABLE`,
    );

  it('puts a tick where each CPU ran the vmstat worker in the trace', () => {
    const text = [
      alloc(0, '1.100000', 0x100),
      rec(
        1,
        '1.200000',
        'workqueue_execute_start',
        'work struct 00000000abcd: function vmstat_update',
      ),
      rec(
        0,
        '1.300000',
        'workqueue_execute_start',
        'work struct 00000000abcd: function flush_to_ldisc',
      ),
      alloc(0, '1.400000', 0x101),
    ].join('\n');
    const r = importTrace(text);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.stats.tickSource).toBe('traced');
    expect(printWorkload(r.workload)).toBe(
      'cpu 0 alloc h100 order=0 GFP_HIGHUSER_MOVABLE for=anon\ncpu 1 tick\ncpu 0 alloc h101 order=0 GFP_HIGHUSER_MOVABLE for=anon\n',
    );
    expect(r.times).toEqual([1.1, 1.2, 1.4]);
  });

  it('otherwise ticks every CPU at the kernel interval, skewed 3 jiffies per CPU', () => {
    // HZ 250: CPU 0 at whole seconds, CPU 1 at 12 ms before them
    const text = [
      alloc(0, '0.500000', 0x100),
      alloc(1, '0.600000', 0x101),
      alloc(0, '0.990000', 0x102),
      alloc(0, '1.000000', 0x103),
      alloc(1, '2.100000', 0x104),
    ].join('\n');
    const r = importTrace(text);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.stats.tickSource).toBe('interval');
    const ticks = r.workload.ops.flatMap((op, i) =>
      op.kind === 'tick' ? [`${op.cpu ?? '-'}@${r.times[i]}`] : [],
    );
    expect(ticks).toEqual(['1@0.99', '0@1', '0@2.1', '1@2.1']);
    const round = parseWorkload(printWorkload(r.workload));
    expect(round.ok && round.workload.ops).toEqual(r.workload.ops);
  });

  it('refuses time going backwards with the line', () => {
    const r = importTrace([alloc(0, '2.000000', 0x100), alloc(0, '1.000000', 0x101)].join('\n'));
    expect(r).toMatchObject({ ok: false, error: { line: 2 } });
  });
});
