/*
 * trace.ts: the kernel-trace fuzzer. ftrace lines of the page allocator's events (and others,
 * lost-event markers, comments) with random CPUs, pfns, orders and gfp flags, then edited;
 * importTrace must refuse with a line inside the text, and a workload it makes must print and
 * parse again (the site runs what it imports).
 */
import fc from 'fast-check';
import { GFP_NAMES } from '../../web/core/gfp';
import { formatError } from '../../web/workload/errors';
import { parseWorkload } from '../../web/workload/parser';
import { printWorkload } from '../../web/workload/printer';
import { importTrace } from '../../web/workload/trace-import';
import type { FuzzTarget, Rejection } from './harness';
import { mutate, mutations } from './mutate';

const pfn = fc.oneof(
  { weight: 6, arbitrary: fc.nat(64).map((n) => `0x${(0x1000 + n * 4).toString(16)}`) },
  { weight: 1, arbitrary: fc.constantFrom('0', '0x0', '4096', '0xffffffffffffffff', 'x', '') },
);
const order = fc.oneof(
  { weight: 6, arbitrary: fc.nat(3).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('10', '11', '-1', '0x2') },
);
const gfp = fc.oneof(
  fc
    .array(fc.constantFrom(...GFP_NAMES.keys()), { minLength: 1, maxLength: 3 })
    .map((f) => f.join('|')),
  fc.constantFrom('none', '0', '0xcc0', 'GFP_KERNAL'),
);
const cpu = fc.oneof(
  { weight: 8, arbitrary: fc.nat(3) },
  { weight: 1, arbitrary: fc.constantFrom(63, 511, 512, 99999) },
);
const record = fc
  .record({
    task: fc.constantFrom('touch', 'Web Content', 'kworker/u8:2-events', ''),
    pid: fc.nat(99999),
    cpu,
    event: fc.constantFrom(
      'mm_page_alloc',
      'mm_page_free',
      'mm_page_free_batched',
      'mm_page_pcpu_drain',
      'sched_switch',
    ),
    pfn,
    order,
    gfp,
    mt: fc.nat(6),
    ts: fc.nat(1_000_000),
  })
  .map(
    (r) =>
      `  ${r.task}-${r.pid}  [${String(r.cpu).padStart(3, '0')}] ..... ${(r.ts / 1000).toFixed(6)}: ${r.event}: page=0000 pfn=${r.pfn} order=${r.order}` +
      (r.event === 'mm_page_alloc' ? ` migratetype=${r.mt} gfp_flags=${r.gfp}` : ''),
  );
const line = fc.oneof(
  { weight: 12, arbitrary: record },
  {
    weight: 1,
    arbitrary: fc.constantFrom('# tracer: nop', '', 'CPU:1 [LOST 42 EVENTS]', 'garbage'),
  },
);

export const traceText: fc.Arbitrary<string> = fc
  .tuple(fc.array(line, { maxLength: 16 }), mutations(3))
  .map(([lines, edits]) => mutate(lines.join('\n'), edits));

export const traceTarget: FuzzTarget<string> = {
  kind: 'trace',
  what: 'kernel traces through the importer',
  arbitrary: traceText,
  run(text): Rejection | null {
    const imported = importTrace(text);
    if (!imported.ok) return { ...imported.error, reason: imported.error.message, text };
    const again = parseWorkload(printWorkload(imported.workload));
    if (!again.ok)
      throw new Error(
        `the importer accepted a trace whose workload does not parse: ${formatError(again.error)}`,
      );
    return null;
  },
};
