// The lessons the site bundles, read from lessons/ the way the build does: folder order, slug, the
// title of every `## ` step. The accessibility scan and the lesson walk visit them all, so a new
// lesson is tested without editing the tests.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LessonOnDisk {
  slug: string;
  title: string;
  steps: string[];
}

export function lessonsOnDisk(root = '.'): LessonOnDisk[] {
  const dir = join(root, 'lessons');
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^\d{2}-/.test(d.name))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const text = readFileSync(join(dir, name, 'lesson.md'), 'utf8');
      // Headings inside fenced blocks do not count: drop the fences first.
      const outside = text.replace(/^(```|~~~)[\s\S]*?^\1\s*$/gm, '');
      return {
        slug: name.replace(/^\d{2}-/, ''),
        title: (/^title:\s*(.*)$/m.exec(text)?.[1] ?? '').trim(),
        steps: [...outside.matchAll(/^## +(.+?)\s*$/gm)].map((m) => m[1] ?? ''),
      };
    });
}
