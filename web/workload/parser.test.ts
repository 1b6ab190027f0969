import { describe, expect, it } from 'vitest';
import { formatError } from './errors';
import { parseWorkload } from './parser';

/** `line:col: message` of a text that must fail to parse. */
function errorOf(text: string): string {
  const r = parseWorkload(text);
  if (r.ok) throw new Error(`expected an error for ${JSON.stringify(text)}`);
  return formatError(r.error);
}

function parsed(text: string) {
  const r = parseWorkload(text);
  if (!r.ok) throw new Error(formatError(r.error));
  return r.workload;
}

describe('parseWorkload', () => {
  it('fills in the defaults: cpu 0, order 0, GFP_KERNEL, tick 1, random max_order 3 free 50', () => {
    const w = parsed('alloc a\ntick\nrandom 10\n');
    expect(w.machine).toBeNull();
    expect(w.ops).toEqual([
      { kind: 'alloc', cpu: 0, group: 'a', order: 0, gfp: ['GFP_KERNEL'], purpose: null },
      { kind: 'tick', count: 1 },
      { kind: 'random', cpu: 0, count: 10, maxOrder: 3, freePercent: 50, gfp: ['GFP_KERNEL'] },
    ]);
  });

  it('reads the header: machine preset, profile, sets, seed', () => {
    const w = parsed(
      'machine laptop\nprofile 2016-v5\nset min_free_kbytes=1024 lowmem_reserve_ratio=256,256,32\nseed 0xffffffffffffffff\n',
    );
    expect(w.machine).toEqual({ kind: 'preset', name: 'laptop' });
    expect(w.profile).toBe('2016-v5');
    expect(w.sets).toEqual([
      { name: 'min_free_kbytes', values: [1024] },
      { name: 'lowmem_reserve_ratio', values: [256, 256, 32] },
    ]);
    expect(w.seed).toBe(0xffffffffffffffffn);
  });

  it('reads an explicit machine with defaults for the keys left out', () => {
    const w = parsed('machine nodes=2 cpus=4 max_order=6 normal=1024 batch=7\n');
    expect(w.machine).toEqual({
      kind: 'explicit',
      nodes: 2,
      cpus: 4,
      maxOrder: 6,
      pageblockOrder: 6,
      thp: true,
      batch: 7,
      swap: 0,
      dma: 0,
      dma32: 0,
      normal: 1024,
      movable: 0,
    });
  });

  it('reads repeat on one line and across lines, nested', () => {
    const w = parsed(
      'repeat 2 { cpu 1 alloc x order=2 GFP_ATOMIC|__GFP_COMP }\nrepeat 3 {\n  repeat 4 {\n    free x *\n  }\n}\n',
    );
    expect(w.ops).toEqual([
      {
        kind: 'repeat',
        count: 2,
        body: [
          {
            kind: 'alloc',
            cpu: 1,
            group: 'x',
            order: 2,
            gfp: ['GFP_ATOMIC', '__GFP_COMP'],
            purpose: null,
          },
        ],
      },
      {
        kind: 'repeat',
        count: 3,
        body: [
          { kind: 'repeat', count: 4, body: [{ kind: 'free', cpu: 0, group: 'x', all: true }] },
        ],
      },
    ]);
  });

  it('reads the address-space statements with their defaults', () => {
    const r = parseWorkload(
      'cpu 1 thread\ncpu 1 mmap at=16 pages=64\ncpu 1 mmap mm=2 at=0 pages=8 prot=r file\n' +
        'cpu 1 touch at=16\ncpu 1 touch at=16 pages=8 read\ncpu 1 mprotect at=16 pages=4 prot=none\n' +
        'cpu 1 munmap at=16 pages=64',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const base = { cpu: 1, mm: 0, prot: '', file: false, write: false };
    expect(r.workload.ops).toEqual([
      { ...base, kind: 'thread', at: 0, pages: 0 },
      { ...base, kind: 'mmap', at: 16, pages: 64, prot: 'rw' },
      { ...base, kind: 'mmap', mm: 2, at: 0, pages: 8, prot: 'r', file: true },
      { ...base, kind: 'touch', at: 16, pages: 1, write: true },
      { ...base, kind: 'touch', at: 16, pages: 8 },
      { ...base, kind: 'mprotect', at: 16, pages: 4, prot: 'none' },
      { ...base, kind: 'munmap', at: 16, pages: 64 },
    ]);
  });

  it.each([
    ['cpu 0 mmap at=0', '1:16: mmap needs pages= (e.g. cpu 0 mmap at=0 pages=64)'],
    [
      'cpu 0 mmap at=0 pages=8 prot=wr',
      '1:30: expected a protection made of r, w, x in that order, or none, found "wr"',
    ],
    ['cpu 0 touch at=0 pages=513', '1:24: a page count must be between 1 and 512, found 513'],
    ['cpu 0 thread mm=4', '1:17: a process number must be between 0 and 3, found 4'],
    [
      'cpu 0 munmap at=32760 pages=16',
      '1:31: the range at=32760 pages=16 ends past the 32768-page window of a process',
    ],
    [
      'cpu 0 touch at=1 sideways',
      '1:18: unexpected "sideways" in touch: expected mm=, at=, pages=, read, write',
    ],
    [
      'cpu 0 mmap at=1 pages=2 page=3',
      '1:25: unknown option "page=" of mmap: expected mm=, at=, pages=, prot= (did you mean pages?)',
    ],
  ])('address-space statement %j fails with %j', (text, message) => {
    const r = parseWorkload(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(`${r.error.line}:${r.error.col}: ${r.error.message}`).toBe(message);
  });

  it('keeps comments out and positions in', () => {
    const r = parseWorkload('# header\n\n   cpu 1 drain   # why\n');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const op = r.workload.ops[0];
    expect(op).toEqual({ kind: 'drain', cpu: 1 });
    expect(op && r.positions.get(op)).toEqual({ line: 3, col: 4 });
  });

  it.each([
    [
      'cpu 0 alloc a order=0 GFP_KERNAL',
      '1:23: unknown gfp flag "GFP_KERNAL" (did you mean GFP_KERNEL?)',
    ],
    ['machine tiny\nmachine small', '2:1: a second machine line (the first is at 1:1)'],
    ['alloc a\nprofile 6.6', '2:1: profile must come before the first op (line 1)'],
    [
      'profile 6.19',
      '1:9: unknown profile "6.19": expected 6.18, 6.6, 5.14, 5.13, 2016-v5, 2016-prefix, 4.13, 4.14, 5.1, 4.16, 4.16-spf-v9, 4.17-spf-v11, 3.0, 3.1-zlcfirst, 3.1-zlcreconsider, 4.4, 4.8 (did you mean 6.18?)',
    ],
    ['cpu', '1:4: expected a cpu number, found end of file'],
    [
      'cpu 1',
      '1:6: expected an op after cpu 1 (alloc, free, drain, corrupt, random, free_pfn, free_captured, free_folios, offline, online, kswapd, percpu, thread, mmap, munmap, mprotect, touch, work), found end of file',
    ],
    [
      'cpu 0 allocate a',
      '1:7: expected an op (alloc, free, drain, corrupt, random, free_pfn, free_captured, free_folios, offline, online, kswapd, percpu, thread, mmap, munmap, mprotect, touch, work), found "allocate" (did you mean alloc?)',
    ],
    [
      'alloc 3x',
      '1:7: expected a handle group name (a letter or "_", then letters, digits or "_"), found "3x"',
    ],
    ['alloc a order=11', '1:15: order must be between 0 and 10, found 11'],
    ['alloc a order=1 order=2', '1:17: order is given twice'],
    [
      'free a b',
      '1:8: expected end of line after free a [pcp_locked] (add "*" to free every block), found "b"',
    ],
    [
      'cpu 0 free_folios a captured order=1 order=2',
      '1:38: expected order=K, pfn=P or type=unmovable|movable|reclaimable of a captured block, or the next block, found "order"',
    ],
    [
      'cpu 0 free_folios captured size=3',
      '1:28: expected order=K, pfn=P or type=unmovable|movable|reclaimable of a captured block, or the next block, found "size"',
    ],
    [
      'cpu 0 free_captured order=0 pcp_locked pcp_locked',
      '1:40: expected order=K, pfn=P, type=unmovable|movable|reclaimable, pcp_locked or end of line, found "pcp_locked"',
    ],
    [`cpu 0 free_folios${' captured'.repeat(32)}`, '1:298: a folio batch holds at most 31 blocks'],
    ['offline', '1:1: expected cpu N before offline (e.g. cpu 1 offline)'],
    [
      'cpu 1 tick 3',
      '1:12: expected end of line after cpu 1 tick (one CPU\'s vmstat run takes no count), found "3"',
    ],
    ['cpu 1 drain all', '1:13: drain all drains every CPU: write it without cpu N'],
    ['repeat 3 alloc a', '1:10: expected "{" after repeat 3, found "alloc"'],
    ['repeat 3 {\n alloc a', '2:9: expected "}" to close the repeat at 1:1, found end of file'],
    ['}', '1:1: expected a statement, found "}" with no open repeat'],
    ['repeat 3000000 { tick }', '1:8: a repeat count 3000000 is above the limit of 2,000,000 ops'],
    ['random 2000001', '1:8: random step count 2000001 is above the limit of 2,000,000 ops'],
    ['machine nodes=65 normal=1', '1:15: nodes 65 is above the limit of 64 nodes'],
    [
      'machine nodes=64 cpus=17 normal=1',
      '1:18: 64 nodes of 17 CPUs are 1088 CPUs: above the limit of 1024 CPUs',
    ],
    ['machine cpus=65 normal=1', '1:14: cpus 65 is above the limit of 64 CPUs per node'],
    [
      'cpu 1024 alloc a',
      '1:5: a cpu number 1024 is above the highest, 1023 (CPUs are numbered from 0; the model has at most 1024)',
    ],
    [
      'machine nodes=2 normal=2147483648',
      '1:1: the machine has 4,294,967,296 managed pages: above the limit of 4,294,967,295 (16 TiB) managed pages',
    ],
    [
      'machine max_order=4 pageblock_order=5 normal=8',
      '1:21: pageblock_order 5 is above max_order 4',
    ],
    [
      'machine cpus=2',
      '1:1: expected at least one zone with pages (dma=N, dma32=N, normal=N or movable=N)',
    ],
    ['machine normal=1 normal=2', '1:18: normal is given twice'],
    [
      'machine nodez=1',
      '1:9: unknown machine key "nodez": expected nodes, cpus, max_order, pageblock_order, thp, batch, swap, dma, dma32, normal, movable (did you mean nodes?)',
    ],
    [
      'set percpu_pagelist_high_fraction=4',
      '1:35: percpu_pagelist_high_fraction must be 0 or at least 8, found 4',
    ],
    [
      'set lowmem_reserve_ratio=1,2,3,4,5,6',
      '1:35: lowmem_reserve_ratio has one value per zone: at most 5 (DMA, DMA32, Normal, Movable, Device)',
    ],
    [
      'set',
      '1:4: expected NAME=VALUE after set (min_free_kbytes, watermark_scale_factor, watermark_boost_factor, percpu_pagelist_high_fraction, lowmem_reserve_ratio, zone_reclaim_mode, min_unmapped_ratio, min_slab_ratio, numa_zonelist_order), found end of file',
    ],
    [
      'repeat 1 {\n seed 3\n}',
      '2:2: seed may not appear inside repeat: it must come before the first op',
    ],
    [
      'alloc a @',
      '1:9: unexpected character "@": expected a word, "=", "|", ",", "*", "{", "}" or "#"',
    ],
    ['seed -1', '1:6: expected a seed between 0 and 2^64-1, found "-1"'],
    ['free_pfn 0x1234 order=x', '1:23: expected order, found "x"'],
  ])('%j fails with %j', (text, message) => {
    expect(errorOf(text)).toBe(message);
  });

  it('refuses repeat nested past the limit', () => {
    const text = 'repeat 1 {\n'.repeat(40) + 'tick\n' + '}\n'.repeat(40);
    expect(errorOf(text)).toBe('33:1: repeat nests deeper than the limit of 32');
  });
});

describe('percpu statements', () => {
  it('parses alloc with defaults, flags and free orders', () => {
    const r = parseWorkload(
      'percpu alloc a size=16\ncpu 1 percpu alloc b size=8 align=8 reserved atomic\npercpu free a\npercpu free b * alternating\npercpu free a *\npercpu balance\n',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.workload.ops).toEqual([
      {
        kind: 'percpu_alloc',
        cpu: 0,
        group: 'a',
        size: 16,
        align: 4,
        reserved: false,
        atomic: false,
      },
      { kind: 'percpu_alloc', cpu: 1, group: 'b', size: 8, align: 8, reserved: true, atomic: true },
      { kind: 'percpu_free', cpu: 0, group: 'a', order: null },
      { kind: 'percpu_free', cpu: 0, group: 'b', order: 'alternating' },
      { kind: 'percpu_free', cpu: 0, group: 'a', order: 'in-order' },
      { kind: 'percpu_balance', cpu: 0 },
    ]);
  });

  it.each([
    ['percpu alloc a size=0', '1:21', 'the kernel refuses 0'],
    ['percpu alloc a size=32769', '1:21', 'PCPU_MIN_UNIT_SIZE'],
    ['percpu alloc a size=8 align=3', '1:29', 'power of two'],
    ['percpu alloc a size=8 align=8192', '1:29', 'PAGE_SIZE'],
    ['percpu alloc a', '1:15', 'needs size=S'],
    ['percpu alloc a size=4 atomc', '1:23', 'did you mean atomic'],
    ['percpu free a * backwards', '1:17', 'unknown free order'],
    ['percpu grab a', '1:8', 'expected alloc, free or balance'],
  ])('rejects %j at %s', (text, at, msg) => {
    const r = parseWorkload(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(`${r.error.line}:${r.error.col}`).toBe(at);
    expect(r.error.message).toContain(msg);
  });
});
