// markers.test.ts: a kind's marker is looked up by its id, through the gaps between the
// subsystems' id ranges (reclaim from 40, percpu from 70, fault from 100, NUMA from 140).
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../core/generated/events';
import { markerOf } from './markers';

describe('markerOf', () => {
  it('gives every kind the marker of its own events.def row, looked up by id', () => {
    for (const k of EVENT_KINDS) expect(markerOf(k.id), k.name).toBe(k.marker);
  });

  it('marks a zonelist-cache skip as a fallback and an LRU insertion not at all', () => {
    const id = (name: string) => EVENT_KINDS.find((k) => k.name === name)?.id ?? -1;
    expect(markerOf(id('zlc_skip'))).toBe('fallback');
    expect(markerOf(id('mm_lru_insertion'))).toBeNull();
    expect(markerOf(id('mm_lru_activate'))).toBeNull();
  });
});
