/*
 * expr-eval.ts: evaluating a state expression (expr.ts) against a plain snapshot object. Reads
 * only own properties of plain objects and arrays, so nothing outside the snapshot is reachable
 * (no prototypes, no functions). A missing path is an error that names the path and the fields
 * that do exist, so a typo in a lesson fails loudly instead of being quietly false.
 */
import type { Expr } from './expr';
import { parseExpr } from './expr';

export type EvalResult = { ok: true; value: unknown } | { ok: false; message: string };

class EvalError extends Error {}

/** The path an expression reads, for messages: `pcp.cpu0.Normal.count`. */
export function pathText(e: Expr): string {
  switch (e.t) {
    case 'name':
      return e.name;
    case 'field':
      return `${pathText(e.of)}.${String(e.key)}`;
    case 'filter':
      return `${pathText(e.of)}[…]`;
    case 'call':
      return `${e.fn}(${pathText(e.arg)})`;
    case 'num':
      return String(e.value);
    case 'str':
      return `'${e.value}'`;
    case 'bool':
      return String(e.value);
    case 'not':
      return `!${pathText(e.arg)}`;
    case 'neg':
      return `-${pathText(e.arg)}`;
    case 'bin':
      return `${pathText(e.left)} ${e.op} ${pathText(e.right)}`;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function keysOf(v: Record<string, unknown>): string {
  const keys = Object.keys(v);
  const shown = keys.slice(0, 24).join(', ');
  return keys.length > 24 ? `${shown}, …` : shown || 'none';
}

function typeName(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (v === null || v === undefined) return 'nothing';
  if (isRecord(v)) return 'an object';
  return `a ${typeof v}`;
}

function own(obj: Record<string, unknown>, key: string): { found: boolean; value: unknown } {
  if (!Object.prototype.hasOwnProperty.call(obj, key)) return { found: false, value: undefined };
  return { found: true, value: obj[key] };
}

function num(v: unknown, what: string): number {
  if (typeof v !== 'number') throw new EvalError(`${what} is ${typeName(v)}, not a number`);
  return v;
}

function list(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new EvalError(`${what} is ${typeName(v)}, not a list`);
  return v;
}

function bool(v: unknown, what: string): boolean {
  if (typeof v !== 'boolean') throw new EvalError(`${what} is ${typeName(v)}, not true/false`);
  return v;
}

function field(base: unknown, key: string | number, where: Expr): unknown {
  const path = pathText(where);
  if (Array.isArray(base)) {
    if (typeof key === 'number') {
      const i = key < 0 ? base.length + key : key;
      if (i < 0 || i >= base.length)
        throw new EvalError(`${path}: index ${key} is outside the list of ${base.length}`);
      return base[i];
    }
    if (key === 'length') return base.length;
    if (key === 'first' || key === 'last') {
      if (base.length === 0) throw new EvalError(`${path}: the list is empty`);
      return key === 'first' ? base[0] : base[base.length - 1];
    }
    return base.map((el, i) => {
      if (!isRecord(el))
        throw new EvalError(`${path}: element ${i} is ${typeName(el)}, it has no \`${key}\``);
      const r = own(el, key);
      if (!r.found)
        throw new EvalError(`${path}: element ${i} has no \`${key}\` (it has: ${keysOf(el)})`);
      return r.value;
    });
  }
  if (isRecord(base)) {
    const r = own(base, String(key));
    if (!r.found)
      throw new EvalError(
        `no \`${String(key)}\` in ${path.slice(0, path.lastIndexOf('.')) || 'the state'} (there is: ${keysOf(base)})`,
      );
    return r.value;
  }
  throw new EvalError(`${path}: ${typeName(base)} has no field \`${String(key)}\``);
}

function compare(op: string, l: unknown, r: unknown, e: Expr): boolean {
  const bothNum = typeof l === 'number' && typeof r === 'number';
  const bothStr = typeof l === 'string' && typeof r === 'string';
  const bothBool = typeof l === 'boolean' && typeof r === 'boolean';
  if (!bothNum && !bothStr && !(bothBool && (op === '==' || op === '!='))) {
    throw new EvalError(`\`${pathText(e)}\` compares ${typeName(l)} with ${typeName(r)}`);
  }
  const a = l as number | string | boolean;
  const b = r as number | string | boolean;
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    default:
      return a >= b;
  }
}

class Evaluator {
  constructor(private readonly root: unknown) {}

  run(e: Expr, scope: unknown): unknown {
    switch (e.t) {
      case 'num':
      case 'str':
      case 'bool':
        return e.value;
      case 'name': {
        if (isRecord(scope) && scope !== this.root) {
          const r = own(scope, e.name);
          if (r.found) return r.value;
        }
        if (isRecord(this.root)) {
          const r = own(this.root, e.name);
          if (r.found) return r.value;
          throw new EvalError(`unknown name \`${e.name}\` (the state has: ${keysOf(this.root)})`);
        }
        throw new EvalError(`unknown name \`${e.name}\``);
      }
      case 'field':
        return field(this.run(e.of, scope), e.key, e);
      case 'filter': {
        const xs = list(this.run(e.of, scope), pathText(e.of));
        return xs.filter((el) => bool(this.run(e.pred, el), `the filter of ${pathText(e.of)}`));
      }
      case 'call': {
        const v = this.run(e.arg, scope);
        const what = pathText(e.arg);
        if (e.fn === 'abs') return Math.abs(num(v, what));
        const xs = list(v, what);
        if (e.fn === 'count') return xs.length;
        const ns = xs.map((x, i) => num(x, `${what}.${i}`));
        if (e.fn === 'sum') return ns.reduce((s, x) => s + x, 0);
        if (ns.length === 0) throw new EvalError(`${e.fn}(${what}): the list is empty`);
        return e.fn === 'min' ? Math.min(...ns) : Math.max(...ns);
      }
      case 'not':
        return !bool(this.run(e.arg, scope), pathText(e.arg));
      case 'neg':
        return -num(this.run(e.arg, scope), pathText(e.arg));
      case 'bin': {
        if (e.op === '&&' || e.op === '||') {
          const l = bool(this.run(e.left, scope), pathText(e.left));
          if (e.op === '&&' ? !l : l) return l;
          return bool(this.run(e.right, scope), pathText(e.right));
        }
        const l = this.run(e.left, scope);
        const r = this.run(e.right, scope);
        if (['==', '!=', '<', '<=', '>', '>='].includes(e.op)) return compare(e.op, l, r, e);
        const a = num(l, pathText(e.left));
        const b = num(r, pathText(e.right));
        switch (e.op) {
          case '+':
            return a + b;
          case '-':
            return a - b;
          case '*':
            return a * b;
          case '/':
          case '%':
            if (b === 0) throw new EvalError(`\`${pathText(e)}\` divides by zero`);
            if (e.op === '%') return a % b;
            return Number.isInteger(a) && Number.isInteger(b) ? Math.trunc(a / b) : a / b;
          default:
            throw new EvalError(`unknown operator ${e.op}`);
        }
      }
    }
  }
}

/** Evaluate a parsed expression against a snapshot; never throws. */
export function evaluate(e: Expr, root: unknown): EvalResult {
  try {
    return { ok: true, value: new Evaluator(root).run(e, root) };
  } catch (err) {
    if (err instanceof EvalError) return { ok: false, message: err.message };
    throw err;
  }
}

/** Parse and evaluate in one go (the player's sandbox and the replay test use this). */
export function evaluateText(src: string, root: unknown): EvalResult {
  const p = parseExpr(src);
  if (!p.ok) return { ok: false, message: `column ${p.col}: ${p.message}` };
  return evaluate(p.expr, root);
}

/** A value as a lesson would print it. */
export function showValue(v: unknown): string {
  if (Array.isArray(v))
    return `[${v.slice(0, 12).map(showValue).join(', ')}${v.length > 12 ? ', …' : ''}]`;
  if (isRecord(v)) return `{${Object.keys(v).slice(0, 8).join(', ')}}`;
  if (typeof v === 'string') return `'${v}'`;
  return String(v);
}
