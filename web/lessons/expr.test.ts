// expr.test.ts: the state-expression language: paths, lists, filters, functions, errors.
import { describe, expect, it } from 'vitest';
import { evaluateText } from './expr-eval';
import { parseExpr } from './expr';

const state = {
  pcp: { cpu0: { Normal: { count: 62, lists: [{ pages: 6 }, { pages: 8 }] } } },
  events: {
    pcp_refill: [
      { got: 63, order: 0 },
      { got: 126, order: 0 },
    ],
    mm_page_pcpu_drain: [
      { order: 3, pages: 8 },
      { order: 0, pages: 1 },
    ],
  },
  a: { x: 1 },
};

function value(src: string): unknown {
  const r = evaluateText(src, state);
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

describe('state expressions', () => {
  it('reads paths and indexes', () => {
    expect(value('pcp.cpu0.Normal.count')).toBe(62);
    expect(value('events.pcp_refill.1.got')).toBe(126);
    expect(value('events.pcp_refill.-1.got')).toBe(126);
    expect(value('events.pcp_refill.last.got')).toBe(126);
    expect(value('events.pcp_refill.length')).toBe(2);
  });

  it('maps, filters and aggregates', () => {
    expect(value('sum(pcp.cpu0.Normal.lists.pages)')).toBe(14);
    expect(value('count(events.mm_page_pcpu_drain[order == 3])')).toBe(1);
    expect(value('max(events.pcp_refill.got) - min(events.pcp_refill.got)')).toBe(63);
  });

  it('does arithmetic, comparisons and logic', () => {
    expect(value('7 / 2')).toBe(3);
    expect(value('0x10 + 1')).toBe(17);
    expect(value('pcp.cpu0.Normal.count == 62 && !(1 > 2) || false')).toBe(true);
    expect(value("'Normal' == 'Normal'")).toBe(true);
  });

  it('names what is missing', () => {
    const r = evaluateText('pcp.cpu0.Normal.cnt', state);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('no `cnt` in pcp.cpu0.Normal (there is: count, lists)');
    const t = evaluateText('1 == true', state);
    expect(t.ok).toBe(false);
  });

  it('cannot reach outside the snapshot', () => {
    expect(evaluateText('a.constructor', state).ok).toBe(false);
    expect(evaluateText('a.__proto__', state).ok).toBe(false);
    expect(parseExpr('a = 1').ok).toBe(false);
    expect(parseExpr('eval(1)').ok).toBe(false);
    expect(parseExpr('1 < 2 < 3').ok).toBe(false);
  });
});
