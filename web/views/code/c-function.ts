/*
 * c-function.ts: the C function around a line of the model's source, for the Code view. The core
 * is written in kernel style (clang-format checks it): a function's definition starts at column 0
 * with its return type, its body opens with `{` alone at column 0 and closes with `}` alone at
 * column 0. So the function around a line runs from the nearest `{` line above it (and the
 * signature lines just above that) to the nearest `}` line below it.
 */

export interface CFunction {
  name: string; // "expand", or "" when the line is outside every function
  first: number; // 1-based line of the signature's first line
  last: number; // 1-based line of the closing brace
}

/** The name a signature line declares: the identifier before its first `(`. */
function declaredName(signature: string): string {
  const m = /([A-Za-z_]\w*)\s*\(/.exec(signature);
  return m?.[1] ?? '';
}

/**
 * The function that contains 1-based `line` of `lines`, or null when the line is in none (a
 * header's macro, a table). Bounded by the file's length.
 */
export function enclosingFunction(lines: readonly string[], line: number): CFunction | null {
  const at = line - 1;
  if (at < 0 || at >= lines.length) return null;
  let open = -1;
  for (let i = at; i >= 0; i--) {
    const l = lines[i] ?? '';
    if (l === '}' && i < at) return null; // the previous function closed before our line
    if (l === '{') {
      open = i;
      break;
    }
  }
  if (open < 0) return null;
  let close = -1;
  for (let i = Math.max(at, open); i < lines.length; i++) {
    if ((lines[i] ?? '') === '}') {
      close = i;
      break;
    }
  }
  if (close < 0) return null;
  // The signature: the lines above `{` back to the one at column 0 that is not a comment.
  let first = open;
  for (let i = open - 1; i >= 0 && open - i <= 8; i--) {
    const l = lines[i] ?? '';
    if (l.trim() === '' || l.startsWith('/*') || l.startsWith(' *') || l.startsWith('#')) break;
    first = i;
    if (/^[A-Za-z_]/.test(l)) break;
  }
  return {
    name: declaredName(lines.slice(first, open).join(' ')),
    first: first + 1,
    last: close + 1,
  };
}

/** The last 1-based line of the statement that starts on `line`: through the line ending in `;`. */
export function statementEnd(lines: readonly string[], line: number): number {
  for (let i = line - 1; i < lines.length && i < line + 12; i++) {
    if (/;\s*(\/\*.*\*\/)?\s*$/.test(lines[i] ?? '')) return i + 1;
  }
  return line;
}
