// The saved-work store over a Map, a full storage and garbage left by someone else.
import { describe, expect, it } from 'vitest';
import { WorkloadStore, type KeyValue } from './store';

function memory(): KeyValue & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

describe('WorkloadStore', () => {
  it('keeps a draft and a list: add, rename, update, remove, newest first', () => {
    const s = new WorkloadStore(memory());
    expect(s.draft()).toBeNull();
    expect(s.saveDraft('tick 1\n', null, 5)).toBe(true);
    expect(s.draft()).toEqual({ text: 'tick 1\n', machine: null, updated: 5 });
    const a = s.add('first', 'tick 1\n', 10);
    const b = s.add('  ', 'tick 2\n', 20);
    expect(a && b).toBeTruthy();
    expect(s.list().map((w) => w.name)).toEqual(['Untitled', 'first']);
    expect(s.rename(a?.id ?? '', 'renamed')).toBe(true);
    expect(s.rename(a?.id ?? '', '   ')).toBe(false);
    expect(s.update(a?.id ?? '', 'tick 3\n', 30)).toBe(true);
    expect(s.list()[0]).toMatchObject({ name: 'renamed', text: 'tick 3\n' });
    expect(s.holds('tick 2\n')).toBe(true);
    expect(s.remove(b?.id ?? '')).toBe(true);
    expect(s.list().map((w) => w.name)).toEqual(['renamed']);
  });

  it('survives a full storage, no storage and garbage', () => {
    const full: KeyValue = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {},
    };
    expect(new WorkloadStore(full).saveDraft('x', null)).toBe(false);
    expect(new WorkloadStore(full).add('a', 'x')).toBeNull();
    expect(new WorkloadStore(null).list()).toEqual([]);
    const kv = memory();
    kv.map.set('buddyscope.workloads.v1', '{not json');
    kv.map.set('buddyscope.draft.v1', '[1]');
    const s = new WorkloadStore(kv);
    expect(s.list()).toEqual([]);
    expect(s.draft()).toBeNull();
    kv.map.set(
      'buddyscope.workloads.v1',
      JSON.stringify([{ id: 'x' }, { id: 'y', name: 'ok', text: '', updated: 1 }]),
    );
    expect(s.list().map((w) => w.id)).toEqual(['y']);
  });
});
