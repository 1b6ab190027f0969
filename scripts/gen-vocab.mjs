#!/usr/bin/env node
// gen-vocab.mjs: generate the TypeScript that mirrors the C core's vocabularies (the .def files
// of wasm-core/src: the struct layout the web reads, and each subsystem's words), so the two
// sides cannot drift. Each generator in scripts/gen/ exports generate(read) returning the files
// it writes; a file is written only when its content changes, so Vite does not reload for nothing.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeIfChanged } from './gen/def.mjs';
import * as events from './gen/events.mjs';
import * as frames from './gen/frames.mjs';
import * as lanes from './gen/lanes.mjs';
import * as layout from './gen/layout.mjs';
import * as machine from './gen/machine.mjs';
import * as ops from './gen/ops.mjs';
import * as profiles from './gen/profiles.mjs';
import * as sources from './gen/sources.mjs';
import * as sysctls from './gen/sysctls.mjs';

/** Every generator, in the order they run. */
export const GENERATORS = [layout, profiles, events, ops, sysctls, machine, frames, lanes, sources];

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path) => readFileSync(join(repo, path), 'utf8');

/** Every generated file, in memory. */
export function generateAll() {
  return GENERATORS.flatMap((g) => g.generate(read));
}

async function main() {
  const written = [];
  for (const { path, content } of generateAll())
    if (await writeIfChanged(join(repo, path), content)) written.push(path);
  if (written.length) console.log(`gen-vocab: wrote ${written.join(', ')}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
