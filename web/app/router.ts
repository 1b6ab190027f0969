/*
 * router.ts: a hash router of a few lines. Routes live after "#", so the site works from any base
 * path (/, /buddyscope/, a file:// copy) with no server rewrites, and share links stay plain URLs.
 */
import { useSyncExternalStore } from 'react';

export const ROUTES = [
  'home',
  'lessons',
  'playground',
  'machine',
  'notes',
  'keys',
  'embed',
  'reproductions',
] as const;
export type Route = (typeof ROUTES)[number];

const PATHS: Record<Route, string> = {
  home: '#/',
  lessons: '#/lessons',
  playground: '#/playground',
  machine: '#/your-machine',
  notes: '#/model-notes',
  keys: '#/keys',
  embed: '#/embed', // views and player only, for iframes (web/app/Embed.tsx)
  reproductions: '#/reproductions', // seed reproductions (web/reproductions/)
};

export function routeHref(r: Route): string {
  return PATHS[r];
}

/** The route of a location hash ("#/playground?x=1" -> playground); unknown hashes go home. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').split('?')[0] ?? '';
  // Lessons own everything below #/lessons (a lesson, a step, presenter mode, notes).
  if (path === '/lessons' || path.startsWith('/lessons/')) return 'lessons';
  for (const r of ROUTES) if (PATHS[r].slice(1) === path) return r;
  return 'home';
}

function subscribe(fn: () => void): () => void {
  window.addEventListener('hashchange', fn);
  return () => window.removeEventListener('hashchange', fn);
}

export function useRoute(): Route {
  return useSyncExternalStore(subscribe, () => parseRoute(window.location.hash));
}

export function navigate(r: Route): void {
  window.location.hash = PATHS[r];
}
