/*
 * Md.tsx: the one renderer of Markdown trees (tree.ts) as React elements, for lessons and docs.
 * Nothing becomes markup that React did not build: raw HTML in a source is shown as its text,
 * links go through safeHref (an unsafe target renders as plain text), images as their alt text.
 * Code blocks and tables are focusable so keyboard users can scroll them.
 */
import type { ReactNode } from 'react';
import type { MdNode, MdRoot } from './tree';
import { safeHref } from './safe-href';
import { treeOf } from './store';

type Heading = 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6';

interface Opts {
  /** Headings are shifted down by this many levels, then raised to at least minHeading. */
  headingOffset: number;
  minHeading: number;
}

function kids(nodes: readonly MdNode[], o: Opts, key: string): ReactNode[] {
  return nodes.map((n, i) => node(n, o, `${key}.${i}`));
}

function node(n: MdNode, o: Opts, k: string): ReactNode {
  switch (n.type) {
    case 'text':
      return n.value;
    case 'inlineCode':
      return <code key={k}>{n.value}</code>;
    case 'strong':
      return <strong key={k}>{kids(n.children, o, k)}</strong>;
    case 'emphasis':
      return <em key={k}>{kids(n.children, o, k)}</em>;
    case 'delete':
      return <del key={k}>{kids(n.children, o, k)}</del>;
    case 'break':
      return <br key={k} />;
    case 'link': {
      const href = safeHref(n.url);
      if (!href) return <span key={k}>{kids(n.children, o, k)}</span>;
      const external = /^https?:/.test(href);
      return (
        <a key={k} href={href} {...(external ? { target: '_blank', rel: 'noreferrer' } : {})}>
          {kids(n.children, o, k)}
        </a>
      );
    }
    case 'image':
      return n.alt ?? '';
    case 'html':
      // Raw HTML is never markup here: the reader sees what the author typed.
      return n.value;
    case 'paragraph':
      return <p key={k}>{kids(n.children, o, k)}</p>;
    case 'heading': {
      const level = Math.min(6, Math.max(o.minHeading, n.depth + o.headingOffset));
      const Tag = `h${level}` as Heading;
      return <Tag key={k}>{kids(n.children, o, k)}</Tag>;
    }
    case 'blockquote':
      return <blockquote key={k}>{kids(n.children, o, k)}</blockquote>;
    case 'list': {
      const items = n.children.map((li, j) => (
        <li key={j}>
          {/* A tight list's paragraphs are its items' text, not blocks of their own. */}
          {n.spread || li.spread
            ? kids(li.children, o, `${k}.${j}`)
            : li.children.flatMap((c, m) =>
                c.type === 'paragraph'
                  ? kids(c.children, o, `${k}.${j}.${m}`)
                  : [node(c, o, `${k}.${j}.${m}`)],
              )}
        </li>
      ));
      return n.ordered ? (
        <ol key={k} start={n.start === 1 || n.start == null ? undefined : n.start}>
          {items}
        </ol>
      ) : (
        <ul key={k}>{items}</ul>
      );
    }
    case 'code':
      return (
        <pre
          key={k}
          className="code"
          tabIndex={0}
          aria-label={n.lang === 'sh' ? 'Shell commands' : 'Code'}
        >
          <code>{n.value}</code>
        </pre>
      );
    case 'thematicBreak':
      return <hr key={k} />;
    case 'table': {
      const [head, ...rows] = n.children;
      const align = n.align ?? [];
      const style = (j: number) => ({ textAlign: align[j] ?? undefined });
      return (
        <div key={k} className="table-scroll" tabIndex={0}>
          <table className="md-table">
            {head && (
              <thead>
                <tr>
                  {head.children.map((c, j) => (
                    <th key={j} scope="col" style={style(j)}>
                      {kids(c.children, o, `${k}.h${j}`)}
                    </th>
                  ))}
                </tr>
              </thead>
            )}
            <tbody>
              {rows.map((r, ri) => (
                <tr key={ri}>
                  {r.children.map((c, j) => (
                    <td key={j} style={style(j)}>
                      {kids(c.children, o, `${k}.${ri}.${j}`)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    default:
      // Definitions, footnotes and the like: nothing the site's documents use; their text only.
      return 'children' in n ? kids(n.children as MdNode[], o, k) : null;
  }
}

/** A document (or a lesson's prose) as blocks. */
export function MdBlocks({
  tree,
  headingOffset = 0,
  minHeading = 1,
}: {
  tree: MdRoot;
  headingOffset?: number;
  minHeading?: number;
}) {
  return <>{kids(tree.children, { headingOffset, minHeading }, 'b')}</>;
}

/** Inline Markdown (a prompt, an option, a caption): its paragraphs' content, without <p>. */
export function MdInlineTree({ tree }: { tree: MdRoot }) {
  const o = { headingOffset: 0, minHeading: 1 };
  return (
    <>
      {tree.children.flatMap((c, i) =>
        c.type === 'paragraph' ? kids(c.children, o, `i${i}`) : [node(c, o, `i${i}`)],
      )}
    </>
  );
}

/** Lesson Markdown by its source text: the tree the build made for it. */
export function Markdown({ source, minHeading = 3 }: { source: string; minHeading?: number }) {
  return <MdBlocks tree={treeOf(source)} minHeading={minHeading} />;
}

/** Inline lesson Markdown by its source text. */
export function InlineMarkdown({ text }: { text: string }) {
  return <MdInlineTree tree={treeOf(text)} />;
}
