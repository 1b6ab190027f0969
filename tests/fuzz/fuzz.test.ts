// A short seeded pass of every text fuzzer (`npm run fuzz` runs them for longer, with new seeds):
// each input is accepted or refused with a position and a reason, never a throw or a hang.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { abbreviate, rejectionProblem, runTarget, type FuzzTarget } from './harness';
import { TARGETS } from './targets';

const RUNS: Record<string, number> = {
  workload: 300,
  link: 150,
  zoneinfo: 300,
  trace: 300,
  file: 150,
};

describe('text fuzzers, seeded', () => {
  for (const [kind, target] of TARGETS) {
    it(`${kind}: ${target.what}`, async () => {
      const run = await runTarget(target, { seed: 19, numRuns: RUNS[kind] ?? 100 });
      expect(run.failure).toBe('');
      expect(run.stats.inputs).toBe(RUNS[kind]);
      // the inputs reach both sides: some are accepted, some refused
      expect(run.stats.rejections).toBeGreaterThan(0);
      expect(run.stats.rejections).toBeLessThan(run.stats.inputs);
    }, 30_000);
  }

  it('the harness fails a rejection that does not say where or why', () => {
    expect(rejectionProblem({ line: 2, col: 3, reason: 'bad', text: 'a\nbcd' })).toBe('');
    expect(rejectionProblem({ line: 0, col: 1, reason: 'bad' })).toMatch(/line 0/);
    expect(rejectionProblem({ line: 3, col: 1, reason: 'bad', text: 'a\nb' })).toMatch(/outside/);
    expect(rejectionProblem({ line: 1, col: 9, reason: 'bad', text: 'abc' })).toMatch(/outside/);
    expect(rejectionProblem({ offset: -1, reason: 'bad' })).toMatch(/offset/);
    expect(rejectionProblem({ offset: 4, reason: ' ' })).toMatch(/without a reason/);
  });

  // The harness's failures: each kind reported with a shrunk input.
  const numbers = (run: FuzzTarget<number>['run']): FuzzTarget<number> => ({
    kind: 'test',
    what: 'numbers',
    arbitrary: fc.integer({ min: 0, max: 1000 }),
    run,
  });

  it('reports a throw as a crash, shrunk to the smallest input that throws', async () => {
    const run = await runTarget(
      numbers((n) => {
        if (n >= 17) throw new TypeError('boom');
        return null;
      }),
      { seed: 1, numRuns: 200 },
    );
    expect(run.stats.crashes).toBeGreaterThan(0);
    expect(run.failure).toMatch(/crash: TypeError: boom/);
    expect(run.failure).toMatch(/minimal input: 17\n/);
  });

  it('reports an input over the time limit as a hang', async () => {
    const run = await runTarget(
      numbers((n) => {
        const end = performance.now() + (n > 500 ? 30 : 0);
        while (performance.now() < end);
        return null;
      }),
      { seed: 1, numRuns: 50, hangMs: 20 },
    );
    expect(run.stats.hangs).toBeGreaterThan(0);
    expect(run.failure).toMatch(/hang: the input took \d+ ms \(limit 20 ms\)/);
  });

  it('prints a huge input with its repeated lines counted', () => {
    const printed = fc.stringify('head\n' + 'Node 0, zone DMA\n'.repeat(200_000) + 'tail');
    expect(abbreviate(printed)).toBe('"head\\nNode 0, zone DMA\\n[…200000 times…]\\ntail"');
  });

  it('reports a rejection without a position', async () => {
    const run = await runTarget(
      numbers((n) => ({ line: n, col: 1, reason: 'odd' })),
      { seed: 1, numRuns: 50 },
    );
    expect(run.stats.unpositioned).toBeGreaterThan(0);
    expect(run.failure).toMatch(/a rejection at line 0 column 1: odd/);
  });
});
