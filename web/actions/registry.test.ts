// The action registry: one place that runs commands from buttons, keys and lessons.
import { describe, expect, it } from 'vitest';
import { chordOf, formatChord } from './keys';
import { ActionRegistry } from './registry';

function key(k: string, shift = false) {
  return { key: k, shiftKey: shift, ctrlKey: false, altKey: false, metaKey: false };
}

describe('chords', () => {
  it('spells keys one way for bindings, handlers and the help page', () => {
    expect(chordOf(key(' '))).toBe('Space');
    expect(chordOf(key('ArrowRight', true))).toBe('Shift+ArrowRight');
    expect(chordOf(key('?', true))).toBe('?');
    expect(chordOf(key('T', true))).toBe('T');
    expect(formatChord('Shift+ArrowLeft')).toBe('Shift+←');
    expect(formatChord('t')).toBe('T');
    expect(formatChord('T')).toBe('Shift+T');
  });
});

describe('ActionRegistry', () => {
  it('dispatches by id, honours enabled, reports dispatches', () => {
    const r = new ActionRegistry();
    let n = 0;
    let on = true;
    r.register({
      id: 'x',
      label: 'X',
      group: 'app',
      keys: ['x'],
      run: () => n++,
      enabled: () => on,
    });
    const seen: string[] = [];
    r.onDispatch((d) => seen.push(`${d.id}:${d.source}`));
    expect(r.dispatch('x', undefined, 'button')).toBe(true);
    on = false;
    expect(r.dispatch('x')).toBe(false);
    expect(r.dispatch('nope')).toBe(false);
    expect(n).toBe(1);
    expect(seen).toEqual(['x:button']);
    expect(r.forChord('x')?.id).toBe('x');
  });

  it('passes arguments and unregisters', () => {
    const r = new ActionRegistry();
    let got = 0;
    const off = r.register<number>({
      id: 'speed',
      label: 'Speed',
      group: 'timeline',
      run: (v) => (got = v),
    });
    r.dispatch('speed', 30);
    expect(got).toBe(30);
    off();
    expect(r.get('speed')).toBeUndefined();
  });
});
