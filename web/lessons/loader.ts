/*
 * loader.ts: the lessons as the site gets them. Vite inlines every lessons/NN-slug/lesson.md as
 * text at build time (import.meta.glob with ?raw), so the static site needs no fetch; the schema
 * validates each one here too (the build already refused malformed ones, see vite-plugin.ts).
 */
import { validateLesson } from './schema';
import type { Lesson, LessonIssue } from './types';

const sources = import.meta.glob<string>('../../lessons/*/lesson.md', {
  query: '?raw',
  import: 'default',
  eager: true,
});

export interface LoadedLessons {
  lessons: Lesson[]; // in folder order
  issues: LessonIssue[]; // empty in a good build
}

/** Every lesson, parsed and validated. */
export function loadLessons(): LoadedLessons {
  const lessons: Lesson[] = [];
  const issues: LessonIssue[] = [];
  for (const key of Object.keys(sources).sort()) {
    const file = key.replace(/^(\.\.\/)+/, '');
    const r = validateLesson(file, sources[key] ?? '');
    if (r.ok) lessons.push(r.lesson);
    else issues.push(...r.issues);
  }
  return { lessons, issues };
}

/** One lesson by its slug (the folder name without the number). */
export function findLesson(all: readonly Lesson[], slug: string): Lesson | undefined {
  return all.find((l) => l.slug === slug);
}
