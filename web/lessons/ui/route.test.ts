// route.test.ts: lesson deep links, in both directions.
import { describe, expect, it } from 'vitest';
import { lessonHash, parseLessonRoute } from './route';

describe('lesson routes', () => {
  it('parses the table of contents, steps and modes', () => {
    expect(parseLessonRoute('#/lessons')).toEqual({ kind: 'toc' });
    expect(parseLessonRoute('#/lessons/')).toEqual({ kind: 'toc' });
    expect(parseLessonRoute('#/lessons/high-order-pcp')).toEqual({
      kind: 'lesson',
      slug: 'high-order-pcp',
      step: 0,
      mode: 'read',
    });
    expect(parseLessonRoute('#/lessons/high-order-pcp/3')).toEqual({
      kind: 'lesson',
      slug: 'high-order-pcp',
      step: 2,
      mode: 'read',
    });
    expect(parseLessonRoute('#/lessons/high-order-pcp/3/present')).toEqual({
      kind: 'lesson',
      slug: 'high-order-pcp',
      step: 2,
      mode: 'present',
    });
    expect(parseLessonRoute('#/lessons/high-order-pcp/x/notes')).toEqual({
      kind: 'lesson',
      slug: 'high-order-pcp',
      step: 0,
      mode: 'notes',
    });
  });

  it('round-trips', () => {
    for (const mode of ['read', 'present', 'notes'] as const) {
      expect(parseLessonRoute(lessonHash('per-cpu-lists', 4, mode))).toEqual({
        kind: 'lesson',
        slug: 'per-cpu-lists',
        step: 4,
        mode,
      });
    }
  });
});
