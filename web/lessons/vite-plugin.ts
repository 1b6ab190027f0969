/*
 * vite-plugin.ts: the build-time lesson check. `vite build` (and so `npm run build` and the build
 * step of `npm test`) stops with one line per problem, e.g.
 *   lessons/05-high-order-pcp/lesson.md:42: question block: missing field `answer`
 * The dev server only warns, so a half-written lesson does not take the site down.
 *
 * It also compiles each lesson for the site: `lesson.md?lesson` is the validated lesson (or its
 * issues) with the tree of every Markdown piece in it, parsed here (web/markdown/parse.ts), so the
 * browser neither validates nor parses Markdown.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Plugin } from 'vite';
import { parseAll } from '../markdown/parse';
import type { MdTrees } from '../markdown/tree';
import { lessonFilesOnDisk } from './files-on-disk';
import { lessonMarkdown } from './markdown-sources';
import { validateLesson } from './schema';
import { formatIssue, type Lesson, type LessonIssue } from './types';

/** Every problem of every lesson under root/lessons, formatted. */
export function checkLessonsOnDisk(root: string): string[] {
  const out: string[] = [];
  for (const file of lessonFilesOnDisk(root)) {
    const r = validateLesson(file, readFileSync(join(root, file), 'utf8'));
    if (!r.ok) out.push(...r.issues.map(formatIssue));
  }
  return out;
}

/** What `lesson.md?lesson` exports: the lesson or its issues, and its Markdown as trees. */
export interface CompiledLesson {
  lesson: Lesson | null;
  issues: LessonIssue[];
  md: MdTrees;
}

/** One lesson file (repository-relative name, text) compiled for the site. */
export function compileLesson(file: string, text: string): CompiledLesson {
  const r = validateLesson(file, text);
  if (!r.ok) return { lesson: null, issues: r.issues, md: {} };
  return { lesson: r.lesson, issues: [], md: parseAll(lessonMarkdown(r.lesson)) };
}

export function lessonSchemaPlugin(root: string): Plugin {
  let building = false;
  return {
    name: 'buddyscope-lesson-schema',
    configResolved(config) {
      building = config.command === 'build';
    },
    buildStart() {
      const problems = checkLessonsOnDisk(root);
      for (const file of lessonFilesOnDisk(root)) this.addWatchFile(join(root, file));
      if (problems.length === 0) return;
      const text = `${problems.length} lesson problem(s):\n${problems.join('\n')}`;
      if (building) this.error(text);
      else this.warn(text);
    },
    load(id) {
      const [file, query] = id.split('?', 2);
      if (query !== 'lesson' || !file) return null;
      this.addWatchFile(file);
      const rel = relative(root, file).split('\\').join('/');
      const compiled = compileLesson(rel, readFileSync(file, 'utf8'));
      return { code: `export default ${JSON.stringify(compiled)};`, map: null };
    },
  };
}
