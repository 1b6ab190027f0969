/*
 * Presenter.tsx: what presenter mode adds to a lesson page: the clicker's keys (next, previous,
 * reveal, blank), Escape to leave and S for the speaker notes window, the buttons for both, and
 * the blank screen. The page keeps the notes window in step through usePresenterLink.
 */
import { useAction } from '../../actions/context';
import { A } from '../../actions/definitions';
import { lessonHash } from './route';
import { usePresenterKeys, type ClickerHandlers } from './usePresenterKeys';

/** Open (or bring back) the speaker notes window at a step. */
export function openNotes(slug: string, section: number): void {
  window.open(lessonHash(slug, section, 'notes'), 'buddyscope-notes', 'popup,width=960,height=720');
}

export function PresenterKeys({
  clicker,
  onExit,
  onNotes,
}: {
  clicker: ClickerHandlers;
  onExit: () => void;
  onNotes: () => void;
}) {
  usePresenterKeys(clicker);
  useAction(A.presenterLeave, { run: onExit });
  useAction(A.presenterNotes, { run: onNotes });
  return null;
}

export function PresenterTools({ slug, section }: { slug: string; section: number }) {
  return (
    <>
      <button type="button" onClick={() => openNotes(slug, section)}>
        Speaker notes
      </button>
      <a className="button-like" href={lessonHash(slug, section)}>
        Leave presenter mode
      </a>
    </>
  );
}

export function BlankScreen() {
  return (
    <div className="blank-screen" role="status" aria-label="Screen blanked">
      <span className="visually-hidden">Screen blanked: press B or . to return.</span>
    </div>
  );
}
