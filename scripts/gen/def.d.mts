// Types of def.mjs (plain JavaScript so the generators run before node_modules exists).

/** One argument of a row. */
export type DefToken =
  | { kind: 'ident'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string };

/** The rows of one macro in a .def text. */
export function parseDef(
  text: string,
  macro: string,
  file?: string,
): { line: number; args: DefToken[] }[];

/** The rows of macro as objects with the given field names; checks each row's arity. */
export function readRows(
  text: string,
  macro: string,
  fields: readonly string[],
  file?: string,
): Record<string, string | number>[];

/** Write path only when its content changes; true if written. */
export function writeIfChanged(path: string, content: string): Promise<boolean>;
