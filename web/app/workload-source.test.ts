// What the playground opens, and what becomes of this tab's draft when a scenario or a link
// replaces it: kept in My workloads, or, with storage full, held in place and said.
import { describe, expect, it } from 'vitest';
import { fakeStorage } from '../saved/fake-storage';
import { WorkloadStore } from '../saved/store';
import { scenarioById } from '../scenarios/index';
import { DEFAULT_WORKLOAD } from './presets';
import { resolveSource } from './workload-source';

const MINE = 'machine tiny\ncpu 0 alloc mine order=2\n';
const scenario = scenarioById('fragmentation');

describe('resolveSource', () => {
  it('opens this tab’s draft, else the newest of any tab, else the default', async () => {
    const kv = fakeStorage();
    expect((await resolveSource('#/playground', new WorkloadStore(kv, 'ta'), 1)).from).toBe(
      'default',
    );
    new WorkloadStore(kv, 'tb').saveDraft(MINE, null, 5);
    const s = await resolveSource('#/playground', new WorkloadStore(kv, 'ta'), 1);
    expect(s).toMatchObject({ from: 'draft', text: MINE, held: null });
  });

  it('keeps this tab’s draft in My workloads before a scenario replaces it', async () => {
    const store = new WorkloadStore(fakeStorage(), 'ta');
    store.saveDraft(MINE, null);
    const s = await resolveSource('#/playground?scenario=fragmentation', store, 1);
    expect(s.text).toBe(scenario?.text);
    expect(s.held).toBeNull();
    expect(s.notice).toMatch(/kept in My workloads as “Draft before opening a scenario, /);
    expect(store.list().map((w) => w.text)).toEqual([MINE]);
  });

  it('does not keep a copy of another tab’s draft, nor the default text', async () => {
    const kv = fakeStorage();
    new WorkloadStore(kv, 'tb').saveDraft(MINE, null);
    const store = new WorkloadStore(kv, 'ta');
    expect(
      (await resolveSource('#/playground?scenario=fragmentation', store, 1)).notice,
    ).toBeNull();
    store.saveDraft(DEFAULT_WORKLOAD, null);
    expect(
      (await resolveSource('#/playground?scenario=fragmentation', store, 1)).notice,
    ).toBeNull();
    expect(store.list()).toEqual([]);
  });

  it('holds the draft, and never drops it, when storage is full', async () => {
    const kv = fakeStorage();
    const store = new WorkloadStore(kv, 'ta');
    store.saveDraft(MINE, null);
    kv.quota = 0;
    const s = await resolveSource('#/playground?scenario=fragmentation', store, 1);
    expect(s.text).toBe(scenario?.text);
    expect(s.held).toEqual({ text: MINE, reason: 'a scenario' });
    expect(store.ownDraft()?.text).toBe(MINE);
  });
});
