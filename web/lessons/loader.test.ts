// loader.test.ts: the lessons the site bundles (import.meta.glob ?raw) are all there and valid.
import { describe, expect, it } from 'vitest';
import { lessonFilesOnDisk } from './files-on-disk';
import { findLesson, loadLessons } from './loader';

describe('lesson loader', () => {
  it('bundles every lesson folder, in order, without issues', () => {
    const { lessons, issues } = loadLessons();
    expect(issues).toEqual([]);
    expect(lessons.map((l) => l.file)).toEqual(lessonFilesOnDisk());
    expect(lessons.map((l) => l.number)).toEqual(
      [...lessons.map((l) => l.number)].sort((a, b) => a - b),
    );
    expect(findLesson(lessons, 'buddy-allocator')?.meta.machine).toBe('tiny');
    for (const l of lessons) expect(l.steps.at(-1)?.title).toBe('See it on your machine');
  });
});
