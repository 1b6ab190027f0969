/*
 * usePresenterKeys.ts: the clicker's keys, registered as lesson actions. Remote clickers send
 * PageDown/PageUp (some send arrows, some a "." or "b" for a black screen), like presentation
 * software expects; Space and the arrows work too. `r` reveals (not Enter: Enter belongs to the
 * focused button after a click). Both the presentation and the notes window register these, with
 * their own handlers.
 */
import { useAction } from '../../actions/context';
import { A } from '../../actions/ids';

export interface ClickerHandlers {
  next: () => void;
  previous: () => void;
  reveal: () => void;
  blank: () => void;
}

export function usePresenterKeys(h: ClickerHandlers): void {
  useAction({
    id: A.lessonNext,
    label: 'Next (reveal, run, or next step)',
    group: 'lesson',
    keys: ['PageDown', 'ArrowRight', 'Space'],
    run: h.next,
  });
  useAction({
    id: A.lessonPrev,
    label: 'Previous',
    group: 'lesson',
    keys: ['PageUp', 'ArrowLeft'],
    run: h.previous,
  });
  useAction({
    id: A.lessonReveal,
    label: 'Reveal the answer',
    group: 'lesson',
    keys: ['r'],
    run: h.reveal,
  });
  useAction({
    id: A.lessonBlank,
    label: 'Blank the screen',
    group: 'lesson',
    keys: ['b', '.'],
    run: h.blank,
  });
}
