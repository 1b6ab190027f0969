/*
 * LessonToc.tsx: every lesson, in order, with the learner's progress: the step they reached, the
 * questions answered and the goals reached, each linking back to where they left off.
 */
import type { Lesson } from '../types';
import { useProgress } from './useProgress';
import { lessonHash } from './route';

function counts(lesson: Lesson): { questions: number; goals: number } {
  let questions = 0;
  let goals = 0;
  for (const s of lesson.steps) {
    for (const b of s.blocks) {
      if (b.kind === 'question') questions++;
      if (b.kind === 'goal') goals++;
    }
  }
  return { questions, goals };
}

export function LessonToc({ lessons }: { lessons: Lesson[] }) {
  const progress = useProgress();
  return (
    <main id="main" className="lesson-toc">
      <h1>Lessons</h1>
      <p className="lede">
        Each lesson runs the model as you read: predict what the allocator will do, then watch it.
        Your answers stay in this browser.
      </p>
      <ol className="toc-list">
        {lessons.map((l) => {
          const p = progress[l.slug];
          const c = counts(l);
          const answered = p ? Object.keys(p.questions).length : 0;
          const reached = p ? Object.keys(p.goals).length : 0;
          const done =
            c.questions + c.goals === 0
              ? 0
              : (Math.min(answered, c.questions) + Math.min(reached, c.goals)) /
                (c.questions + c.goals);
          const started = !!p;
          return (
            <li key={l.slug} className="toc-item" data-slug={l.slug}>
              <h2>
                <a href={lessonHash(l.slug, p?.step ?? 0)}>
                  <span className="toc-num">{String(l.number).padStart(2, '0')}</span>{' '}
                  {l.meta.title}
                </a>
              </h2>
              <p>{l.meta.summary}</p>
              <p className="toc-progress small">
                <span>{l.meta.minutes} min</span>
                <span>
                  {answered} of {c.questions} questions answered
                </span>
                {c.goals > 0 && (
                  <span>{reached >= c.goals ? 'goal reached' : 'goal not reached yet'}</span>
                )}
                {started && (
                  <span>
                    at step {(p?.step ?? 0) + 1} of {l.steps.length}
                  </span>
                )}
                <progress
                  max={1}
                  value={done}
                  aria-label={`${l.meta.title}: ${Math.round(done * 100)}% done`}
                />
              </p>
            </li>
          );
        })}
      </ol>
    </main>
  );
}
