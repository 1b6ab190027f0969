/*
 * markdown.tsx: the small Markdown subset our own documents use (headings, paragraphs, lists,
 * code blocks, `code`, **bold**, *emphasis*, [links](url)), turned into React elements. No HTML
 * passes through, so nothing in a document can inject markup; a dependency would cost more bytes
 * than this whole file.
 */
import { Fragment, type ReactNode } from 'react';
import { safeHref } from '../lessons/ui/markdown';

function inline(text: string, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*)|(\[[^\]]+\]\([^)\s]+\))/g;
  let last = 0;
  let m: RegExpExecArray | null;
  let i = 0;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const t = m[0];
    const k = `${key}-${i++}`;
    if (m[1]) out.push(<code key={k}>{t.slice(1, -1)}</code>);
    else if (m[2]) out.push(<strong key={k}>{inline(t.slice(2, -2), k)}</strong>);
    else if (m[3]) out.push(<em key={k}>{inline(t.slice(1, -1), k)}</em>);
    else {
      const label = t.slice(1, t.indexOf(']'));
      const href = t.slice(t.indexOf('(') + 1, -1);
      const safe = safeHref(href) ?? '#';
      out.push(
        <a
          key={k}
          href={safe}
          {...(safe.startsWith('http') ? { target: '_blank', rel: 'noreferrer' } : {})}
        >
          {inline(label, k)}
        </a>,
      );
    }
    last = m.index + t.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Render a document; `headingOffset` shifts levels (an h1 becomes h2 inside a page). */
export function Markdown({
  source,
  headingOffset = 0,
}: {
  source: string;
  headingOffset?: number;
}) {
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  const blocks: ReactNode[] = [];
  let i = 0;
  let n = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const key = `b${n++}`;
    if (/^```/.test(line)) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i] ?? '')) body.push(lines[i++] ?? '');
      i++;
      blocks.push(
        <pre key={key} className="code" tabIndex={0}>
          <code>{body.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      const level = Math.min(6, (h[1]?.length ?? 1) + headingOffset);
      const Tag = `h${level}` as 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6';
      blocks.push(<Tag key={key}>{inline(h[2] ?? '', key)}</Tag>);
      i++;
      continue;
    }
    if (/^\s*[-*]\s+/.test(line)) {
      const items: string[] = [];
      while (i < lines.length && /^\s*[-*]\s+/.test(lines[i] ?? '')) {
        let item = (lines[i] ?? '').replace(/^\s*[-*]\s+/, '');
        i++;
        while (
          i < lines.length &&
          /^\s{2,}\S/.test(lines[i] ?? '') &&
          !/^\s*[-*]\s+/.test(lines[i] ?? '')
        )
          item += ' ' + (lines[i++] ?? '').trim();
        items.push(item);
      }
      blocks.push(
        <ul key={key}>
          {items.map((t, j) => (
            <li key={j}>{inline(t, `${key}-${j}`)}</li>
          ))}
        </ul>,
      );
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    const para: string[] = [];
    while (
      i < lines.length &&
      (lines[i] ?? '').trim() !== '' &&
      !/^(#{1,6}\s|```|\s*[-*]\s+)/.test(lines[i] ?? '')
    )
      para.push(lines[i++] ?? '');
    blocks.push(<p key={key}>{inline(para.join(' '), key)}</p>);
  }
  return <Fragment>{blocks}</Fragment>;
}
