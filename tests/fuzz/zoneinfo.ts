/*
 * zoneinfo.ts: the /proc/zoneinfo fuzzer. Zone blocks in the kernel's layout with random nodes,
 * names, figures, protection arrays and pagesets, then edited; parseZoneinfo and
 * machineFromZoneinfo must refuse with a line inside the text.
 */
import fc from 'fast-check';
import { ZONE_NAMES } from '../../web/core/machine-config';
import {
  comparedLines,
  machineFromZoneinfo,
  parseZoneinfo,
} from '../../web/workload/zoneinfo-machine';
import type { FuzzTarget, Rejection } from './harness';
import { mutate, mutations, type Mutation } from './mutate';

const value = fc.oneof(
  { weight: 6, arbitrary: fc.nat(70000) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 0, 0xffffffff, 2 ** 32, 2 ** 53, 1e21) },
);
/** A figure line: mostly the ones that do not decide the machine (those come from spans). */
const figure = fc
  .tuple(
    fc.oneof(
      {
        weight: 8,
        arbitrary: fc.constantFrom('pages free', 'boost', 'min', 'low', 'high', 'promo', 'cma'),
      },
      { weight: 1, arbitrary: fc.constantFrom('spanned', 'present', 'managed') },
    ),
    value,
  )
  .map(([k, v]) => `        ${k.padEnd(8)} ${v}`);
const pageset = fc
  .tuple(
    fc.oneof(fc.nat(8), fc.constantFrom(63, 64, 511, 512, 99999)),
    fc.array(fc.tuple(fc.constantFrom('count', 'high', 'batch', 'high_min', 'high_max'), value), {
      maxLength: 5,
    }),
  )
  .map(([cpu, figs]) =>
    [`    cpu: ${cpu}`, ...figs.map(([k, v]) => `              ${k}: ${v}`)].join('\n'),
  );
/** spanned, present and managed lines that the importer accepts (managed <= present <= spanned). */
const spans = fc
  .record({ managed: fc.nat(5000), hole: fc.nat(100), gap: fc.nat(100) })
  .map(({ managed, hole, gap }) => [
    `        spanned  ${managed + hole + gap}`,
    `        present  ${managed + hole}`,
    `        managed  ${managed}`,
  ]);
/** The pagesets of CPUs 0..n-1, as a real zoneinfo lists every online CPU. */
const onlineCpus = fc
  .integer({ min: 1, max: 4 })
  .map((n) => Array.from({ length: n }, (_, cpu) => `    cpu: ${cpu}\n              batch:    63`));
const zone = fc
  .record({
    node: fc.oneof(
      { weight: 30, arbitrary: fc.nat(1) },
      { weight: 1, arbitrary: fc.constantFrom(7, 8, 255, 2 ** 31) },
    ),
    name: fc.oneof(
      { weight: 30, arbitrary: fc.constantFrom(...ZONE_NAMES) },
      { weight: 1, arbitrary: fc.constantFrom('HighMem', 'dma', '') },
    ),
    figures: fc
      .tuple(fc.option(spans, { freq: 8 }), fc.array(figure, { maxLength: 6 }))
      .map(([good, more]) => [...(good ?? []), ...more]),
    protection: fc.option(
      fc.array(value, { maxLength: 6 }).map((v) => `        protection: (${v.join(', ')})`),
    ),
    pagesets: fc.oneof(onlineCpus, fc.array(pageset, { maxLength: 4 })),
    start: fc.option(
      value.map((v) => `  start_pfn:           ${v}`),
      { freq: 8 },
    ),
  })
  .map((z) =>
    [
      `Node ${z.node}, zone ${z.name.padStart(8)}`,
      ...z.figures,
      ...(z.protection === null ? [] : [z.protection]),
      ...(z.pagesets.length ? ['  pagesets', ...z.pagesets] : []),
      ...(z.start === null ? [] : [z.start]),
    ].join('\n'),
  );

export const zoneinfoText: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(zone, { minLength: 1, maxLength: 6 }),
    fc.oneof(
      { weight: 2, arbitrary: fc.constant<Mutation[]>([]) },
      { weight: 1, arbitrary: mutations(3) },
    ),
  )
  .map(([zones, edits]) => mutate(zones.join('\n'), edits));

export const zoneinfoTarget: FuzzTarget<string> = {
  kind: 'zoneinfo',
  what: '/proc/zoneinfo files through the importer',
  arbitrary: zoneinfoText,
  run(text): Rejection | null {
    const parsed = parseZoneinfo(text);
    if (!parsed.ok) return { ...parsed.error, reason: parsed.error.message, text };
    const machine = machineFromZoneinfo(parsed.zones);
    if (!machine.ok) return { ...machine.error, reason: machine.error.message, text };
    comparedLines(parsed.zones);
    return null;
  },
};
