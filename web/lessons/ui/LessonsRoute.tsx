/*
 * LessonsRoute.tsx: everything under #/lessons, loaded on demand (the lesson texts, the player and
 * its styles are one chunk the home page never downloads): the table of contents, a lesson at a
 * step in reading or presenter mode, and the speaker's notes window.
 */
import { useEffect, useMemo } from 'react';
import type { Theme } from '../../views/palette';
import { loadLessons, findLesson } from '../loader';
import { formatIssue } from '../types';
import { LessonPage } from './LessonPage';
import { LessonToc } from './LessonToc';
import { NotesWindow } from './NotesWindow';
import { planLesson } from './plan';
import { TOC_HASH } from './route';
import { useLessonHash } from './useLessonHash';
import './lessons.css';

const loaded = loadLessons();

export default function LessonsRoute({ theme }: { theme: Theme }) {
  const route = useLessonHash();
  const lesson = route.kind === 'lesson' ? findLesson(loaded.lessons, route.slug) : undefined;
  const plan = useMemo(() => (lesson ? planLesson(lesson) : null), [lesson]);
  const title =
    route.kind === 'toc'
      ? 'Lessons'
      : lesson
        ? `${route.mode === 'notes' ? 'Notes: ' : ''}${lesson.meta.title}`
        : 'Lesson not found';
  useEffect(() => {
    // After the shell's own title effect, which runs after ours when both mount together.
    queueMicrotask(() => (document.title = `${title} · Buddyscope`));
  }, [title]);

  if (loaded.issues.length > 0) {
    return (
      <main id="main">
        <h1>Lessons</h1>
        <p role="alert" className="error">
          Some lessons could not be read: {loaded.issues.map(formatIssue).join('; ')}
        </p>
      </main>
    );
  }
  if (route.kind === 'toc') return <LessonToc lessons={loaded.lessons} />;
  if (!lesson || !plan) {
    return (
      <main id="main">
        <h1>Lesson not found</h1>
        <p>
          There is no lesson called “{route.slug}”. <a href={TOC_HASH}>See all lessons</a>.
        </p>
      </main>
    );
  }
  const step = Math.min(route.step, plan.sections.length - 1);
  const after = loaded.lessons[loaded.lessons.indexOf(lesson) + 1];
  const next = after ? { slug: after.slug, number: after.number, title: after.meta.title } : null;
  if (route.mode === 'notes') return <NotesWindow key={lesson.slug} plan={plan} step={step} />;
  return (
    <LessonPage
      key={lesson.slug}
      plan={plan}
      step={step}
      mode={route.mode}
      theme={theme}
      nextLesson={next}
    />
  );
}
