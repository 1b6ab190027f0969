// Every page of the site, relative to the base URL. The accessibility test scans each one:
// add a page here when you add it to the app.
import { lessonsOnDisk } from './lessons-on-disk.ts';

const lessons = lessonsOnDisk();
const fifth = lessons[4];

export const PAGES: { name: string; path: string; ready: string }[] = [
  // `ready` is a heading (exact text) that shows once the page has loaded its content.
  { name: 'home', path: './', ready: 'Your simulated machine' },
  { name: 'playground', path: './#/playground', ready: 'Memory map' },
  { name: 'model notes', path: './#/model-notes', ready: 'Model notes: where Buddyscope simplifies the kernel' },
  { name: 'keyboard', path: './#/keys', ready: 'Keyboard' },
  { name: 'lessons', path: './#/lessons', ready: 'Lessons' },
  // Every lesson at its first step, and one in presenter mode and its notes window.
  ...lessons.map((l) => ({ name: `lesson ${l.slug}`, path: `./#/lessons/${l.slug}/1`, ready: l.steps[0] ?? '' })),
  ...(fifth
    ? [
        { name: `lesson ${fifth.slug} presenting`, path: `./#/lessons/${fifth.slug}/2/present`, ready: fifth.steps[1] ?? '' },
        { name: `lesson ${fifth.slug} notes`, path: `./#/lessons/${fifth.slug}/2/notes`, ready: `Step 2 of ${fifth.steps.length}: ${fifth.steps[1] ?? ''}` },
      ]
    : []),
];
