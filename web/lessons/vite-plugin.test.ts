// vite-plugin.test.ts: the build-time check reports a malformed lesson with file, line and field.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLessonsOnDisk } from './vite-plugin';

describe('build-time lesson check', () => {
  it('passes on the repository lessons', () => {
    expect(checkLessonsOnDisk('.')).toEqual([]);
  });

  it('fails on a malformed lesson', () => {
    const root = mkdtempSync(join(tmpdir(), 'lessons-'));
    try {
      cpSync('web/lessons/fixtures/99-malformed', join(root, 'lessons/99-malformed'), {
        recursive: true,
      });
      expect(checkLessonsOnDisk(root)).toContain(
        'lessons/99-malformed/lesson.md:20: question block: missing field `answer`',
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
