// The saved-work store over a fake Storage that can be made full, no storage, garbage left by
// someone else, and two tabs sharing one localStorage.
import { describe, expect, it } from 'vitest';
import { fakeStorage } from './fake-storage';
import { LEGACY, WorkloadStore, isQuotaError } from './store';
import { claimTab, tabIdOf } from './tab';

/** Fill the storage to its brim so that the next write of any size fails. */
function fill(kv: ReturnType<typeof fakeStorage>): void {
  kv.quota = [...kv.map].reduce((n, [k, v]) => n + k.length + v.length, 0);
}

describe('WorkloadStore', () => {
  it('keeps a draft and a list: add, rename, update, remove, newest first', () => {
    const s = new WorkloadStore(fakeStorage());
    expect(s.draft()).toBeNull();
    expect(s.saveDraft('tick 1\n', null, 5)).toBe('ok');
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
    const full = fakeStorage(0);
    expect(new WorkloadStore(full).saveDraft('x', null)).toBe('full');
    expect(new WorkloadStore(full).add('a', 'x')).toBeNull();
    expect(new WorkloadStore(null).list()).toEqual([]);
    expect(new WorkloadStore(null).saveDraft('x', null)).toBe('unavailable');
    const kv = fakeStorage();
    kv.map.set('buddyscope.workloads.v1', '{not json');
    kv.map.set('buddyscope.draft.v1', '[1]');
    kv.map.set('buddyscope.draft.v2.tX', '"text"');
    const s = new WorkloadStore(kv);
    expect(s.list()).toEqual([]);
    expect(s.draft()).toBeNull();
    expect(s.drafts()).toEqual([]);
    kv.map.set(
      'buddyscope.workloads.v1',
      JSON.stringify([{ id: 'x' }, { id: 'y', name: 'ok', text: '', updated: 1 }]),
    );
    expect(s.list().map((w) => w.id)).toEqual(['y']);
  });

  it('says "full" for a quota error and "unavailable" for any other refusal', () => {
    expect(isQuotaError(new DOMException('x', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError({ name: 'NS_ERROR_DOM_QUOTA_REACHED' })).toBe(true);
    expect(isQuotaError(new DOMException('x', 'SecurityError'))).toBe(false);
    const refusing = fakeStorage();
    refusing.setItem = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    expect(new WorkloadStore(refusing).saveDraft('x', null)).toBe('unavailable');
  });

  it('gives two tabs a draft each: neither overwrites the other, a new tab opens the newest', () => {
    const kv = fakeStorage();
    const a = new WorkloadStore(kv, 'ta');
    const b = new WorkloadStore(kv, 'tb');
    expect(a.saveDraft('cpu 0 alloc x order=0\n', null, 10)).toBe('ok');
    expect(b.saveDraft('cpu 1 alloc y order=1\n', null, 20)).toBe('ok');
    expect(a.saveDraft('cpu 0 alloc x order=2\n', null, 30)).toBe('ok');
    // A reload of each tab (same tab id) finds its own text.
    expect(new WorkloadStore(kv, 'ta').draft()?.text).toBe('cpu 0 alloc x order=2\n');
    expect(new WorkloadStore(kv, 'tb').draft()?.text).toBe('cpu 1 alloc y order=1\n');
    // A new tab opens the most recent draft without writing over it.
    const c = new WorkloadStore(kv, 'tc');
    expect(c.ownDraft()).toBeNull();
    expect(c.draft()?.text).toBe('cpu 0 alloc x order=2\n');
    expect(c.drafts().map((d) => d.tab)).toEqual(['ta', 'tb']);
    c.removeDraft('tb');
    expect(c.drafts().map((d) => d.tab)).toEqual(['ta']);
  });

  it('opens the single draft an older version saved, and never writes it', () => {
    const kv = fakeStorage();
    kv.map.set('buddyscope.draft.v1', JSON.stringify({ text: 'old\n', machine: null, updated: 3 }));
    const s = new WorkloadStore(kv, 'ta');
    expect(s.draft()?.text).toBe('old\n');
    expect(s.drafts()[0]?.tab).toBe(LEGACY);
    s.saveDraft('new\n', null, 4);
    expect(kv.map.get('buddyscope.draft.v1')).toContain('old');
  });

  it('keeps a draft about to be replaced in My workloads, named for what replaced it', () => {
    const kv = fakeStorage();
    const s = new WorkloadStore(kv, 'ta');
    const when = Date.UTC(2026, 10, 23, 21, 30);
    const r = s.keep('cpu 0 alloc x order=0\n', 'a link', { incoming: 'tick 1\n', now: when });
    expect(r.kept?.name).toMatch(/^Draft before opening a link, 23\/11\/2026/);
    expect(s.list()[0]?.text).toBe('cpu 0 alloc x order=0\n');
    // Nothing to lose: already saved, the incoming text itself, a trivial one, or blank.
    expect(s.keep('cpu 0 alloc x order=0\n', 'a link')).toEqual({
      kept: null,
      why: 'nothing to keep',
    });
    expect(s.keep('tick 1\n', 'a link', { incoming: 'tick 1\n' }).kept).toBeNull();
    expect(s.keep('tick 9\n', 'a scenario', { trivial: ['tick 9\n'] }).kept).toBeNull();
    expect(s.keep('  \n', 'an import').kept).toBeNull();
    expect(s.list()).toHaveLength(1);
  });

  it('says when a draft cannot be kept because storage is full, and leaves it in place', () => {
    const kv = fakeStorage();
    const s = new WorkloadStore(kv, 'ta');
    expect(s.saveDraft('my unsaved work\n', null, 1)).toBe('ok');
    fill(kv);
    expect(s.keep('my unsaved work\n', 'a link')).toEqual({ kept: null, why: 'full' });
    expect(s.saveDraft('my unsaved work, more\n', null, 2)).toBe('full');
    expect(s.ownDraft()?.text).toBe('my unsaved work\n');
    // Once the reader frees some room, keeping works.
    kv.quota = Infinity;
    expect(s.keep('my unsaved work\n', 'a link').kept).not.toBeNull();
  });

  it('tells listeners when the saved list changes', () => {
    const s = new WorkloadStore(fakeStorage());
    let calls = 0;
    const off = s.subscribe(() => calls++);
    s.add('a', 'x');
    s.keep('y', 'an import');
    off();
    s.add('b', 'z');
    expect(calls).toBe(2);
  });

  it('keeps a tab id in sessionStorage, and makes one up without it', () => {
    const session = fakeStorage();
    const id = tabIdOf(session);
    expect(id).toMatch(/^t[a-z0-9]+$/);
    expect(tabIdOf(session)).toBe(id);
    expect(tabIdOf(null)).not.toBe(tabIdOf(null));
  });

  it('gives a duplicated tab (same id copied into its sessionStorage) an id of its own', async () => {
    const first = fakeStorage();
    const id = tabIdOf(first);
    const copy = fakeStorage();
    copy.setItem('buddyscope.tab', id); // what duplicating the tab does
    const channel = `test.tabs.${Math.random()}`;
    const names: string[] = [];
    const letGoFirst = claimTab(id, first, (n) => names.push(`first ${n}`), channel);
    await new Promise((r) => setTimeout(r, 20));
    let renamed = '';
    const letGoCopy = claimTab(tabIdOf(copy), copy, (n) => (renamed = n), channel);
    await expect.poll(() => renamed).not.toBe('');
    expect(renamed).not.toBe(id);
    expect(tabIdOf(copy)).toBe(renamed);
    expect(tabIdOf(first)).toBe(id);
    expect(names).toEqual([]);
    letGoFirst();
    letGoCopy();
  });
});
