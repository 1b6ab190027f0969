// The workload language's reclaim words: alloc ... for=PURPOSE, touch NAME [*] and the machine's
// swap=N, parsed, printed back and compiled to OP_LRU_ALLOC / OP_MARK_ACCESSED records.
import { describe, expect, it } from 'vitest';
import { GFP_COMPOSITES } from '../core/gfp';
import { OpKind } from '../core/ops';
import { compileWorkload } from './compiler';
import { formatError } from './errors';
import { parseWorkload } from './parser';
import { printWorkload } from './printer';

function parsed(text: string) {
  const r = parseWorkload(text);
  if (!r.ok) throw new Error(formatError(r.error));
  return r;
}

function parseError(text: string): string {
  const r = parseWorkload(text);
  if (r.ok) throw new Error('expected a parse error');
  return formatError(r.error);
}

describe('reclaim in the workload language', () => {
  it('reads for= with GFP_HIGHUSER_MOVABLE as its default, and prints it back', () => {
    const r = parsed('cpu 1 alloc cache for=file-dirty\nalloc heap order=2 GFP_KERNEL for=anon\n');
    expect(r.workload.ops).toEqual([
      {
        kind: 'alloc',
        cpu: 1,
        group: 'cache',
        order: 0,
        gfp: ['GFP_HIGHUSER_MOVABLE'],
        purpose: 'file-dirty',
      },
      { kind: 'alloc', cpu: 0, group: 'heap', order: 2, gfp: ['GFP_KERNEL'], purpose: 'anon' },
    ]);
    const text = printWorkload(r.workload);
    expect(text).toBe(
      'cpu 1 alloc cache order=0 GFP_HIGHUSER_MOVABLE for=file-dirty\ncpu 0 alloc heap order=2 GFP_KERNEL for=anon\n',
    );
    expect(parsed(text).workload).toEqual(r.workload);
  });

  it('reads touch and swap=, and prints them back', () => {
    const r = parsed(
      'machine nodes=1 cpus=2 normal=4096 swap=1024\nalloc m for=file-mapped\ncpu 1 touch m\ntouch m *\n',
    );
    expect(r.workload.machine).toMatchObject({ kind: 'explicit', swap: 1024 });
    expect(r.workload.ops.slice(1)).toEqual([
      { kind: 'touch_group', cpu: 1, group: 'm', all: false },
      { kind: 'touch_group', cpu: 0, group: 'm', all: true },
    ]);
    expect(parsed(printWorkload(r.workload)).workload).toEqual(r.workload);
  });

  it('refuses an unknown purpose, a repeated for= and a swap past the limit, with positions', () => {
    expect(parseError('alloc a for=filez\n')).toMatch(
      /^1:13: .*anon, file, file-dirty, file-mapped.*did you mean file\?/,
    );
    expect(parseError('alloc a for=anon for=file\n')).toMatch(/^1:18: for is given twice/);
    expect(parseError('machine normal=256 swap=99999999999\n')).toMatch(/^1:25: .*swap pages/);
    expect(parseError('alloc a order=1 colour=red\n')).toMatch(/expected order=K, for=anon\|file/);
  });

  it('compiles for= to OP_LRU_ALLOC with enum lru_purpose, touch NAME to OP_MARK_ACCESSED, swap to the config', () => {
    const r = parsed(
      'machine nodes=1 cpus=2 normal=4096 swap=1024\nalloc k\nalloc m for=file-mapped\nalloc a for=anon\ntouch m\ntouch a *\n',
    );
    const c = compileWorkload(r.workload, { positions: r.positions });
    if (!c.ok) throw new Error(formatError(c.error));
    expect(c.program.config.machine).toMatchObject({ kind: 'explicit', swap: 1024 });
    const ops = c.program.ops.toArray();
    expect(ops.map((o) => [o.kind, o.handle, o.arg])).toEqual([
      [OpKind.ALLOC, 0, 0],
      [OpKind.LRU_ALLOC, 1, 4],
      [OpKind.LRU_ALLOC, 2, 1],
      [OpKind.MARK_ACCESSED, 1, 0],
      [OpKind.MARK_ACCESSED, 2, 0],
    ]);
    expect(ops[1]?.gfp).toBe(GFP_COMPOSITES.GFP_HIGHUSER_MOVABLE);
  });

  it('refuses to touch a group with no live block, at its line', () => {
    const r = parsed('alloc a for=file\nfree a\ntouch a\n');
    const c = compileWorkload(r.workload, { positions: r.positions });
    expect(c.ok).toBe(false);
    if (!c.ok)
      expect(formatError(c.error)).toMatch(
        /^3:1: touch a: every block of group "a" is already freed/,
      );
  });
});
