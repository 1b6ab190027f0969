/*
 * LiveRegion.tsx: the one polite aria-live region of the app. It narrates the current event; a
 * screen reader hears each step as it happens, and fast playback does not flood it (only the text
 * in place when the reader's speech catches up is read).
 */
import { createContext, useContext, useState, type ReactNode } from 'react';

const Ctx = createContext<(text: string) => void>(() => {});

export function useAnnounce(): (text: string) => void {
  return useContext(Ctx);
}

export function LiveRegionProvider({ children }: { children: ReactNode }) {
  const [text, setText] = useState('');
  return (
    <Ctx.Provider value={setText}>
      {children}
      <div
        className="visually-hidden"
        aria-live="polite"
        aria-atomic="true"
        data-testid="narration"
      >
        {text}
      </div>
    </Ctx.Provider>
  );
}
