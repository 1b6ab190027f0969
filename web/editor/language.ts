/*
 * language.ts: highlighting for the workload language as a CodeMirror StreamLanguage. It reads
 * the text with the tokenizer's own rules (a word is a run of letters, digits, `_`, `.`, `-`;
 * `#` starts a comment to the end of the line) and colours each word by its role in
 * vocabulary.ts. No grammar here: errors come from the real parser, through the linter.
 */
import { HighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { tags as t } from '@lezer/highlight';
import { roleOf } from './vocabulary';

const TOKEN: Record<ReturnType<typeof roleOf>, string> = {
  keyword: 'keyword',
  atom: 'atom',
  key: 'propertyName',
  flag: 'typeName',
  number: 'number',
  name: 'variableName',
};

export const workloadLanguage = StreamLanguage.define<null>({
  name: 'workload',
  startState: () => null,
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.peek() === '#') {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match(/^[A-Za-z0-9_.-]+/)) return TOKEN[roleOf(stream.current())];
    const c = stream.next();
    if (c === '=' || c === '|' || c === ',' || c === '*') return 'operator';
    if (c === '{' || c === '}') return 'brace';
    return 'invalid';
  },
  languageData: { commentTokens: { line: '#' } },
});

/** Colours from CSS variables (app.css), so both themes keep WCAG AA contrast. */
const style = HighlightStyle.define([
  { tag: t.comment, color: 'var(--cm-comment)', fontStyle: 'italic' },
  { tag: t.keyword, color: 'var(--cm-keyword)', fontWeight: '600' },
  { tag: t.atom, color: 'var(--cm-atom)' },
  { tag: t.propertyName, color: 'var(--cm-key)' },
  { tag: t.typeName, color: 'var(--cm-flag)' },
  { tag: t.number, color: 'var(--cm-number)' },
  { tag: [t.operator, t.brace], color: 'var(--muted)' },
  { tag: t.invalid, color: 'var(--danger, #a4161a)', textDecoration: 'underline' },
]);

export function workloadHighlighting(): Extension {
  return [workloadLanguage, syntaxHighlighting(style)];
}
