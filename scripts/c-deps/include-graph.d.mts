// The types of include-graph.mjs for the TypeScript tests that import it.

export declare const LAYERS: readonly string[];
export declare function readIncludeGraph(srcDir: string): {
  files: string[];
  edges: Map<string, Set<string>>;
  includes: { from: string; to: string; line: number }[];
  problems: string[];
};
export declare function findCycles(edges: Map<string, Set<string>>): string[][];
export declare function layerViolations(
  includes: { from: string; to: string; line: number }[],
): string[];
export declare function includeProblems(srcDir: string): string[];
