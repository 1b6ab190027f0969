/*
 * keys.ts: key chords as strings ("Shift+ArrowRight", "Space", "?"), read from keyboard events
 * and printed for people. One spelling on both sides, so a binding written in an action is the
 * same string the help page shows and the handler matches.
 */

/** The chord a keydown event makes, e.g. "Shift+ArrowLeft". Printable keys keep their character. */
export function chordOf(
  e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey'>,
): string {
  const key = e.key === ' ' ? 'Space' : e.key;
  const parts: string[] = [];
  if (e.ctrlKey) parts.push('Ctrl');
  if (e.altKey) parts.push('Alt');
  if (e.metaKey) parts.push('Meta');
  // A printable character already says whether Shift was held ("?" is Shift+/, "T" is Shift+t):
  // only named keys carry Shift in the chord.
  if (e.shiftKey && key.length > 1) parts.push('Shift');
  parts.push(key);
  return parts.join('+');
}

const NAMES: Record<string, string> = {
  ArrowLeft: '←',
  ArrowRight: '→',
  ArrowUp: '↑',
  ArrowDown: '↓',
  Space: 'Space',
  Home: 'Home',
  End: 'End',
  Escape: 'Esc',
};

/** A chord for the help page and tooltips: "Shift+→". */
export function formatChord(chord: string): string {
  return chord
    .split('+')
    .map(
      (k) =>
        NAMES[k] ??
        (k.length === 1 && k !== k.toLowerCase()
          ? `Shift+${k}`
          : k.length === 1
            ? k.toUpperCase()
            : k),
    )
    .join('+');
}

/** Whether a keydown belongs to a text field (then single keys must type, not trigger actions). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return type !== 'checkbox' && type !== 'radio' && type !== 'button' && type !== 'range';
  }
  return false;
}
