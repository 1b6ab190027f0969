/*
 * tokenizer.ts: workload text to tokens with 1-based positions. A word is a run of letters,
 * digits, `_`, `.` and `-`, so `6.18`, `2016-v5`, `0x1f` and `__GFP_COMP` are single words and
 * the parser decides what each means in its place. Newlines are tokens: statements end at them.
 */
import { fail } from './errors';

export type TokenKind =
  'word' | 'equals' | 'pipe' | 'comma' | 'star' | 'lbrace' | 'rbrace' | 'newline' | 'eof';

export interface Token {
  kind: TokenKind;
  text: string;
  line: number;
  col: number;
}

const PUNCT: Readonly<Record<string, TokenKind>> = {
  '=': 'equals',
  '|': 'pipe',
  ',': 'comma',
  '*': 'star',
  '{': 'lbrace',
  '}': 'rbrace',
};

function isWordChar(c: string): boolean {
  return /[A-Za-z0-9_.-]/.test(c);
}

/** How a token reads in an error message. */
export function describeToken(t: Token): string {
  switch (t.kind) {
    case 'newline':
      return 'end of line';
    case 'eof':
      return 'end of file';
    case 'word':
      return `"${t.text.length > 24 ? t.text.slice(0, 24) + '…' : t.text}"`;
    default:
      return `"${t.text}"`;
  }
}

/** Split text into tokens; throws WorkloadFailure at the first character no token can start with. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let col = 1;
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '\n') {
      tokens.push({ kind: 'newline', text: '\n', line, col });
      i++;
      line++;
      col = 1;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      col++;
    } else if (c === '#') {
      // A comment runs to the end of the line; the newline itself still ends the statement.
      while (i < text.length && text.charAt(i) !== '\n') {
        i++;
        col++;
      }
    } else if (PUNCT[c] !== undefined) {
      tokens.push({ kind: PUNCT[c], text: c, line, col });
      i++;
      col++;
    } else if (isWordChar(c)) {
      const start = i;
      while (i < text.length && isWordChar(text.charAt(i))) i++;
      tokens.push({ kind: 'word', text: text.slice(start, i), line, col });
      col += i - start;
    } else {
      const cp = text.codePointAt(i) ?? 0;
      const shown =
        cp < 0x20 || cp === 0x7f
          ? `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`
          : `"${String.fromCodePoint(cp)}"`;
      fail(
        { line, col },
        `unexpected character ${shown}: expected a word, "=", "|", ",", "*", "{", "}" or "#"`,
      );
    }
  }
  tokens.push({ kind: 'eof', text: '', line, col });
  return tokens;
}
