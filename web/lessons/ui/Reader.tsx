/*
 * Reader.tsx: what reading mode adds to a lesson page: PageDown/PageUp between steps and P to
 * present, the breadcrumb back to the lessons, the Present link, and the timeline to step
 * through what a block did (its arrow and Space keys exist only while it is shown).
 */
import { useAction } from '../../actions/context';
import { A } from '../../actions/definitions';
import type { Session } from '../../app/session';
import { Transport } from '../../app/Transport';
import { useTimelineActions } from '../../app/useTimelineActions';
import { lessonHash, TOC_HASH } from './route';

export function ReaderKeys({
  onNext,
  onPrev,
  onPresent,
}: {
  onNext: () => void;
  onPrev: () => void;
  onPresent: () => void;
}) {
  useAction(A.lessonNext, { run: onNext });
  useAction(A.lessonPrev, { run: onPrev });
  useAction(A.lessonPresent, { run: onPresent });
  return null;
}

export function ReaderCrumbs({ number }: { number: number }) {
  return (
    <nav aria-label="Breadcrumb" className="crumbs small">
      <a href={TOC_HASH}>Lessons</a> <span aria-hidden="true">/</span> Lesson {number}
    </nav>
  );
}

export function PresentLink({ slug, section }: { slug: string; section: number }) {
  return (
    <a
      className="button-like"
      href={lessonHash(slug, section, 'present')}
      title="Present (Shift+P)"
    >
      Present
    </a>
  );
}

/**
 * The timeline for reading mode, when there is something to step through (a step that only
 * boots a machine or points has no ops: no player at "Op 0 of 0"). It registers the arrow and
 * Space keys only while it is shown.
 */
export function LessonTimeline({ session }: { session: Session }) {
  return session.player.length > 0 ? <Timeline session={session} /> : null;
}

function Timeline({ session }: { session: Session }) {
  useTimelineActions(session);
  return <Transport session={session} />;
}
