/*
 * loader.ts: the lessons as the site gets them. Vite compiles every lessons/NN-slug/lesson.md at
 * build time (import.meta.glob with ?lesson, see vite-plugin.ts): validated by the schema, with
 * its Markdown parsed into trees, which this registers for the renderer (web/markdown/store.ts).
 * The static site needs no fetch, and ships neither the schema nor a Markdown parser.
 */
import { registerTrees } from '../markdown/store';
import type { CompiledLesson } from './vite-plugin';
import type { Lesson, LessonIssue } from './types';

const compiled = import.meta.glob<CompiledLesson>('../../lessons/*/lesson.md', {
  query: '?lesson',
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
  for (const key of Object.keys(compiled).sort()) {
    const c = compiled[key];
    if (!c) continue;
    registerTrees(c.md);
    if (c.lesson) lessons.push(c.lesson);
    issues.push(...c.issues);
  }
  return { lessons, issues };
}

/** One lesson by its slug (the folder name without the number). */
export function findLesson(all: readonly Lesson[], slug: string): Lesson | undefined {
  return all.find((l) => l.slug === slug);
}
