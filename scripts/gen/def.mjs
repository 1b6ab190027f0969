// def.mjs: read the vocabulary files of wasm-core/src (*.def). A .def file is a list of X-macro
// rows, `NAME(arg, arg, ...)`, that the C includes with NAME defined as it needs (an enum, a name
// table, a switch) and that the generators here turn into TypeScript, so each vocabulary is
// written once. A row may span lines; arguments are C identifiers, integers (decimal, hex,
// negative) or string literals, and adjacent literals join as in C ("a" "b" is "ab").
// Comments (/* */ and //) are ignored. Errors name the file, line and column.
import { LAYERS } from '../c-deps/include-graph.mjs';

/** One argument: { kind: 'ident' | 'number' | 'string', value }. */
function token(text, start, fail) {
  const t = text.trim();
  const at = start + (text.length - text.trimStart().length); // the argument's first character
  const num = /^(-?)(0x[0-9a-fA-F]+|\d+)u?$/.exec(t);
  if (num) return { kind: 'number', value: (num[1] ? -1 : 1) * Number(num[2]) };
  if (/^[A-Za-z_]\w*$/.test(t)) return { kind: 'ident', value: t };
  if (t.startsWith('"')) {
    let value = '';
    const re = /\s*"((?:[^"\\]|\\.)*)"/y;
    let i = 0;
    while (i < t.length) {
      re.lastIndex = i;
      const m = re.exec(t);
      if (!m) fail(at, `expected a string literal, got ${t.slice(i)}`);
      value += JSON.parse(`"${m[1]}"`);
      i = re.lastIndex;
      while (i < t.length && /\s/.test(t[i])) i++;
    }
    return { kind: 'string', value };
  }
  return fail(at, `expected an identifier, a number or a string, got ${t || 'nothing'}`);
}

/**
 * Parse the rows of one macro in a .def text: [{ line, args: [token...] }]. Rows of other macros
 * (a file may hold several) are skipped; anything else outside a row is an error.
 */
export function parseDef(text, macro, file = 'def') {
  const fail = (pos, msg) => {
    const before = text.slice(0, pos);
    const line = before.split('\n').length;
    const col = pos - before.lastIndexOf('\n');
    throw new Error(`${file}:${line}:${col}: ${msg}`);
  };
  // blank out comments, keeping offsets (and strings intact)
  let clean = '';
  for (let i = 0; i < text.length;) {
    if (text[i] === '"') {
      const m = /"(?:[^"\\\n]|\\.)*"/y;
      m.lastIndex = i;
      const s = m.exec(text);
      if (!s) fail(i, 'unterminated string');
      clean += s[0];
      i += s[0].length;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) fail(i, 'unterminated comment');
      clean += text.slice(i, end + 2).replace(/[^\n]/g, ' ');
      i = end + 2;
    } else if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      clean += ' '.repeat(stop - i);
      i = stop;
    } else clean += text[i++];
  }
  const rows = [];
  const rowStart = /\s*([A-Za-z_]\w*)\s*\(/y;
  let i = 0;
  for (;;) {
    while (i < clean.length && /\s/.test(clean[i])) i++;
    if (i >= clean.length) break;
    rowStart.lastIndex = i;
    const m = rowStart.exec(clean);
    if (!m) fail(i, 'expected NAME(...)');
    let j = rowStart.lastIndex;
    const args = [];
    let argStart = j;
    let depth = 0;
    for (; ; j++) {
      if (j >= clean.length) fail(i, `${m[1]}( is never closed`);
      const c = clean[j];
      if (c === '"') {
        const s = /"(?:[^"\\]|\\.)*"/y;
        s.lastIndex = j;
        j += s.exec(clean)[0].length - 1;
      } else if (c === '(') depth++;
      else if (c === ')' && depth > 0) depth--;
      else if ((c === ',' || c === ')') && depth === 0) {
        const raw = clean.slice(argStart, j);
        if (raw.trim() || c === ',' || args.length) args.push(token(raw, argStart, fail));
        argStart = j + 1;
        if (c === ')') break;
      }
    }
    if (m[1] === macro) rows.push({ line: clean.slice(0, i).split('\n').length, args });
    i = j + 1;
  }
  return rows;
}

/** The rows of macro as { line, row } with the given field names; checks each row's arity. */
function namedRows(text, macro, fields, file) {
  return parseDef(text, macro, file).map(({ line, args }) => {
    if (args.length !== fields.length)
      throw new Error(
        `${file}:${line}: ${macro} takes ${fields.length} arguments (${fields.join(', ')}), got ${args.length}`,
      );
    return { line, row: Object.fromEntries(fields.map((f, k) => [f, args[k].value])) };
  });
}

/** The rows of macro as objects with the given field names; checks each row's arity. */
export function readRows(text, macro, fields, file = 'def') {
  return namedRows(text, macro, fields, file).map(({ row }) => row);
}

/** Write path only when its content changes (so Vite does not reload for nothing); true if written. */
export async function writeIfChanged(path, content) {
  const { existsSync, mkdirSync, readFileSync, writeFileSync } = await import('node:fs');
  const { dirname } = await import('node:path');
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return false;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return true;
}

/**
 * The rows of macro in every subsystem's copy of one .def file (wasm-core/src/<folder>/<file>,
 * folders in the layer order of scripts/c-deps, a folder without the file skipped), each with
 * subsystem (the folder) and where (file:line, for errors). read(path) reads a repository file.
 */
export function readSubsystemRows(read, file, macro, fields, folders = LAYERS) {
  const rows = [];
  for (const folder of folders) {
    const path = `wasm-core/src/${folder}/${file}`;
    let text;
    try {
      text = read(path);
    } catch (e) {
      if (e && e.code === 'ENOENT') continue;
      throw e;
    }
    for (const { line, row } of namedRows(text, macro, fields, path))
      rows.push({ ...row, subsystem: folder, where: `${path}:${line}` });
  }
  return rows;
}

/**
 * Check that rows number a vocabulary 0..n-1 with no id given twice, each row covering
 * `span(row)` ids from row.id; returns the rows sorted by id. what names the vocabulary in errors.
 * With gaps, ids may skip (subsystems own ranges of ids: percpu's event kinds are 70..89) but a
 * vocabulary must still start at 0 and never give an id twice.
 */
export function denseById(rows, what, span = () => 1, gaps = false) {
  const sorted = [...rows].sort((x, y) => x.id - y.id);
  let next = 0;
  for (const r of sorted) {
    if (r.id < next) throw new Error(`${r.where}: ${what} id ${r.id} is already taken`);
    if (r.id > next && (!gaps || next === 0))
      throw new Error(`${r.where}: ${what} ids skip ${next}..${r.id - 1}`);
    next = r.id + span(r);
  }
  return sorted;
}

/** A JavaScript string literal (single quotes, as Prettier writes them). */
export function str(s) {
  return `'${String(s).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
