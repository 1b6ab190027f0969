/*
 * progress.ts: what a learner has done, kept in localStorage so a reload (or tomorrow's class)
 * finds it: per lesson, the step they were on, the questions answered (right first time, right
 * after tries, or revealed) and the goals reached. Ids are "section.block" (plan.ts blockId).
 * Storage can be missing or full (private windows): progress then lasts for the page only.
 */
export type Answered = 'right' | 'retried' | 'revealed';

export interface LessonProgress {
  step: number; // 0-based section the learner was last on
  questions: Record<string, Answered>;
  goals: Record<string, true>;
}

export type ProgressData = Record<string, LessonProgress>; // by lesson slug

export const PROGRESS_KEY = 'buddyscope.lessons.v1';

export interface ProgressStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Read saved progress; anything malformed is dropped rather than trusted. */
export function readProgress(storage: ProgressStorage | null): ProgressData {
  let raw: unknown;
  try {
    raw = JSON.parse(storage?.getItem(PROGRESS_KEY) ?? '{}');
  } catch {
    return {};
  }
  if (!isRecord(raw)) return {};
  const out: ProgressData = {};
  for (const [slug, v] of Object.entries(raw)) {
    if (!isRecord(v)) continue;
    const questions: Record<string, Answered> = {};
    if (isRecord(v['questions'])) {
      for (const [id, a] of Object.entries(v['questions']))
        if (a === 'right' || a === 'retried' || a === 'revealed') questions[id] = a;
    }
    const goals: Record<string, true> = {};
    if (isRecord(v['goals']))
      for (const [id, g] of Object.entries(v['goals'])) if (g === true) goals[id] = true;
    const step =
      typeof v['step'] === 'number' && Number.isInteger(v['step']) && v['step'] >= 0
        ? v['step']
        : 0;
    out[slug] = { step, questions, goals };
  }
  return out;
}

export function writeProgress(storage: ProgressStorage | null, data: ProgressData): void {
  try {
    storage?.setItem(PROGRESS_KEY, JSON.stringify(data));
  } catch {
    /* full or forbidden: keep it in memory */
  }
}

export function lessonProgress(data: ProgressData, slug: string): LessonProgress {
  return data[slug] ?? { step: 0, questions: {}, goals: {} };
}

/** A copy of data with one lesson changed. */
export function updateLesson(
  data: ProgressData,
  slug: string,
  change: (p: LessonProgress) => LessonProgress,
): ProgressData {
  return { ...data, [slug]: change(lessonProgress(data, slug)) };
}

/** Record an answer; a better outcome never gets overwritten by a later reveal. */
export function recordAnswer(p: LessonProgress, id: string, a: Answered): LessonProgress {
  const rank: Record<Answered, number> = { revealed: 0, retried: 1, right: 2 };
  const old = p.questions[id];
  if (old !== undefined && rank[old] >= rank[a]) return p;
  return { ...p, questions: { ...p.questions, [id]: a } };
}
