/*
 * expr.ts: the state-expression language of lesson checks and goals (lessons/README.md, "State
 * expressions"), parsed into a small tree. Paths, integer literals, strings, booleans,
 * arithmetic, comparisons, && || !, a filter `xs[expr]`, and four aggregate functions. Nothing
 * else exists, so an expression can only read the snapshot it is given. Never throws: errors
 * come back as values with a column.
 *
 * Grammar (lowest precedence first):
 *   or      := and ('||' and)*
 *   and     := not ('&&' not)*
 *   not     := '!' not | cmp
 *   cmp     := sum (('=='|'!='|'<'|'<='|'>'|'>=') sum)?
 *   sum     := prod (('+'|'-') prod)*
 *   prod    := unary (('*'|'/'|'%') unary)*
 *   unary   := '-' unary | postfix
 *   postfix := primary ('.' NAME | '.' INT | '.' '-' INT | '[' or ']')*
 *   primary := INT | STRING | 'true' | 'false' | NAME '(' or ')' | NAME | '(' or ')'
 */

export const EXPR_FUNCTIONS = ['count', 'sum', 'min', 'max', 'abs'] as const;
export type ExprFunction = (typeof EXPR_FUNCTIONS)[number];

export type BinaryOp =
  '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';

export type Expr =
  | { t: 'num'; value: number }
  | { t: 'str'; value: string }
  | { t: 'bool'; value: boolean }
  | { t: 'name'; name: string; col: number }
  | { t: 'field'; of: Expr; key: string | number; col: number }
  | { t: 'filter'; of: Expr; pred: Expr; col: number }
  | { t: 'call'; fn: ExprFunction; arg: Expr; col: number }
  | { t: 'not'; arg: Expr }
  | { t: 'neg'; arg: Expr }
  | { t: 'bin'; op: BinaryOp; left: Expr; right: Expr; col: number };

export type ExprParse = { ok: true; expr: Expr } | { ok: false; col: number; message: string };

export const MAX_EXPR_LENGTH = 400;

type Tok =
  | { k: 'num'; v: number; col: number }
  | { k: 'str'; v: string; col: number }
  | { k: 'name'; v: string; col: number }
  | { k: 'op'; v: string; col: number }
  | { k: 'end'; col: number };

class ExprError extends Error {
  constructor(
    readonly col: number,
    message: string,
  ) {
    super(message);
  }
}

const OPS = [
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '!',
  '(',
  ')',
  '[',
  ']',
  '.',
];

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] ?? '';
    const col = i + 1;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    const rest = src.slice(i);
    const num = /^(0x[0-9a-fA-F]+|[0-9]+)/.exec(rest);
    if (num) {
      const text = num[0];
      if (/^[A-Za-z_]/.test(src.slice(i + text.length)))
        throw new ExprError(col, `bad number \`${text}${src[i + text.length] ?? ''}\``);
      out.push({ k: 'num', v: Number(text), col });
      i += text.length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (name) {
      out.push({ k: 'name', v: name[0], col });
      i += name[0].length;
      continue;
    }
    if (c === "'" || c === '"') {
      const close = src.indexOf(c, i + 1);
      if (close < 0) throw new ExprError(col, 'string is never closed');
      out.push({ k: 'str', v: src.slice(i + 1, close), col });
      i = close + 1;
      continue;
    }
    const op = OPS.find((o) => rest.startsWith(o));
    if (!op) throw new ExprError(col, `unexpected character \`${c}\``);
    out.push({ k: 'op', v: op, col });
    i += op.length;
  }
  out.push({ k: 'end', col: src.length + 1 });
  return out;
}

function describe(t: Tok): string {
  if (t.k === 'end') return 'the end';
  if (t.k === 'str') return `'${t.v}'`;
  return `\`${String(t.v)}\``;
}

class Parser {
  private i = 0;
  constructor(private readonly toks: Tok[]) {}

  private peek(): Tok {
    return this.toks[this.i] ?? { k: 'end', col: 0 };
  }

  private isOp(v: string): boolean {
    const t = this.peek();
    return t.k === 'op' && t.v === v;
  }

  private expectOp(v: string): void {
    const t = this.peek();
    if (!(t.k === 'op' && t.v === v))
      throw new ExprError(t.col, `expected \`${v}\`, found ${describe(t)}`);
    this.i++;
  }

  parse(): Expr {
    const e = this.or();
    const t = this.peek();
    if (t.k !== 'end') throw new ExprError(t.col, `unexpected ${describe(t)}`);
    return e;
  }

  private binary(next: () => Expr, ops: readonly string[]): Expr {
    let left = next();
    for (;;) {
      const t = this.peek();
      if (t.k !== 'op' || !ops.includes(t.v)) return left;
      this.i++;
      left = { t: 'bin', op: t.v as BinaryOp, left, right: next(), col: t.col };
    }
  }

  private or(): Expr {
    return this.binary(() => this.and(), ['||']);
  }

  private and(): Expr {
    return this.binary(() => this.not(), ['&&']);
  }

  private not(): Expr {
    if (this.isOp('!')) {
      this.i++;
      return { t: 'not', arg: this.not() };
    }
    return this.cmp();
  }

  private cmp(): Expr {
    const left = this.sum();
    const t = this.peek();
    if (t.k === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.v)) {
      this.i++;
      const right = this.sum();
      const after = this.peek();
      if (after.k === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(after.v)) {
        throw new ExprError(after.col, 'comparisons do not chain: use && between them');
      }
      return { t: 'bin', op: t.v as BinaryOp, left, right, col: t.col };
    }
    return left;
  }

  private sum(): Expr {
    return this.binary(() => this.prod(), ['+', '-']);
  }

  private prod(): Expr {
    return this.binary(() => this.unary(), ['*', '/', '%']);
  }

  private unary(): Expr {
    if (this.isOp('-')) {
      this.i++;
      return { t: 'neg', arg: this.unary() };
    }
    return this.postfix();
  }

  private postfix(): Expr {
    let e = this.primary();
    for (;;) {
      const t = this.peek();
      if (t.k === 'op' && t.v === '.') {
        this.i++;
        const k = this.peek();
        if (k.k === 'name') {
          this.i++;
          e = { t: 'field', of: e, key: k.v, col: k.col };
        } else if (k.k === 'num') {
          this.i++;
          e = { t: 'field', of: e, key: k.v, col: k.col };
        } else if (k.k === 'op' && k.v === '-') {
          this.i++;
          const n = this.peek();
          if (n.k !== 'num')
            throw new ExprError(n.col, `expected an index after \`.-\`, found ${describe(n)}`);
          this.i++;
          e = { t: 'field', of: e, key: -n.v, col: k.col };
        } else {
          throw new ExprError(
            k.col,
            `expected a field name or index after \`.\`, found ${describe(k)}`,
          );
        }
      } else if (t.k === 'op' && t.v === '[') {
        this.i++;
        const pred = this.or();
        this.expectOp(']');
        e = { t: 'filter', of: e, pred, col: t.col };
      } else {
        return e;
      }
    }
  }

  private primary(): Expr {
    const t = this.peek();
    switch (t.k) {
      case 'num':
        this.i++;
        return { t: 'num', value: t.v };
      case 'str':
        this.i++;
        return { t: 'str', value: t.v };
      case 'name': {
        this.i++;
        if (t.v === 'true' || t.v === 'false') return { t: 'bool', value: t.v === 'true' };
        if (this.isOp('(')) {
          if (!(EXPR_FUNCTIONS as readonly string[]).includes(t.v)) {
            throw new ExprError(
              t.col,
              `unknown function \`${t.v}\` (there are: ${EXPR_FUNCTIONS.join(', ')})`,
            );
          }
          this.i++;
          const arg = this.or();
          this.expectOp(')');
          return { t: 'call', fn: t.v as ExprFunction, arg, col: t.col };
        }
        return { t: 'name', name: t.v, col: t.col };
      }
      case 'op':
        if (t.v === '(') {
          this.i++;
          const e = this.or();
          this.expectOp(')');
          return e;
        }
        throw new ExprError(t.col, `unexpected ${describe(t)}`);
      case 'end':
        throw new ExprError(t.col, 'the expression ends too early');
    }
  }
}

/** Parse an expression; never throws. */
export function parseExpr(src: string): ExprParse {
  if (src.length > MAX_EXPR_LENGTH)
    return { ok: false, col: 1, message: `expression longer than ${MAX_EXPR_LENGTH} characters` };
  if (src.trim() === '') return { ok: false, col: 1, message: 'empty expression' };
  try {
    return { ok: true, expr: new Parser(tokenize(src)).parse() };
  } catch (e) {
    if (e instanceof ExprError) return { ok: false, col: e.col, message: e.message };
    throw e;
  }
}
