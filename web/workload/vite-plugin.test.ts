import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileText } from '../app/compile';
import miniature from '../app/home-miniature.workload?program';
import { programModule } from './vite-plugin';

const MINIATURE = fileURLToPath(new URL('../app/home-miniature.workload', import.meta.url));

/** What a module source exports by default, evaluated as the browser would. */
async function evaluate(code: string): Promise<unknown> {
  const mod = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as {
    default: unknown;
  };
  return mod.default;
}

describe('workloads compiled at build time (?program)', () => {
  it('gives the program the compiler gives at run time: config with its BigInt seed, ops, lines', async () => {
    const out = compileText(readFileSync(MINIATURE, 'utf8'));
    if (!out.ok) throw new Error('the miniature does not compile');
    const want = {
      config: out.program.config,
      ops: out.program.ops.bytes,
      lines: out.program.lines,
    };
    expect(out.program.config.seed).toBe(3n);
    expect(miniature).toEqual(want);
    expect(await evaluate(programModule('x.workload', readFileSync(MINIATURE, 'utf8')))).toEqual(
      want,
    );
  });

  it('stops on a workload that does not compile, with its file, line and column', () => {
    expect(() => programModule('bad.workload', 'machine tiny\ncpu 0 alloc a order=99\n')).toThrow(
      /^bad\.workload:2:\d+: /,
    );
  });
});
