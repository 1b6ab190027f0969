// markdown.test.ts: every Markdown construct the lessons use, and no way to smuggle a script link.
import { describe, expect, it } from 'vitest';
import { safeHref, parseInline, parseMarkdown } from './markdown';

describe('lesson markdown', () => {
  it('splits paragraphs, lists, tables and code', () => {
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
    expect(parseMarkdown(md)).toEqual([
      { kind: 'p', text: 'A paragraph on two lines.' },
      { kind: 'ul', items: ['one', 'two continued'], start: 1 },
      { kind: 'ol', items: ['first', 'second'], start: 1 },
      {
        kind: 'table',
        head: ['value', 'name'],
        align: [null, 'right'],
        rows: [['0', '`Unmovable`']],
      },
      { kind: 'code', lang: 'sh', text: 'grep -A 8 pagesets /proc/zoneinfo' },
      { kind: 'h', level: 3, text: 'A heading' },
    ]);
  });

  it('keeps a number inside a sentence as text', () => {
    expect(parseMarkdown('is 10 XOR 2 =\n8. No search')).toEqual([
      { kind: 'p', text: 'is 10 XOR 2 = 8. No search' },
    ]);
    expect(parseMarkdown('Steps:\n1. one\n2. two')).toEqual([
      { kind: 'p', text: 'Steps:' },
      { kind: 'ol', items: ['one', 'two'], start: 1 },
    ]);
  });

  it('splits inline code, bold, emphasis and links', () => {
    expect(parseInline('a `x*y` **b *c*** d [e](#/lessons) f')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'code', text: 'x*y' },
      { kind: 'text', text: ' ' },
      {
        kind: 'strong',
        children: [
          { kind: 'text', text: 'b ' },
          { kind: 'em', children: [{ kind: 'text', text: 'c' }] },
        ],
      },
      { kind: 'text', text: ' d ' },
      { kind: 'link', href: '#/lessons', children: [{ kind: 'text', text: 'e' }] },
      { kind: 'text', text: ' f' },
    ]);
  });

  it('never links to javascript:', () => {
    expect(parseInline('[x](javascript:alert(1))')[0]).toMatchObject({ kind: 'em' });
  });

  it('never links to another host through a protocol-relative path', () => {
    for (const href of ['//evil.example', '/\\evil.example', '\\\\evil.example', './\\x'])
      expect(safeHref(href), href).toBeNull();
    for (const href of ['/buddyscope/#/lessons', './x.md', '../y', '#/keys', 'https://kernel.org/'])
      expect(safeHref(href), href).toBe(href);
  });

  it('reads a long run of backticks as text at once, and a code span inside one', () => {
    const run = '`'.repeat(5000);
    expect(parseInline(run)).toEqual([{ kind: 'text', text: run }]);
    expect(parseInline('``a``` `b`')).toEqual([
      { kind: 'text', text: '``a``` ' },
      { kind: 'code', text: 'b' },
    ]);
  });
});
