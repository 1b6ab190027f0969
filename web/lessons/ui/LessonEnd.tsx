/*
 * LessonEnd.tsx: the close of a lesson's last step: what the lesson showed (its summary and the
 * steps taken) and the way on, to the next lesson or back to the list after the last one.
 */
import { useId } from 'react';
import { Markdown } from '../../markdown/Md';
import type { Lesson } from '../types';
import { lessonHash, TOC_HASH, type LessonMode } from './route';

export interface NextLesson {
  slug: string;
  number: number;
  title: string;
}

export function LessonEnd({
  lesson,
  next,
  mode,
}: {
  lesson: Lesson;
  next: NextLesson | null;
  mode: LessonMode;
}) {
  const id = useId();
  return (
    <section className="card lesson-end" aria-labelledby={id} data-testid="lesson-end">
      <h3 id={id}>End of lesson {lesson.number}: what it showed</h3>
      <Markdown source={lesson.meta.summary} />
      <p className="small muted">Steps: {lesson.steps.map((s) => s.title).join(' · ')}</p>
      <p className="lesson-next">
        {next ? (
          <a className="button-like primary" href={lessonHash(next.slug, 0, mode)}>
            Next: lesson {next.number}, {next.title} →
          </a>
        ) : (
          <>
            That was the last lesson. <a href={TOC_HASH}>Back to all lessons</a>
          </>
        )}
      </p>
    </section>
  );
}
