/*
 * theme.ts: light and dark, following the system unless the reader picked one (remembered in
 * localStorage), and prefers-reduced-motion. The theme is a data attribute on <html>, so CSS does
 * the colours and canvas views read the resolved value as an option.
 */
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { Theme } from '../views/palette';

export type ThemeChoice = 'system' | Theme;
const KEY = 'buddyscope.theme';

function media(query: string) {
  return (fn: () => void) => {
    const m = window.matchMedia(query);
    m.addEventListener('change', fn);
    return () => m.removeEventListener('change', fn);
  };
}

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    media(query),
    () => window.matchMedia(query).matches,
    () => false,
  );
}

export function useReducedMotion(): boolean {
  return useMediaQuery('(prefers-reduced-motion: reduce)');
}

function readChoice(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** The theme in force, the reader's choice, and a way to cycle it (system -> light -> dark). */
export function useTheme(): { theme: Theme; choice: ThemeChoice; cycle: () => void } {
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)');
  const [choice, setChoice] = useState<ThemeChoice>(readChoice);
  const theme: Theme = choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.style.colorScheme = theme;
  }, [theme]);
  const cycle = useCallback(() => {
    setChoice((c) => {
      const next: ThemeChoice = c === 'system' ? 'light' : c === 'light' ? 'dark' : 'system';
      try {
        if (next === 'system') localStorage.removeItem(KEY);
        else localStorage.setItem(KEY, next);
      } catch {
        /* private mode: the choice lasts for this page only */
      }
      return next;
    });
  }, []);
  return { theme, choice, cycle };
}
