// describeOp speaks the workload language: for the address-space statements, the op a statement
// compiles to is described as the printer writes that statement (so the event log's heading of a
// fault op reads back as the line that made it).
import { describe, expect, it } from 'vitest';
import { compileWorkload } from '../workload/compiler';
import { parseWorkload } from '../workload/parser';
import { printWorkload } from '../workload/printer';
import { describeOp } from './describe-op';

const TEXT = `machine nodes=1 cpus=2 normal=4096
cpu 1 thread mm=2
cpu 1 mmap mm=2 at=16 pages=64 prot=rwx file
cpu 1 mprotect mm=2 at=16 pages=8 prot=none
cpu 1 touch mm=2 at=20 pages=3 read
cpu 1 munmap mm=2 at=16 pages=64
cpu 1 work ns=5000
`;

describe('describeOp', () => {
  it('describes each address-space op as the statement that made it', () => {
    const parsed = parseWorkload(TEXT);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const compiled = compileWorkload(parsed.workload);
    if (!compiled.ok) throw new Error(compiled.error.message);
    const lines = printWorkload(parsed.workload).trim().split('\n').slice(1);
    expect(compiled.program.ops.toArray().map(describeOp)).toEqual(lines);
  });
});
