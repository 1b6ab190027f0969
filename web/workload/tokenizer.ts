/*
 * tokenizer.ts: workload text to tokens with 1-based positions. A word is a run of letters,
 * digits, `_`, `.` and `-`, so `6.18`, `2016-v5`, `0x1f` and `__GFP_COMP` are single words and
 * the parser decides what each means in its place. Newlines are tokens: statements end at them.
 * Tokens are read as the parser asks for them (TokenStream), never collected into an array.
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

/** Character classes, by UTF-16 code unit below 128 (everything above is unexpected). */
const SPACE = 1;
const WORD = 2;
const CLASS = new Uint8Array(128);
for (const c of ' \t\r') CLASS[c.charCodeAt(0)] = SPACE;
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-')
  CLASS[c.charCodeAt(0)] = WORD;

const NEWLINE = 10;
const HASH = 35;

function classOf(code: number): number {
  return code < 128 ? (CLASS[code] ?? 0) : 0;
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

/**
 * Throw WorkloadFailure at the first character no token can start with (outside comments). Run
 * before any token is read, so a stray character is reported wherever it is, as when the whole
 * text was tokenized up front; it holds nothing, so it costs one pass and no memory.
 */
function checkCharacters(text: string): void {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === NEWLINE) {
      line++;
      lineStart = i + 1;
    } else if (code === HASH) {
      const end = text.indexOf('\n', i);
      i = (end < 0 ? text.length : end) - 1;
    } else if (classOf(code) === 0 && PUNCT[text.charAt(i)] === undefined) {
      const cp = text.codePointAt(i) ?? 0;
      const shown =
        cp < 0x20 || cp === 0x7f
          ? `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`
          : `"${String.fromCodePoint(cp)}"`;
      fail(
        { line, col: i - lineStart + 1 },
        `unexpected character ${shown}: expected a word, "=", "|", ",", "*", "{", "}" or "#"`,
      );
    }
  }
}

/**
 * The tokens of a text, read on demand: the parser pulls them one at a time and looks at most a
 * token or two ahead, so a 16 MiB workload never holds more than a couple of tokens at once (the
 * program the parser builds is what grows, not the token count). The constructor throws
 * WorkloadFailure at the first character no token can start with.
 */
export class TokenStream {
  private i = 0;
  private line = 1;
  private lineStart = 0;
  /** Tokens read but not yet consumed (the lookahead). */
  private readonly ahead: Token[] = [];
  /** The most tokens held at once (the tests check it stays a small constant). */
  peakHeld = 0;

  constructor(private readonly text: string) {
    checkCharacters(text);
  }

  /** The token `ahead` places past the current one; end of file repeats forever. */
  peek(ahead = 0): Token {
    while (this.ahead.length <= ahead) {
      const last = this.ahead.at(-1);
      if (last?.kind === 'eof') return last;
      this.ahead.push(this.read());
      if (this.ahead.length > this.peakHeld) this.peakHeld = this.ahead.length;
    }
    return this.ahead[ahead] as Token;
  }

  /** The current token, consumed (end of file stays current). */
  next(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.ahead.shift();
    return t;
  }

  private read(): Token {
    const text = this.text;
    let i = this.i;
    for (;;) {
      if (i >= text.length) {
        this.i = i;
        return { kind: 'eof', text: '', line: this.line, col: i - this.lineStart + 1 };
      }
      const code = text.charCodeAt(i);
      if (classOf(code) === SPACE) {
        i++;
      } else if (code === HASH) {
        // A comment runs to the end of the line; the newline itself still ends the statement.
        const end = text.indexOf('\n', i);
        i = end < 0 ? text.length : end;
      } else break;
    }
    const col = i - this.lineStart + 1;
    const line = this.line;
    const code = text.charCodeAt(i);
    if (code === NEWLINE) {
      this.i = i + 1;
      this.line++;
      this.lineStart = i + 1;
      return { kind: 'newline', text: '\n', line, col };
    }
    if (classOf(code) === WORD) {
      const start = i;
      while (i < text.length && classOf(text.charCodeAt(i)) === WORD) i++;
      this.i = i;
      return { kind: 'word', text: text.slice(start, i), line, col };
    }
    // checkCharacters let nothing else through.
    const c = text.charAt(i);
    this.i = i + 1;
    return { kind: PUNCT[c] ?? 'eof', text: c, line, col };
  }
}
