/*
 * route.ts: the lesson routes under the app's hash router (web/app/router.ts sends every
 * `#/lessons…` hash here):
 *   #/lessons                          the table of contents
 *   #/lessons/<slug>/<step>            a lesson at a step (1-based, as people count)
 *   #/lessons/<slug>/<step>/present    presenter mode
 *   #/lessons/<slug>/<step>/notes      the speaker's notes window
 * Steps are numbered in the URL so a teacher can say "open step 3"; a missing or out-of-range step
 * is clamped by the page, not rejected, so old links keep working when a lesson grows.
 */
export type LessonMode = 'read' | 'present' | 'notes';

export type LessonRoute =
  { kind: 'toc' } | { kind: 'lesson'; slug: string; step: number; mode: LessonMode };

const MODES: readonly LessonMode[] = ['present', 'notes'];

/** Parse a location hash; anything that is not a lesson path is the table of contents. */
export function parseLessonRoute(hash: string): LessonRoute {
  const path = (hash.replace(/^#/, '').split('?')[0] ?? '').replace(/\/+$/, '');
  const parts = path.split('/').filter((p) => p !== '');
  if (parts[0] !== 'lessons' || !parts[1]) return { kind: 'toc' };
  const slug = decodeURIComponent(parts[1]);
  const n = Number(parts[2] ?? '1');
  const step = Number.isInteger(n) && n >= 1 ? n - 1 : 0;
  const m = parts[3] as LessonMode | undefined;
  return { kind: 'lesson', slug, step, mode: m && MODES.includes(m) ? m : 'read' };
}

/** The hash of a lesson route (step is 0-based here, 1-based in the URL). */
export function lessonHash(slug: string, step: number, mode: LessonMode = 'read'): string {
  const base = `#/lessons/${encodeURIComponent(slug)}/${step + 1}`;
  return mode === 'read' ? base : `${base}/${mode}`;
}

export const TOC_HASH = '#/lessons';
