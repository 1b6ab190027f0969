/*
 * vite-plugin.ts: the build-time lesson check. `vite build` (and so `npm run build` and the build
 * step of `npm test`) stops with one line per problem, e.g.
 *   lessons/05-high-order-pcp/lesson.md:42: question block: missing field `answer`
 * The dev server only warns, so a half-written lesson does not take the site down.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { lessonFilesOnDisk } from './files-on-disk';
import { validateLesson } from './schema';
import { formatIssue } from './types';

/** Every problem of every lesson under root/lessons, formatted. */
export function checkLessonsOnDisk(root: string): string[] {
  const out: string[] = [];
  for (const file of lessonFilesOnDisk(root)) {
    const r = validateLesson(file, readFileSync(join(root, file), 'utf8'));
    if (!r.ok) out.push(...r.issues.map(formatIssue));
  }
  return out;
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
  };
}
