/*
 * markdown.ts: the Markdown lessons are written in, as a small tree: paragraphs, ### headings,
 * bullet and numbered lists, pipe tables and fenced code. Inline markup (code, bold, emphasis,
 * links) is split by inline(). No HTML is ever passed through: Prose.tsx builds React elements
 * from this tree, so a lesson cannot inject markup. A library would cost more bytes than the
 * subset is worth, and this one has a test for every construct the lessons use.
 */
export type MdBlock =
  | { kind: 'p'; text: string }
  | { kind: 'h'; level: number; text: string }
  | { kind: 'ul' | 'ol'; items: string[]; start: number }
  | {
      kind: 'table';
      head: string[];
      align: ('left' | 'right' | 'center' | null)[];
      rows: string[][];
    }
  | { kind: 'code'; lang: string; text: string };

export type MdInline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong' | 'em'; children: MdInline[] }
  | { kind: 'link'; href: string; children: MdInline[] };

const FENCE = /^\s*(`{3,}|~{3,})\s*([^`\s]*)/;
const BULLET = /^\s*[-*+]\s+/;
const NUMBERED = /^\s*(\d+)[.)]\s+/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));
}

const isTableRule = (l: string): boolean =>
  /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(l) && l.includes('-');
// As in CommonMark, only a list starting at 1 interrupts a paragraph: "... is 10 XOR 2 =\n8. No
// search" is one sentence wrapped, not a list.
const startsBlock = (l: string): boolean =>
  FENCE.test(l) || HEADING.test(l) || BULLET.test(l) || NUMBERED.exec(l)?.[1] === '1';

/** Split Markdown into blocks. */
export function parseMarkdown(source: string): MdBlock[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out: MdBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1] ?? '```';
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] ?? '').trim().startsWith(marker))
        body.push(lines[i++] ?? '');
      i++;
      out.push({ kind: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      out.push({ kind: 'h', level: h[1]?.length ?? 3, text: h[2] ?? '' });
      i++;
      continue;
    }
    if (line.includes('|') && isTableRule(lines[i + 1] ?? '')) {
      const head = cells(line);
      const align = cells(lines[i + 1] ?? '').map((c) =>
        c.startsWith(':') && c.endsWith(':')
          ? 'center'
          : c.endsWith(':')
            ? 'right'
            : c.startsWith(':')
              ? 'left'
              : null,
      );
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && (lines[i] ?? '').includes('|') && (lines[i] ?? '').trim() !== '')
        rows.push(cells(lines[i++] ?? ''));
      out.push({ kind: 'table', head, align, rows });
      continue;
    }
    const listRe = BULLET.test(line) ? BULLET : NUMBERED.test(line) ? NUMBERED : null;
    if (listRe) {
      const items: string[] = [];
      const start = Number(NUMBERED.exec(line)?.[1] ?? '1');
      while (i < lines.length && listRe.test(lines[i] ?? '')) {
        let item = (lines[i] ?? '').replace(listRe, '');
        i++;
        // Continuation lines are indented and are not a new item.
        while (i < lines.length && /^\s{2,}\S/.test(lines[i] ?? '') && !listRe.test(lines[i] ?? ''))
          item += ' ' + (lines[i++] ?? '').trim();
        items.push(item);
      }
      out.push({ kind: listRe === BULLET ? 'ul' : 'ol', items, start });
      continue;
    }
    const para: string[] = [];
    while (
      i < lines.length &&
      (lines[i] ?? '').trim() !== '' &&
      !(para.length > 0 && startsBlock(lines[i] ?? ''))
    )
      para.push((lines[i++] ?? '').trim());
    out.push({ kind: 'p', text: para.join(' ') });
  }
  return out;
}

// A code span opens at the start of a backtick run and takes the whole run (the lookahead captures
// it, the backreference consumes it, so the engine cannot retry with fewer); it closes at the next
// run of the same length. Without that, a long run of backticks tried every split of itself
// against every later one: 5,000 backticks took seconds.
const INLINE =
  /(?<!`)(?=(`+))\1([\s\S]*?[^`])\1(?!`)|\*\*((?:[^*]|\*(?!\*)[^*]*\*)+?)\*\*|\*([^*\s](?:[^*]*[^*\s])?)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

/**
 * Only links that cannot run script or leave the site unannounced: the web, the site's own routes
 * and relative files. A path may not start with `//` or `/\` (protocol-relative: another host),
 * and no href may hold a backslash, which browsers read as a slash.
 */
export function safeHref(href: string): string | null {
  if (href.includes('\\')) return null;
  return /^(https?:\/\/[^/]|#|\.{1,2}\/|\/(?!\/)|[\w-]+\.md$)/i.test(href) ? href : null;
}

/** Split inline markup. */
export function parseInline(text: string): MdInline[] {
  const out: MdInline[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index;
    if (at > last) out.push({ kind: 'text', text: text.slice(last, at) });
    if (m[1] !== undefined)
      out.push({
        kind: 'code',
        text: (m[2] ?? '').trim() === '' ? (m[2] ?? '') : (m[2] ?? '').replace(/^ (.*) $/, '$1'),
      });
    else if (m[3] !== undefined) out.push({ kind: 'strong', children: parseInline(m[3]) });
    else if (m[4] !== undefined) out.push({ kind: 'em', children: parseInline(m[4]) });
    else {
      const href = safeHref(m[6] ?? '');
      const children = parseInline(m[5] ?? '');
      out.push(href ? { kind: 'link', href, children } : { kind: 'em', children });
    }
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}
