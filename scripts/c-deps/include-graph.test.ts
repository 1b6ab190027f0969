// The C core's include graph: no cycles among modules (a .c and its .h), folders only include
// downwards (base <- page_alloc <- later subsystems). The checker is tested on small graphs too,
// so a checker that finds nothing cannot pass unnoticed.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { includeProblems } from './include-graph.mjs';

const src = join(__dirname, '../../wasm-core/src');

describe('wasm-core/src include graph', () => {
  it('has no include cycle and no include against the layers', () => {
    expect(includeProblems(src)).toEqual([]);
  });
});

describe('the include checker', () => {
  let dir = '';
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
  const tree = (files: Record<string, string>) => {
    dir = mkdtempSync(join(tmpdir(), 'includes-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };

  it('finds a cycle that goes through .c files only', () => {
    const d = tree({
      'page_alloc/a.h': '',
      'page_alloc/a.c': '#include "page_alloc/b.h"\n',
      'page_alloc/b.h': '',
      'page_alloc/b.c': '#include "page_alloc/a.h"\n',
    });
    expect(includeProblems(d)).toEqual([
      'include cycle among modules: page_alloc/a <-> page_alloc/b',
    ]);
  });

  it('refuses base including a subsystem, and anyone including a root file', () => {
    const d = tree({
      'base/x.c': '#include "page_alloc/y.h"\n',
      'page_alloc/y.h': '#include "glue.c"\n',
      'glue.c': '',
      'base/x.h': '',
    });
    expect(includeProblems(d)).toEqual([
      'base/x.c:1: base/ includes page_alloc/y.h, a layer above it',
      'page_alloc/y.h:1: includes root file glue.c; root files include, they are not included',
    ]);
  });

  it('names an include that is not a path under src/', () => {
    const d = tree({ 'base/x.c': '#include "types.h"\n' });
    expect(includeProblems(d)).toEqual([
      'base/x.c:1: includes "types.h", which is not a path under src/',
    ]);
  });
});
