// Every event kind of every events.def has a sentence and a marker class, and no sentence is for
// a kind that does not exist: adding a kind to a .def file without narrating it fails here (and
// in tsc), as does a narration left behind when a kind is renamed.
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS, KIND_NAMES } from '../core/generated/events';
import { loadCore } from '../core/module';
import { MARKER_KINDS, markerOf } from '../player/markers';
import { NARRATIONS } from './narrate';

describe('every event kind', async () => {
  const core = await loadCore();
  // every kind the wasm names (struct sim_event.kind is a byte; subsystems own id ranges with
  // holes between them): the C's view of the same .def rows
  const coreKinds: string[] = [];
  for (let k = 0; k < 256; k++)
    if (core.eventKindName(k) !== 'unknown') coreKinds.push(core.eventKindName(k));

  it('is the same list in the core and in the generated TypeScript', () => {
    expect(coreKinds).toEqual(KIND_NAMES.filter((n) => n !== undefined));
  });

  it('has a narration', () => {
    const missing = coreKinds.filter((name) => !Object.hasOwn(NARRATIONS, name));
    expect(missing).toEqual([]);
  });

  it('has a marker class, one the timeline draws, or none', () => {
    for (const k of EVENT_KINDS) {
      expect(Object.hasOwn(k, 'marker'), k.name).toBe(true);
      const m = markerOf(k.id);
      if (m !== null) expect(MARKER_KINDS, k.name).toContain(m);
    }
    // every marker class the timeline has is earned by some kind
    for (const m of MARKER_KINDS)
      expect(
        EVENT_KINDS.some((k) => k.marker === m),
        m,
      ).toBe(true);
  });

  it('is all that narration names', () => {
    const unknown = Object.keys(NARRATIONS).filter((name) => !coreKinds.includes(name));
    expect(unknown).toEqual([]);
  });
});
