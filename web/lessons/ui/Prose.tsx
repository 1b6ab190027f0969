/*
 * Prose.tsx: lesson Markdown (markdown.ts) as React elements. Headings are shifted so a lesson's
 * ### sits under the page's own h2 step title; code blocks are focusable so keyboard users can
 * scroll long commands.
 */
import type { ReactNode } from 'react';
import { parseInline, parseMarkdown, type MdInline } from './markdown';

function renderInline(nodes: MdInline[], key: string): ReactNode[] {
  return nodes.map((n, i) => {
    const k = `${key}.${i}`;
    switch (n.kind) {
      case 'text':
        return n.text;
      case 'code':
        return <code key={k}>{n.text}</code>;
      case 'strong':
        return <strong key={k}>{renderInline(n.children, k)}</strong>;
      case 'em':
        return <em key={k}>{renderInline(n.children, k)}</em>;
      case 'link': {
        const external = /^https?:/.test(n.href);
        return (
          <a key={k} href={n.href} {...(external ? { target: '_blank', rel: 'noreferrer' } : {})}>
            {renderInline(n.children, k)}
          </a>
        );
      }
    }
  });
}

/** Inline Markdown only (prompts, options, captions). */
export function InlineMd({ text }: { text: string }) {
  return <>{renderInline(parseInline(text), 'i')}</>;
}

export function Prose({ source, minHeading = 3 }: { source: string; minHeading?: number }) {
  const blocks = parseMarkdown(source);
  return (
    <>
      {blocks.map((b, i) => {
        const k = `b${i}`;
        switch (b.kind) {
          case 'p':
            return <p key={k}>{renderInline(parseInline(b.text), k)}</p>;
          case 'h': {
            const level = Math.min(6, Math.max(minHeading, b.level));
            const Tag = `h${level}` as 'h3' | 'h4' | 'h5' | 'h6';
            return <Tag key={k}>{renderInline(parseInline(b.text), k)}</Tag>;
          }
          case 'ul':
            return (
              <ul key={k}>
                {b.items.map((t, j) => (
                  <li key={j}>{renderInline(parseInline(t), `${k}.${j}`)}</li>
                ))}
              </ul>
            );
          case 'ol':
            return (
              <ol key={k} start={b.start === 1 ? undefined : b.start}>
                {b.items.map((t, j) => (
                  <li key={j}>{renderInline(parseInline(t), `${k}.${j}`)}</li>
                ))}
              </ol>
            );
          case 'table':
            return (
              <div key={k} className="table-scroll" tabIndex={0}>
                <table className="md-table">
                  <thead>
                    <tr>
                      {b.head.map((c, j) => (
                        <th key={j} scope="col" style={{ textAlign: b.align[j] ?? undefined }}>
                          {renderInline(parseInline(c), `${k}.h${j}`)}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {b.rows.map((r, ri) => (
                      <tr key={ri}>
                        {r.map((c, j) => (
                          <td key={j} style={{ textAlign: b.align[j] ?? undefined }}>
                            {renderInline(parseInline(c), `${k}.${ri}.${j}`)}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            );
          case 'code':
            return (
              <pre
                key={k}
                className="code"
                tabIndex={0}
                aria-label={b.lang === 'sh' ? 'Shell commands' : 'Code'}
              >
                <code>{b.text}</code>
              </pre>
            );
        }
      })}
    </>
  );
}
