// include-graph.mjs: the include graph of wasm-core/src, and what is wrong with it.
//
// A module is a C file and its header together (page_alloc/buddy.c + page_alloc/buddy.h), so
// buddy.c including fallback.h while fallback.c includes buddy.h is a cycle even though no header
// includes another. The folders are layers: base/ may include only base/; a subsystem folder may
// include base/ and the folders listed below it in LAYERS; the root files (glue.c, subsystems.c)
// may include anything, and nothing may include them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Folders of wasm-core/src from the bottom up; a folder may include itself and those before it. */
export const LAYERS = ['base', 'page_alloc', 'reclaim', 'percpu', 'fault'];

/** Every .c and .h file under dir, as paths relative to dir with forward slashes. */
function sourceFiles(dir, root = dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path, root));
    else if (/\.[ch]$/.test(name)) out.push(relative(root, path).split('\\').join('/'));
  }
  return out;
}

/** The module a file belongs to: its path without the extension. */
const moduleOf = (file) => file.replace(/\.[ch]$/, '');

/** The folder (layer) of a file, or '' for the root. */
const folderOf = (file) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '');

/**
 * Read the graph: { files, edges: Map<module, Set<module>>, includes: [{from, to, line}] }.
 * Quoted includes are resolved against src/ (the build's -Isrc); .def files are data, not modules.
 */
export function readIncludeGraph(srcDir) {
  const files = sourceFiles(srcDir);
  const known = new Set(files);
  const edges = new Map();
  const includes = [];
  const problems = [];
  for (const file of files) {
    const from = moduleOf(file);
    if (!edges.has(from)) edges.set(from, new Set());
    readFileSync(join(srcDir, file), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        const m = /^\s*#\s*include\s+"([^"]+)"/.exec(text);
        if (!m || m[1].endsWith('.def')) return;
        const target = m[1];
        if (!known.has(target)) {
          problems.push(`${file}:${i + 1}: includes "${target}", which is not a path under src/`);
          return;
        }
        includes.push({ from: file, to: target, line: i + 1 });
        const to = moduleOf(target);
        if (to !== from) edges.get(from).add(to);
      });
  }
  return { files, edges, includes, problems };
}

/** Cycles among modules (each as a list of module names), by Tarjan's strongly connected components. */
export function findCycles(edges) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const idx = new Map();
  const low = new Map();
  const cycles = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) cycles.push(scc.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!idx.has(v)) visit(v);
  return cycles;
}

/** Includes that go against the layers: upwards, sideways between subsystems, or into the root. */
export function layerViolations(includes) {
  const out = [];
  for (const { from, to, line } of includes) {
    const f = folderOf(from);
    const t = folderOf(to);
    if (t === '') {
      out.push(
        `${from}:${line}: includes root file ${to}; root files include, they are not included`,
      );
      continue;
    }
    if (f === '') continue; // glue.c and subsystems.c compose everything
    const fi = LAYERS.indexOf(f);
    const ti = LAYERS.indexOf(t);
    if (fi < 0)
      out.push(`${from}: folder ${f}/ is not in LAYERS (scripts/c-deps/include-graph.mjs)`);
    else if (ti < 0) out.push(`${from}:${line}: includes ${to}, whose folder is not in LAYERS`);
    else if (ti > fi) out.push(`${from}:${line}: ${f}/ includes ${to}, a layer above it`);
  }
  return out;
}

/** Everything wrong with the include graph of srcDir, as messages; empty when it is sound. */
export function includeProblems(srcDir) {
  const g = readIncludeGraph(srcDir);
  return [
    ...g.problems,
    ...findCycles(g.edges).map((c) => `include cycle among modules: ${c.join(' <-> ')}`),
    ...layerViolations(g.includes),
  ];
}
