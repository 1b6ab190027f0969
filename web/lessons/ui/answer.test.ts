// answer.test.ts: marking answers and finding the explanation of a wrong one.
import { describe, expect, it } from 'vitest';
import type { ChoiceQuestion, NumberQuestion } from '../types';
import { mark, readNumber } from './answer';

const common = {
  kind: 'question' as const,
  line: 1,
  prompt: 'p',
  check: 'true',
  checkLine: 1,
  explain: 'e',
  reveal: 'now' as const,
  hides: [],
};
const choice: ChoiceQuestion = {
  ...common,
  type: 'choice',
  options: [
    { key: 'a', text: 'A' },
    { key: 'b', text: 'B' },
  ],
  answer: 'a',
  wrong: { b: 'Not b.' },
};
const num: NumberQuestion = {
  ...common,
  type: 'number',
  answer: 77,
  tolerance: 0,
  unit: 'pages',
  wrong: { '42': 'Old rule.', '0_5': 'Half.' },
};

describe('marking answers', () => {
  it('marks choices and explains wrong options', () => {
    expect(mark(choice, 'a')).toEqual({ right: true });
    expect(mark(choice, 'b')).toEqual({ right: false, why: 'Not b.' });
  });
  it('marks numbers as typed, with tolerance and known wrong values', () => {
    expect(mark(num, ' 77 ')).toEqual({ right: true });
    expect(mark(num, '42')).toEqual({ right: false, why: 'Old rule.' });
    expect(mark(num, '0.5')).toEqual({ right: false, why: 'Half.' });
    expect(mark(num, '76')).toEqual({ right: false, why: null });
    expect(mark(num, 'lots')).toEqual({ right: false, why: null });
    expect(readNumber('1,024')).toBe(1024);
  });
});
