/*
 * useLessonCursor.ts: where the reader is in a lesson (beats.ts's cursor), kept in step with the
 * address: the URL names the step, so a link or the back button moves the cursor, and moving to
 * another step writes the URL. `visit` counts entries into a step, so what belongs to one visit
 * (a goal's sandbox) is dropped when the reader leaves it.
 */
import { useCallback, useState } from 'react';
import { enter, type Cursor } from './beats';
import type { LessonPlan } from './plan';
import { lessonHash, type LessonMode } from './route';

interface Held {
  cursor: Cursor;
  urlStep: number; // the step in the address when the cursor was last set from it
  visit: number;
}

export function useLessonCursor(
  plan: LessonPlan,
  step: number,
  mode: LessonMode,
): { cursor: Cursor; visit: number; move: (c: Cursor | null) => void } {
  const slug = plan.lesson.slug;
  const [held, setHeld] = useState<Held>(() => ({
    cursor: enter(plan, step),
    urlStep: step,
    visit: 0,
  }));
  // The URL is the source of truth for the step: follow it when it changes (links, back button).
  // This adjusts this hook's own state while rendering (React's way to follow a prop), so the new
  // step is drawn at once; it touches nothing outside the component.
  let now = held;
  if (step !== held.urlStep) {
    const clamped = Math.max(0, Math.min(plan.sections.length - 1, step));
    now =
      clamped !== held.cursor.section
        ? { cursor: enter(plan, step), urlStep: step, visit: held.visit + 1 }
        : { ...held, urlStep: step };
    setHeld(now);
  }
  const section = now.cursor.section;

  const move = useCallback(
    (c: Cursor | null) => {
      if (!c) return;
      setHeld((h) => ({
        ...h,
        cursor: c,
        visit: c.section !== h.cursor.section ? h.visit + 1 : h.visit,
      }));
      if (c.section !== section) window.location.hash = lessonHash(slug, c.section, mode);
    },
    [section, slug, mode],
  );

  return { cursor: now.cursor, visit: now.visit, move };
}
