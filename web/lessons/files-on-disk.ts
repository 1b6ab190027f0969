/*
 * files-on-disk.ts: the lesson files under lessons/, found with Node's fs (for the build-time
 * check and the tests; the browser gets them from loader.ts through Vite).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Repository-relative paths of lessons/NN-slug/lesson.md, in folder order. */
export function lessonFilesOnDisk(root = '.'): string[] {
  const dir = join(root, 'lessons');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => `lessons/${name}/lesson.md`)
    .filter((rel) => existsSync(join(root, rel)));
}
