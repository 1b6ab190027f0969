// Types of include-graph.mjs (plain JavaScript so it runs before node_modules exists).

/** Folders of wasm-core/src from the bottom up. */
export const LAYERS: readonly string[];

/** One quoted include: the including file, the included path, the line. */
export interface Include {
  from: string;
  to: string;
  line: number;
}

/** The include graph of a source tree, with includes that name no file under it. */
export function readIncludeGraph(srcDir: string): {
  files: string[];
  edges: Map<string, Set<string>>;
  includes: Include[];
  problems: string[];
};

/** Cycles among modules, each as its sorted module names. */
export function findCycles(edges: Map<string, Set<string>>): string[][];

/** Includes against the layers, as messages. */
export function layerViolations(includes: Include[]): string[];

/** Everything wrong with the include graph of srcDir; empty when it is sound. */
export function includeProblems(srcDir: string): string[];
