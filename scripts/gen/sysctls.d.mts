// The types of sysctls.mjs for the TypeScript tests that import it.

export declare function readSysctls(
  read: (path: string) => string,
): { id: number; name: string; count: number; min: number; max: number; zeroOk: number }[];
export declare function generate(
  read: (path: string) => string,
): { path: string; content: string }[];
