// The streaming tokenizer reads the same tokens and reports the same errors as the array
// tokenizer it replaced (kept below as the reference), and the parser pulls tokens from it one at
// a time: it never holds more than a couple, however long the text.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { WorkloadFailure, fail } from './errors';
import * as tokenizer from './tokenizer';
import { TokenStream, type Token, type TokenKind } from './tokenizer';

/** The tokenizer as it was before streaming: every token in an array, up front. */
function referenceTokenize(text: string): Token[] {
  const PUNCT: Record<string, TokenKind> = {
    '=': 'equals',
    '|': 'pipe',
    ',': 'comma',
    '*': 'star',
    '{': 'lbrace',
    '}': 'rbrace',
  };
  const isWordChar = (c: string) => /[A-Za-z0-9_.-]/.test(c);
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

/** Tokens or the error, from either tokenizer. */
function outcome(read: () => Token[]): Token[] | { error: unknown } {
  try {
    return read();
  } catch (e) {
    if (e instanceof WorkloadFailure) return { error: e.error };
    throw e;
  }
}

function streamed(text: string): Token[] {
  const s = new TokenStream(text);
  const out: Token[] = [];
  for (;;) {
    const t = s.next();
    out.push(t);
    if (t.kind === 'eof') return out;
  }
}

const scenarios = readdirSync(new URL('../scenarios/', import.meta.url))
  .filter((f) => f.endsWith('.workload'))
  .map((f) => readFileSync(new URL(`../scenarios/${f}`, import.meta.url), 'utf8'));

const EDGES = [
  '',
  '\n',
  'machine tiny',
  'machine tiny\r\ncpu 0 alloc a order=2 GFP_KERNEL | __GFP_COMP\r\n',
  '# only a comment',
  'cpu 0 alloc a # trailing ñ comment é\ncpu 1 free a *\n',
  'repeat 3 {\n\tcpu 0 alloc a\n}\nset a=1,b=2\n',
  'machine tiny\ncpu 0 alloc a GFP_KERNEL @\n',
  'cpu 0 alloc a\n\u0000',
  'machine tiny\ncpu 0 bogus statement\ncpu 1 alloc ü\n', // the stray character wins over the parse error
  'cpu 0 alloc 😀\n',
  'cpu 0 alloc a\u007f',
  'x'.repeat(100) + ' ' + '0x1f 6.18 2016-v5 __GFP_COMP',
  '#\n#\n\n  \t  \r\n{}*,|=',
];

/** A long workload of every kind of token, a few MB of text (`lines`: a multiple of 7). */
function generated(lines: number): string {
  const out: string[] = ['machine small', 'seed 7'];
  for (let i = 0; i < lines; i++) {
    out.push(
      i % 7 === 0
        ? `repeat ${(i % 5) + 1} { # block ${i}`
        : i % 7 === 6
          ? '}'
          : `cpu ${i % 2} alloc a${i} order=${i % 4} GFP_KERNEL | __GFP_COMP   # op ${i}`,
    );
  }
  return out.join('\n') + '\n';
}

describe('TokenStream', () => {
  it('reads the same tokens and errors as the array tokenizer', () => {
    expect(scenarios.length).toBeGreaterThan(0);
    for (const text of [...scenarios, ...EDGES]) {
      expect(
        outcome(() => streamed(text)),
        JSON.stringify(text.slice(0, 60)),
      ).toEqual(outcome(() => referenceTokenize(text)));
    }
  });

  it('reads the same tokens on a large generated input', () => {
    const text = generated(63_000);
    expect(text.length).toBeGreaterThan(2_000_000);
    expect(streamed(text)).toEqual(referenceTokenize(text));
  });

  it('peeks past the end as end of file, and next() stays there', () => {
    const s = new TokenStream('a');
    expect(s.peek(3).kind).toBe('eof');
    expect(s.next().text).toBe('a');
    expect(s.next().kind).toBe('eof');
    expect(s.next().kind).toBe('eof');
  });
});

describe('the parser pulls tokens as it goes', () => {
  it('never asks for a token array and holds at most two tokens at once', async () => {
    const streams: TokenStream[] = [];
    vi.resetModules();
    vi.doMock('./tokenizer', () => ({
      ...tokenizer,
      TokenStream: class extends TokenStream {
        constructor(text: string) {
          super(text);
          streams.push(this);
        }
      },
    }));
    const { parseWorkload } = await import('./parser');
    expect('tokenize' in tokenizer).toBe(false); // there is no array tokenizer to ask for
    const text = generated(63_000);
    const r = parseWorkload(text);
    expect(r.ok).toBe(true);
    expect(streams).toHaveLength(1);
    expect(streams[0]?.peakHeld).toBeGreaterThan(0);
    expect(streams[0]?.peakHeld).toBeLessThanOrEqual(2);
    vi.doUnmock('./tokenizer');
    vi.resetModules();
  });
});
