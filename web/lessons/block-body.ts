/*
 * block-body.ts: the body of a fenced lesson block as fields (lessons/README.md, "Block bodies").
 * No YAML: `key: value` lines starting in column 0; indented lines after `key: value` continue it
 * (joined with a space); `key:` alone takes the following indented lines as a multi-line value
 * (common indent removed, inner blank lines kept). The parser never throws; problems come back
 * as issues with the line they are on.
 */

/** One field of a block. */
export interface BlockField {
  key: string;
  value: string;
  line: number; // file line of the key
  valueLine: number; // file line where the value starts (the next line for multi-line values)
  multiline: boolean;
}

/** A field-level problem: line and message (the caller adds file and block name). */
export interface BodyIssue {
  line: number;
  message: string;
}

export interface ParsedBody {
  fields: Map<string, BlockField>;
  issues: BodyIssue[];
}

const KEY_LINE = /^([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)?):(?:[ \t]+(.*))?$/;

function indentOf(s: string): number {
  const m = /^[ \t]*/.exec(s);
  return m ? m[0].replace(/\t/g, '    ').length : 0;
}

/** Remove the smallest indent shared by the non-blank lines; trim trailing blank lines. */
function dedent(lines: string[]): string {
  while (lines.length > 0 && (lines[lines.length - 1] ?? '').trim() === '') lines.pop();
  let common = Infinity;
  for (const l of lines) if (l.trim() !== '') common = Math.min(common, indentOf(l));
  if (!Number.isFinite(common)) common = 0;
  return lines.map((l) => l.replace(/\t/g, '    ').slice(common)).join('\n');
}

/**
 * Parse the lines of a block body. firstLine is the file line of lines[0].
 */
export function parseBlockBody(lines: readonly string[], firstLine: number): ParsedBody {
  const fields = new Map<string, BlockField>();
  const issues: BodyIssue[] = [];
  let i = 0;
  while (i < lines.length) {
    const raw = lines[i] ?? '';
    const line = firstLine + i;
    if (raw.trim() === '') {
      i++;
      continue;
    }
    if (indentOf(raw) > 0) {
      issues.push({
        line,
        message: 'indented line outside a field (fields start in column 0: `key: value`)',
      });
      i++;
      continue;
    }
    const m = KEY_LINE.exec(raw.trimEnd());
    if (!m) {
      issues.push({
        line,
        message: `expected \`key: value\`, found \`${raw.trim().slice(0, 40)}\``,
      });
      i++;
      continue;
    }
    const key = m[1] ?? '';
    const inline = (m[2] ?? '').trim();
    i++;
    const cont: string[] = [];
    while (i < lines.length) {
      const next = lines[i] ?? '';
      if (next.trim() !== '' && indentOf(next) === 0) break;
      cont.push(next);
      i++;
    }
    let field: BlockField;
    if (inline !== '') {
      const more = cont.map((c) => c.trim()).filter((c) => c !== '');
      field = { key, value: [inline, ...more].join(' '), line, valueLine: line, multiline: false };
    } else {
      const lead = cont.findIndex((c) => c.trim() !== '');
      const body = lead < 0 ? [] : cont.slice(lead);
      field = {
        key,
        value: dedent(body),
        line,
        valueLine: line + 1 + Math.max(lead, 0),
        multiline: true,
      };
    }
    if (fields.has(key)) {
      issues.push({
        line,
        message: `field \`${key}\` appears twice (first on line ${fields.get(key)?.line ?? '?'})`,
      });
      continue;
    }
    fields.set(key, field);
  }
  return { fields, issues };
}
