/*
 * test-api.ts: window.__buddyscopeLesson, so end-to-end tests read the lesson cursor and the
 * model behind the views rather than pixels. Present only where the app's test API is (dev
 * servers and VITE_TEST_API=1 builds); the check is static, so production drops it.
 */
import { TEST_API_ENABLED } from '../../app/test-api';
import type { ModelState } from '../../views/model';
import type { DisplaySessions } from './useDisplaySessions';

export interface LessonTestApi {
  slug: string;
  section: number;
  done: readonly number[];
  blank: boolean;
  /** Ops run on the first machine, and its state. */
  ops: number;
  state(): ModelState | null;
  /** Where the first machine's timeline stands (a replay walks it), and whether it plays. */
  position(): { op: number; event: number; playing: boolean } | null;
}

declare global {
  interface Window {
    __buddyscopeLesson?: LessonTestApi;
  }
}

export function exposeLessonTestApi(
  v: {
    slug: string;
    section: number;
    done: readonly number[];
    blank: boolean;
    sessions: DisplaySessions | null;
  } | null,
): void {
  if (!TEST_API_ENABLED) return;
  if (!v) {
    delete window.__buddyscopeLesson;
    return;
  }
  const s = v.sessions;
  window.__buddyscopeLesson = {
    slug: v.slug,
    section: v.section,
    done: v.done,
    blank: v.blank,
    ops: s ? s.a.player.length : 0,
    state: () => (s ? s.a.state() : null),
    position: () => (s ? { ...s.a.player.position, playing: s.a.clock.playing } : null),
  };
}
