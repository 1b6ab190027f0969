// The lessons the site bundles, read from lessons/ the way the build does: folder order, slug, the
// title of every `## ` step. The accessibility scan and the lesson walk visit them all, so a new
// lesson is tested without editing the tests.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A question block as the e2e checks need it: where it stands and what it hides. */
export interface QuestionOnDisk {
  step: number; // 0-based section
  number: number; // 1-based among its section's questions (the page's data-question)
  check: string;
  hides: string[];
  reveal: string;
}

export interface LessonOnDisk {
  slug: string;
  title: string;
  steps: string[];
  questions: QuestionOnDisk[];
}

/** The question blocks of a lesson's text, with the section each stands in. */
function questionsOf(text: string): QuestionOnDisk[] {
  const out: QuestionOnDisk[] = [];
  let step = -1;
  let inSection = 0;
  let fence: string | null = null;
  let body: string[] = [];
  for (const line of text.split('\n')) {
    if (fence === null) {
      if (/^## +/.test(line)) {
        step++;
        inSection = 0;
      }
      const open = /^(```|~~~)\s*(\w*)/.exec(line);
      if (open) {
        fence = open[2] === 'question' ? 'question' : 'other';
        body = [];
      }
      continue;
    }
    if (/^(```|~~~)\s*$/.test(line)) {
      if (fence === 'question') {
        const field = (k: string) =>
          (body.find((l) => l.startsWith(`${k}:`)) ?? '').slice(k.length + 1).trim();
        out.push({
          step,
          number: ++inSection,
          check: field('check'),
          hides: field('hides')
            .split(',')
            .map((h) => h.trim())
            .filter((h) => h !== ''),
          reveal: field('reveal') || 'now',
        });
      }
      fence = null;
      continue;
    }
    body.push(line);
  }
  return out;
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
        questions: questionsOf(text),
      };
    });
}
