/*
 * options.ts: what every view receives besides the state and the current event.
 */
import type { ModelState, SimEvent } from './model';
import type { Theme } from './palette';

export interface ViewOptions {
  theme: Theme;
  reducedMotion: boolean; // prefers-reduced-motion: update instantly, animate nothing
  /**
   * Where the view is drawn: in a lesson (the map follows the event on big machines), presenting
   * one (larger, for a projector); absent in the playground and embeds.
   */
  setting?: ViewSetting;
}

/**
 * A lesson read on screen, or presented at 1920x1080; 'presenting-aside' is presenting a step
 * that points at another view, which the large map would push below the fold.
 */
export type ViewSetting = 'lesson' | 'presenting' | 'presenting-aside';

export interface ViewProps<O = object> {
  state: ModelState;
  event: SimEvent | null; // the current event (highlighted by every view)
  opEvents: readonly SimEvent[]; // every event of the op at the cursor
  options: ViewOptions & O;
}

/** The data attributes that tell tests (and curious readers) which event a view highlights. */
export function eventAttrs(event: SimEvent | null): {
  'data-event-seq': number;
  'data-event-kind': number;
} {
  return { 'data-event-seq': event ? event.seq : -1, 'data-event-kind': event ? event.kind : 0 };
}
