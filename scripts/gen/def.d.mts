// The types of def.mjs for the TypeScript tests that import it.

export interface DefToken {
  kind: 'ident' | 'number' | 'string';
  value: string | number;
}
export declare function parseDef(
  text: string,
  macro: string,
  file?: string,
): { line: number; args: DefToken[] }[];
export declare function readRows(
  text: string,
  macro: string,
  fields: string[],
  file?: string,
): Record<string, string | number>[];
export declare function writeIfChanged(path: string, content: string): Promise<boolean>;
export declare function readSubsystemRows(
  read: (path: string) => string,
  file: string,
  macro: string,
  fields: string[],
  folders?: readonly string[],
): (Record<string, string | number> & { subsystem: string; where: string })[];
export declare function denseById<T extends { id: number; where: string }>(
  rows: T[],
  what: string,
  span?: (row: T) => number,
): T[];
export declare function str(s: string): string;
