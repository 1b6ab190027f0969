/*
 * targets.ts: every text fuzzer, by kind, in the order `npm run fuzz` runs them.
 */
import { fileTarget } from './file';
import type { FuzzTarget } from './harness';
import { linkTarget } from './link';
import { traceTarget } from './trace';
import { workloadTarget } from './workload';
import { zoneinfoTarget } from './zoneinfo';

export const TARGETS: ReadonlyMap<string, FuzzTarget<never>> = new Map(
  [workloadTarget, linkTarget, zoneinfoTarget, traceTarget, fileTarget].map((t) => [
    t.kind,
    t as unknown as FuzzTarget<never>,
  ]),
);
