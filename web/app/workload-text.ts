/*
 * workload-text.ts: edits the playground makes to workload text on the reader's behalf (pick a
 * machine, a profile, a tunable; append an op). The text stays the single source of truth, so
 * what the buttons did is visible, editable and shareable as plain workload language.
 */

/** Replace the first `word ...` header line, or insert one after the last header line. */
export function setHeader(
  text: string,
  word: 'machine' | 'profile' | 'seed',
  value: string,
): string {
  const re = new RegExp(`^([ \\t]*)${word}\\b[^\\n#]*`, 'm');
  if (re.test(text)) return text.replace(re, `$1${word} ${value}`);
  return insertHeader(text, `${word} ${value}`);
}

/** Set one sysctl: replace its `set NAME=...` line or add one. */
export function setSysctl(text: string, name: string, value: string): string {
  const re = new RegExp(`^([ \\t]*)set[ \\t]+${name}=[^\\s#]*[^\\n#]*`, 'm');
  if (re.test(text)) return text.replace(re, `$1set ${name}=${value}`);
  return insertHeader(text, `set ${name}=${value}`);
}

/** The value of a header line, if the text has one. */
export function headerValue(text: string, word: string): string | null {
  const m = new RegExp(`^[ \\t]*${word}[ \\t]+([^\\s#]+)`, 'm').exec(text);
  return m?.[1] ?? null;
}

export function sysctlValue(text: string, name: string): string | null {
  const m = new RegExp(`^[ \\t]*set[ \\t]+${name}=([^\\s#]+)`, 'm').exec(text);
  return m?.[1] ?? null;
}

const HEADER = /^[ \t]*(machine|profile|set|seed)\b/;

function insertHeader(text: string, line: string): string {
  const lines = text.split('\n');
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (HEADER.test(l)) at = i + 1;
    else if (l.trim() !== '' && !l.trim().startsWith('#')) break;
  }
  lines.splice(at, 0, line);
  return lines.join('\n');
}

/** Append one statement at the end. */
export function appendStatement(text: string, stmt: string): string {
  return text.replace(/\s*$/, '') + '\n' + stmt + '\n';
}
