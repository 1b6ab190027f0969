/*
 * useLessonHash.ts: the lesson route of the current location hash, kept current on hashchange.
 */
import { useSyncExternalStore } from 'react';
import { parseLessonRoute, type LessonRoute } from './route';

function subscribe(fn: () => void): () => void {
  window.addEventListener('hashchange', fn);
  return () => window.removeEventListener('hashchange', fn);
}

export function useLessonHash(): LessonRoute {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  // Parsed from the string, so equal hashes give equal (memoisable) values.
  return parseLessonRoute(hash);
}
