/*
 * usePresenterLink.ts: presenter mode's side of the BroadcastChannel to the speaker notes window.
 * While presenting, the page is marked (the stylesheet drops the chrome), every cursor change is
 * sent to the notes window, and the notes window's clicks run here as if pressed here.
 */
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { Cursor } from './beats';
import { openPresenterLink, type PresenterLink, type PresenterMessage } from './presenter-channel';
import type { ClickerHandlers } from './usePresenterKeys';

export function usePresenterLink(
  presenting: boolean,
  slug: string,
  cursor: Cursor,
  blank: boolean,
  handlers: ClickerHandlers,
): void {
  const linkRef = useRef<PresenterLink | null>(null);
  const stateMsg = useMemo<PresenterMessage>(
    () => ({ type: 'state', slug, section: cursor.section, done: cursor.done, blank }),
    [slug, cursor, blank],
  );
  const latestState = useRef(stateMsg);
  const handlersRef = useRef(handlers);
  // A layout effect: current before the next message, as in useAction (actions/context.ts).
  useLayoutEffect(() => {
    handlersRef.current = handlers;
  });
  useEffect(() => {
    if (!presenting) return;
    document.documentElement.dataset.presenting = 'true';
    const link = openPresenterLink((m) => {
      if (m.type !== 'command' || m.slug !== slug) return;
      if (m.command === 'hello') link.post(latestState.current);
      else handlersRef.current[m.command]();
    });
    linkRef.current = link;
    return () => {
      delete document.documentElement.dataset.presenting;
      link.close();
      linkRef.current = null;
    };
  }, [presenting, slug]);
  useEffect(() => {
    latestState.current = stateMsg;
    linkRef.current?.post(stateMsg);
  }, [stateMsg]);
}
