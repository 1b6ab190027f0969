// schema.test.ts: every real lesson passes the schema; a malformed fixture fails with file:line:field messages.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lessonFilesOnDisk } from './files-on-disk';
import { validateLesson } from './schema';
import { formatIssue } from './types';

describe('lesson schema', () => {
  for (const file of lessonFilesOnDisk()) {
    it(`${file} is well-formed`, () => {
      const r = validateLesson(file, readFileSync(file, 'utf8'));
      expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual([]);
    });
  }

  it('names the file, line and field of a malformed lesson', () => {
    const file = 'lessons/99-malformed/lesson.md';
    const r = validateLesson(
      file,
      readFileSync('web/lessons/fixtures/99-malformed/lesson.md', 'utf8'),
    );
    expect(r.ok).toBe(false);
    const messages = r.ok ? [] : r.issues.map(formatIssue);
    expect(messages).toContain(
      'lessons/99-malformed/lesson.md:20: question block: missing field `answer`',
    );
    expect(
      messages.some(
        (m) =>
          m.startsWith('lessons/99-malformed/lesson.md:33: step block: field `ops`:') &&
          m.includes('GFP_KERNAL'),
      ),
    ).toBe(true);
  });

  it('makes a question hide the value it asks for, and only values a view can hide', () => {
    const lesson = (q: string) =>
      [
        '---',
        'title: T',
        'summary: S',
        'minutes: 1',
        'machine: tiny',
        'profile: 6.18',
        'see_on_your_machine: x',
        '---',
        '## One',
        '```sim',
        'views: pcp',
        'workload:',
        '  cpu 0 alloc a',
        '```',
        '```question',
        'kind: number',
        'prompt: p',
        'answer: 42',
        'check: pcp.cpu0.Normal.high',
        q,
        'explain: e',
        'wrong.7: w',
        '```',
        '## See it on your machine',
        'x',
      ].join('\n');
    const issues = (q: string) => {
      const r = validateLesson('lessons/01-t/lesson.md', lesson(q));
      return r.ok ? [] : r.issues.map((i) => i.message);
    };
    expect(issues('')).toContainEqual(
      expect.stringContaining('the views can show `pcp.cpu0.Normal.high`'),
    );
    expect(issues('hides: pcp.cpu0.Normal.nope')).toContainEqual(
      expect.stringContaining('`pcp.cpu0.Normal.nope` is not a value the views can hide'),
    );
    expect(issues('hides: pcp.*.Normal.high').filter((m) => /hide/.test(m))).toEqual([]);
  });
});
