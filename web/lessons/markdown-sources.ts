/*
 * markdown-sources.ts: every piece of a lesson that is Markdown (prose, notes, captions, question
 * prompts, options, explanations, goals and hints), so the build can parse each one once
 * (vite-plugin.ts) and the site render the trees (web/markdown/Md.tsx).
 */
import type { Lesson } from './types';

export function lessonMarkdown(lesson: Lesson): string[] {
  const out: string[] = [lesson.meta.summary, lesson.intro];
  for (const step of lesson.steps)
    for (const b of step.blocks) {
      switch (b.kind) {
        case 'prose':
        case 'notes':
          out.push(b.markdown);
          break;
        case 'sim':
        case 'step':
          if (b.caption) out.push(b.caption);
          break;
        case 'question':
          out.push(b.prompt, b.explain, ...Object.values(b.wrong));
          if (b.type === 'choice') out.push(...b.options.map((o) => o.text));
          break;
        case 'goal':
          out.push(b.goal, b.hint);
          break;
      }
    }
  return out.filter((s) => s.trim() !== '');
}
