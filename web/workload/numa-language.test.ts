// vm.numa_zonelist_order in the workload language: a word (default, node, zone), printed back as
// written, compiled to OP_SYSCTL, and refused with its position on the profiles that no longer
// have zone ordering (4.14+), as their kernel refuses it with EINVAL.
import { describe, expect, it } from 'vitest';
import { SYSCTL_ID } from '../core/generated/sysctls';
import { OpKind } from '../core/ops';
import { compileWorkload } from './compiler';
import { formatError } from './errors';
import { parseWorkload } from './parser';
import { printWorkload } from './printer';

function parseError(text: string): string {
  const r = parseWorkload(text);
  if (r.ok) throw new Error('expected a parse error');
  return formatError(r.error);
}

describe('numa_zonelist_order', () => {
  it('reads default, node and zone (the first letter, either case) and prints the word back', () => {
    for (const [word, value, printed] of [
      ['default', 0, 'default'],
      ['node', 1, 'node'],
      ['Zone', 2, 'zone'],
    ] as const) {
      const r = parseWorkload(`machine xeon2011\nprofile 3.0\nset numa_zonelist_order=${word}\n`);
      if (!r.ok) throw new Error(formatError(r.error));
      expect(r.workload.sets).toEqual([{ name: 'numa_zonelist_order', values: [value] }]);
      expect(printWorkload(r.workload)).toContain(`set numa_zonelist_order=${printed}`);
    }
  });

  it('compiles to an OP_SYSCTL of the tunable, the order as its value', () => {
    const r = parseWorkload('machine xeon2011\nprofile 4.4\nset numa_zonelist_order=zone\n');
    if (!r.ok) throw new Error(formatError(r.error));
    const c = compileWorkload(r.workload, { positions: r.positions });
    if (!c.ok) throw new Error(formatError(c.error));
    const ops = c.program.ops.toArray();
    expect(ops.map((o) => [o.kind, o.handle, o.arg])).toEqual([
      [OpKind.SYSCTL, SYSCTL_ID.NUMA_ZONELIST_ORDER, 2],
    ]);
  });

  it('refuses zone where 4.14 removed it, at the value, whichever line names the profile', () => {
    expect(parseError('machine numa4\nset numa_zonelist_order=zone\n')).toMatch(
      /^2:25: profile 6\.18 has no zone ordering \(4\.14 removed it\): the kernel refuses numa_zonelist_order=zone with EINVAL/,
    );
    expect(parseError('set numa_zonelist_order=zone\nprofile 4.14\n')).toMatch(
      /^1:25: profile 4\.14 has no zone ordering/,
    );
    // default and node are accepted there (and change nothing)
    expect(parseWorkload('profile 6.18\nset numa_zonelist_order=node\n').ok).toBe(true);
    expect(parseWorkload('profile 4.13\nset numa_zonelist_order=zone\n').ok).toBe(true);
  });

  it('refuses a word it does not know and a number, at the value', () => {
    expect(parseError('profile 3.0\nset numa_zonelist_order=xyz\n')).toBe(
      '2:25: numa_zonelist_order must be default, node, zone (the first letter decides), found "xyz"',
    );
    expect(parseError('profile 3.0\nset numa_zonelist_order=2\n')).toMatch(
      /^2:25: numa_zonelist_order must be/,
    );
  });
});
