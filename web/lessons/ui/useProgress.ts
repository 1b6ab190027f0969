/*
 * useProgress.ts: saved lesson progress as a React store. The table of contents and the lesson
 * page read the same data, and a change made in another tab (the `storage` event) shows up too.
 */
import { useCallback, useSyncExternalStore } from 'react';
import {
  PROGRESS_KEY,
  readProgress,
  updateLesson,
  writeProgress,
  type LessonProgress,
  type ProgressData,
  type ProgressStorage,
} from './progress';

function storage(): ProgressStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: progress lasts for this page
  }
}

let current: ProgressData | null = null;
const listeners = new Set<() => void>();

function snapshot(): ProgressData {
  current ??= readProgress(storage());
  return current;
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  const onStorage = (e: StorageEvent) => {
    if (e.key !== PROGRESS_KEY) return;
    current = readProgress(storage());
    fn();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(fn);
    window.removeEventListener('storage', onStorage);
  };
}

/** Change one lesson's progress and save it. */
export function saveLessonProgress(
  slug: string,
  change: (p: LessonProgress) => LessonProgress,
): void {
  current = updateLesson(snapshot(), slug, change);
  writeProgress(storage(), current);
  for (const fn of listeners) fn();
}

export function useProgress(): ProgressData {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

export function useLessonProgress(
  slug: string,
): [LessonProgress, (change: (p: LessonProgress) => LessonProgress) => void] {
  const data = useProgress();
  const save = useCallback(
    (change: (p: LessonProgress) => LessonProgress) => saveLessonProgress(slug, change),
    [slug],
  );
  return [data[slug] ?? { step: 0, questions: {}, goals: {} }, save];
}
