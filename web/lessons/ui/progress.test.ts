// progress.test.ts: saved progress survives a round trip and shrugs off junk and broken storage.
import { describe, expect, it } from 'vitest';
import {
  PROGRESS_KEY,
  readProgress,
  recordAnswer,
  updateLesson,
  writeProgress,
  type ProgressStorage,
} from './progress';

function memory(): ProgressStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('lesson progress', () => {
  it('round-trips through storage', () => {
    const s = memory();
    let p = updateLesson({}, 'high-order-pcp', (l) => ({
      ...recordAnswer(l, '1.2', 'retried'),
      step: 3,
      goals: { '4.3': true },
    }));
    p = updateLesson(p, 'high-order-pcp', (l) => recordAnswer(l, '1.2', 'revealed')); // never downgrades
    writeProgress(s, p);
    expect(readProgress(s)).toEqual({
      'high-order-pcp': { step: 3, questions: { '1.2': 'retried' }, goals: { '4.3': true } },
    });
  });

  it('drops junk and survives storage that throws', () => {
    const s = memory();
    s.data.set(
      PROGRESS_KEY,
      JSON.stringify({
        a: { step: -2, questions: { x: 'maybe', y: 'right' }, goals: { g: 1 } },
        b: 7,
      }),
    );
    expect(readProgress(s)).toEqual({ a: { step: 0, questions: { y: 'right' }, goals: {} } });
    s.data.set(PROGRESS_KEY, '{not json');
    expect(readProgress(s)).toEqual({});
    const broken: ProgressStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => writeProgress(broken, {})).not.toThrow();
    expect(readProgress(null)).toEqual({});
  });
});
