// c-function.test.ts: the Code view finds the function around an emitting line of the real core,
// and links the kernel at each profile's version.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../core/profiles';
import { enclosingFunction, statementEnd } from './c-function';
import { elixirIdentUrl, kernelTag } from './kernel-link';

const buddy = readFileSync(
  new URL('../../../wasm-core/src/page_alloc/buddy.c', import.meta.url),
  'utf8',
).split('\n');
const lineOf = (text: string) => buddy.findIndex((l) => l.includes(text)) + 1;

describe('enclosingFunction', () => {
  it('names the function of an emitting line, from its signature to its closing brace', () => {
    const split = lineOf('ev_emit(s, EV_BUDDY_SPLIT');
    expect(split).toBeGreaterThan(0);
    const f = enclosingFunction(buddy, split);
    expect(f?.name).toBe('expand_lists');
    expect(f && buddy[f.last - 1]).toBe('}');
    expect(f && buddy[f.first - 1]).toMatch(/^[a-z]/);
    expect(f && f.first < split && split < f.last).toBe(true);
    const merge = lineOf('ev_emit(s, EV_BUDDY_MERGE');
    expect(enclosingFunction(buddy, merge)?.name).toBe('buddy_free_one_page');
  });

  it('finds no function for a line between functions or out of range', () => {
    expect(enclosingFunction(buddy, 1)).toBeNull();
    expect(enclosingFunction(buddy, buddy.length + 5)).toBeNull();
  });

  it('ends a statement at its semicolon', () => {
    const lines = ['\tev_emit(s, A, B,', '\t\tC, D);', '\tx++;'];
    expect(statementEnd(lines, 1)).toBe(2);
    expect(statementEnd(lines, 3)).toBe(3);
  });
});

describe('kernel links', () => {
  it('use the tag of the version each profile stands for', () => {
    const tag = (name: string) => kernelTag(PROFILES.findIndex((p) => p.name === name));
    expect(tag('6.18')).toBe('v6.18');
    expect(tag('6.6')).toBe('v6.6');
    expect(tag('5.13')).toBe('v5.13');
    expect(tag('2016-v5')).toBe('v4.9-rc5');
    expect(elixirIdentUrl('__rmqueue_smallest', 0)).toBe(
      'https://elixir.bootlin.com/linux/v6.18/A/ident/__rmqueue_smallest',
    );
  });
});
