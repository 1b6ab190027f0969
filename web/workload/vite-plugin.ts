/*
 * vite-plugin.ts: workloads compiled at build time. `import p from './x.workload?program'` is the
 * workload's PackedProgram (web/workload/compiler.ts), compiled here by the same parser and
 * compiler the site runs, so a page that only plays a fixed workload (the home page's miniature)
 * ships neither of them. A workload that does not compile stops the build with its line and column.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { compileText } from '../app/compile';
import { formatError } from './errors';

/** The module source of a workload's PackedProgram: JSON, but the seed a BigInt and the ops bytes. */
export function programModule(file: string, text: string): string {
  const out = compileText(text);
  if (!out.ok) throw new Error(`${file}:${formatError(out.error)}`);
  const { config, ops, lines } = out.program;
  const { seed, ...rest } = config;
  const json = JSON.stringify(rest, (key, v: unknown) => {
    if (typeof v === 'bigint')
      throw new Error(`${file}: ${key} is a BigInt the module cannot hold`);
    return v;
  });
  const seedSrc = seed === undefined ? '' : `, seed: ${seed}n`;
  return [
    `export default {`,
    `  config: { ...${json}${seedSrc} },`,
    `  ops: new Uint8Array([${ops.bytes.join(',')}]),`,
    `  lines: new Uint32Array([${lines.join(',')}]),`,
    `};`,
  ].join('\n');
}

export function workloadProgramPlugin(): Plugin {
  return {
    name: 'buddyscope-workload-program',
    load(id) {
      const [file, query] = id.split('?', 2);
      if (query !== 'program' || !file?.endsWith('.workload')) return null;
      this.addWatchFile(file);
      return { code: programModule(file, readFileSync(file, 'utf8')), map: null };
    },
  };
}
