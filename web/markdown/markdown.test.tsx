// markdown.test.ts: lessons and docs are parsed by a CommonMark parser at build time and rendered
// by one React renderer: every construct they use, emphasis written either way, no raw HTML and
// no way to smuggle a script link or another host.
import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from '../app/static-markup';
import { describe, expect, it } from 'vitest';
import { loadLessons } from '../lessons/loader';
import { lessonMarkdown } from '../lessons/markdown-sources';
import { MdBlocks, MdInlineTree, InlineMarkdown } from './Md';
import { parseMarkdownTree } from './parse';
import { safeHref } from './safe-href';

const html = (md: string, minHeading = 1) =>
  renderToStaticMarkup(<MdBlocks tree={parseMarkdownTree(md)} minHeading={minHeading} />);
const inline = (md: string) => renderToStaticMarkup(<MdInlineTree tree={parseMarkdownTree(md)} />);

describe('markdown', () => {
  it('renders paragraphs, lists, tables, code and headings', () => {
    const md = [
      'A paragraph',
      'on two lines.',
      '',
      '- one',
      '- two',
      '  continued',
      '',
      '1. first',
      '2. second',
      '',
      '| value | name |',
      '|---|--:|',
      '| 0 | `Unmovable` |',
      '',
      '```sh',
      'grep -A 8 pagesets /proc/zoneinfo',
      '```',
      '### A heading',
    ].join('\n');
    expect(html(md)).toBe(
      '<p>A paragraph\non two lines.</p>' +
        '<ul><li>one</li><li>two\ncontinued</li></ul>' +
        '<ol><li>first</li><li>second</li></ol>' +
        '<div class="table-scroll" tabindex="0"><table class="md-table"><thead><tr>' +
        '<th scope="col">value</th><th scope="col" style="text-align:right">name</th></tr></thead>' +
        '<tbody><tr><td>0</td><td style="text-align:right"><code>Unmovable</code></td></tr></tbody></table></div>' +
        '<pre class="code" tabindex="0" aria-label="Shell commands"><code>grep -A 8 pagesets /proc/zoneinfo</code></pre>' +
        '<h3>A heading</h3>',
    );
  });

  it('emphasis with underscores as with stars, and not inside words', () => {
    expect(inline('_a_ *b* __c__ **d** snake_case_name')).toBe(
      '<em>a</em> <em>b</em> <strong>c</strong> <strong>d</strong> snake_case_name',
    );
  });

  it('keeps a number inside a sentence as text, and raises headings to the minimum', () => {
    expect(html('is 10 XOR 2 =\n8. No search')).toBe('<p>is 10 XOR 2 =\n8. No search</p>');
    expect(html('# Top', 3)).toBe('<h3>Top</h3>');
  });

  it('shows raw HTML as text', () => {
    expect(html('<script>alert(1)</script>')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(inline('a <b onclick="x">b</b>')).toBe('a &lt;b onclick=&quot;x&quot;&gt;b&lt;/b&gt;');
  });

  it('never links to javascript: or another host', () => {
    expect(inline('[x](javascript:alert(1))')).toBe('<span>x</span>');
    expect(inline('[x](//evil.example)')).toBe('<span>x</span>');
    expect(inline('[e](#/lessons)')).toBe('<a href="#/lessons">e</a>');
    for (const href of ['//evil.example', '/\\evil.example', '\\\\evil.example', './\\x'])
      expect(safeHref(href), href).toBeNull();
    for (const href of ['/buddyscope/#/lessons', './x.md', '../y', '#/keys', 'https://kernel.org/'])
      expect(safeHref(href), href).toBe(href);
  });

  it('reads a long run of backticks quickly', () => {
    const run = '`'.repeat(5000);
    expect(inline(`a ${run}`)).toBe(`a ${run}`);
    expect(inline('``a``` `b`')).toBe('``a``` <code>b</code>');
  });

  it('has a tree for every piece of Markdown of every lesson, with no markup left as text', () => {
    const { lessons } = loadLessons();
    expect(lessons.length).toBeGreaterThan(0);
    for (const l of lessons)
      for (const md of lessonMarkdown(l)) {
        const out = renderToStaticMarkup(<InlineMarkdown text={md} />);
        // The build's tree, not the plain-text fallback (which would keep the source's markup).
        const text = out.replace(/<code>[^<]*<\/code>|<pre[\s\S]*?<\/pre>/g, '');
        expect(text, `${l.file}: ${md.slice(0, 60)}`).not.toMatch(
          /(^|[\s(])(_|\*\*?)\w[^<]*?\2($|[\s.,;:)])/,
        );
      }
  });

  it('renders the model notes', () => {
    const tree = parseMarkdownTree(readFileSync('docs/model-notes.md', 'utf8'));
    expect(renderToStaticMarkup(<MdBlocks tree={tree} />)).toMatch(/^<h1>Model notes/);
  });
});
