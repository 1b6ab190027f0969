// Every page of the site, relative to the base URL. The accessibility test scans each one:
// add a page here when you add it to the app.
import { readFileSync } from 'node:fs';
import { lessonsOnDisk } from './lessons-on-disk.ts';

const lessons = lessonsOnDisk();
const fifth = lessons[4];

const goldenLink =
  (
    JSON.parse(readFileSync('web/share/fixtures/golden-links.json', 'utf8')) as { link: string }[]
  )[0]?.link ?? '';

export const PAGES: { name: string; path: string; ready: string }[] = [
  // `ready` is a heading (exact text) that shows once the page has loaded its content.
  { name: 'home', path: './', ready: 'Your simulated machine' },
  { name: 'playground', path: './#/playground', ready: 'Memory map' },
  {
    name: 'model notes',
    path: './#/model-notes',
    ready: 'Model notes: where Buddyscope simplifies the kernel',
  },
  { name: 'keyboard', path: './#/keys', ready: 'Keyboard' },
  { name: 'your machine', path: './#/your-machine', ready: 'Your machine' },
  { name: 'reproductions', path: './#/reproductions', ready: 'Seed reproductions' },
  // The embed form of the first golden share link (web/share/fixtures), held at op 0 (start and
  // end 0) so the scan does not race the views' entry animations.
  {
    name: 'embed',
    path: `./#/embed?s=${goldenLink}&start=0&end=0`,
    ready: 'Buddyscope open in the playground',
  },
  { name: 'lessons', path: './#/lessons', ready: 'Lessons' },
  // Every lesson at its first step, and one in presenter mode and its notes window.
  ...lessons.map((l) => ({
    name: `lesson ${l.slug}`,
    path: `./#/lessons/${l.slug}/1`,
    ready: l.steps[0] ?? '',
  })),
  ...(fifth
    ? [
        {
          name: `lesson ${fifth.slug} presenting`,
          path: `./#/lessons/${fifth.slug}/2/present`,
          ready: fifth.steps[1] ?? '',
        },
        {
          name: `lesson ${fifth.slug} notes`,
          path: `./#/lessons/${fifth.slug}/2/notes`,
          ready: `Step 2 of ${fifth.steps.length}: ${fifth.steps[1] ?? ''}`,
        },
      ]
    : []),
];
