/*
 * usePresenterKeys.ts: the clicker's keys, registered as lesson actions. Remote clickers send
 * PageDown/PageUp (some send arrows, some a "." or "b" for a black screen), like presentation
 * software expects; Space and the arrows work too. `r` reveals (not Enter: Enter belongs to the
 * focused button after a click). Both the presentation and the notes window register these, with
 * their own handlers.
 */
import { useAction } from '../../actions/context';
import { A } from '../../actions/definitions';

export interface ClickerHandlers {
  next: () => void;
  previous: () => void;
  reveal: () => void;
  blank: () => void;
}

export function usePresenterKeys(h: ClickerHandlers): void {
  useAction(A.presenterNext, { run: h.next });
  useAction(A.presenterPrev, { run: h.previous });
  useAction(A.presenterReveal, { run: h.reveal });
  useAction(A.presenterBlank, { run: h.blank });
}
