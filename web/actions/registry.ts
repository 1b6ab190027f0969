/*
 * registry.ts: the commands that can run now, each registered by the component that runs it
 * (its id, label and keys come from definitions.ts). Buttons, keyboard shortcuts and lesson steps
 * all dispatch through here, so a command behaves the same whichever way it was asked for, and a
 * lesson can say "press →" and check that the reader did.
 */
import type { ActionGroup } from './definitions';
import { chordOf, isTypingTarget } from './keys';

export type { ActionGroup };

export interface Action<A = void> {
  id: string;
  label: string;
  group: ActionGroup;
  /** Key chords (see keys.ts), e.g. ["Space"], ["Shift+ArrowRight"]. */
  keys?: readonly string[];
  /** A clicker's key: handled before the focused element sees it (definitions.ts). */
  clicker?: boolean;
  /** Whether it may run now (a disabled button, an ignored key). */
  enabled?: () => boolean;
  run: (arg: A) => void;
}

// Actions are stored without their argument type; dispatch passes the caller's argument through.
type AnyAction = Action<never>;

export interface DispatchRecord {
  id: string;
  source: 'button' | 'key' | 'lesson' | 'code';
}

type Listener = () => void;

/** Elements that give Space a meaning of their own. */
const CONTROLS =
  'button, a[href], input, select, textarea, summary, [role="button"], [role="tab"], [role="checkbox"]';

export class ActionRegistry {
  private readonly actions = new Map<string, AnyAction>();
  private readonly listeners = new Set<Listener>();
  private readonly dispatchListeners = new Set<(r: DispatchRecord) => void>();
  private revision = 0;

  /** Register an action; returns its unregistration. A second registration of an id replaces it. */
  register<A>(action: Action<A>): () => void {
    this.actions.set(action.id, action as unknown as AnyAction);
    this.changed();
    return () => {
      if (this.actions.get(action.id) === (action as unknown as AnyAction)) {
        this.actions.delete(action.id);
        this.changed();
      }
    };
  }

  get(id: string): AnyAction | undefined {
    return this.actions.get(id);
  }

  list(): AnyAction[] {
    return [...this.actions.values()];
  }

  isEnabled(id: string): boolean {
    const a = this.actions.get(id);
    return !!a && (a.enabled ? a.enabled() : true);
  }

  /** Run an action; false when it is unknown or disabled. */
  dispatch<A>(id: string, arg?: A, source: DispatchRecord['source'] = 'code'): boolean {
    const a = this.actions.get(id) as Action<A | undefined> | undefined;
    if (!a || (a.enabled && !a.enabled())) return false;
    a.run(arg);
    for (const fn of this.dispatchListeners) fn({ id, source });
    return true;
  }

  /** The action bound to a chord, if any. */
  forChord(chord: string): AnyAction | undefined {
    for (const a of this.actions.values()) if (a.keys?.includes(chord)) return a;
    return undefined;
  }

  /**
   * Handle a keydown before any element does (a capture listener on the window): a clicker's key
   * runs its action even when focus sits on a button (Space would press it again) or on a view
   * with keys of its own (the memory map pans on PageDown). Text fields keep every key; a radio,
   * checkbox or slider keeps Space and the arrows, and gives up PageDown and PageUp.
   */
  handleClickerKey(e: KeyboardEvent): boolean {
    if (e.defaultPrevented || isTypingTarget(e.target)) return false;
    const chord = chordOf(e);
    if (e.target instanceof HTMLInputElement && (chord === 'Space' || chord.includes('Arrow')))
      return false;
    const a = this.forChord(chord);
    if (!a?.clicker) return false;
    e.preventDefault();
    e.stopPropagation();
    this.dispatch(a.id, undefined, 'key');
    return true;
  }

  /** Handle a keydown: dispatch its action and return true when one matched. */
  handleKey(e: KeyboardEvent): boolean {
    if (e.defaultPrevented || isTypingTarget(e.target)) return false;
    const chord = chordOf(e);
    const a = this.forChord(chord);
    // Space on a focused control presses or toggles that control; arrows in a slider move it.
    if (!a) return false;
    if (chord === 'Space' && e.target instanceof Element && e.target.closest(CONTROLS))
      return false;
    if (
      e.target instanceof HTMLInputElement &&
      e.target.type === 'range' &&
      chord.includes('Arrow')
    )
      return false;
    e.preventDefault();
    this.dispatch(a.id, undefined, 'key');
    return true;
  }

  /** Told about every registration change (the help page re-renders). */
  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Told about every dispatch (lessons check what the reader did; tests record it). */
  onDispatch(fn: (r: DispatchRecord) => void): () => void {
    this.dispatchListeners.add(fn);
    return () => this.dispatchListeners.delete(fn);
  }

  get version(): number {
    return this.revision;
  }

  private changed(): void {
    this.revision++;
    for (const fn of this.listeners) fn();
  }
}
