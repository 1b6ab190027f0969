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
});
