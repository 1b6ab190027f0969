/*
 * store.ts: the reader's own workloads in localStorage: a draft per browser tab, saved as they
 * type (restored after a reload, a close or a crash), and a list of named workloads. Storage may
 * be missing, full or hold garbage from an older version: every read falls back to nothing and
 * every write says whether it worked and, when it did not, whether storage is full, so the page
 * can say so and never drop the reader's text without asking.
 *
 * Two tabs never overwrite each other: each tab writes only its own draft key, named by a tab id
 * kept in sessionStorage (which survives a reload of that tab but is not shared with other tabs;
 * tab.ts gives a duplicated tab, which copies it, an id of its own).
 * A tab with no draft of its own (a new one) opens the most recent draft of any tab. We chose
 * this over a merge prompt on the `storage` event: nothing interrupts the reader, no write ever
 * races another tab's, and a tab closed with unsaved text leaves it for the next tab to open.
 */

import { claimTab, tabIdOf } from './tab';

export interface SavedWorkload {
  id: string;
  name: string;
  text: string;
  updated: number; // ms since the epoch
}

export interface Draft {
  text: string;
  machine: string | null; // JSON of an explicit machine (from a real zoneinfo), if any
  updated: number;
}

/** A draft and the tab that wrote it (LEGACY for the one draft of older versions). */
export interface TabDraft extends Draft {
  tab: string;
}

/** How a write went: stored, refused because storage is full, or storage is unusable. */
export type WriteResult = 'ok' | 'full' | 'unavailable';

/** What keeping a draft before it is replaced did. */
export type KeepResult =
  | { kept: SavedWorkload } // saved in My workloads under a name the reader recognises
  | { kept: null; why: 'nothing to keep' } // empty, unchanged, or already saved
  | { kept: null; why: 'full' | 'unavailable' };

/** A replaced text that could not be kept (storage full), and what replaced it. */
export interface HeldDraft {
  text: string;
  reason: string; // "a link", "a scenario", "an import", "a saved workload"
}

/** The part of the Storage interface we use (tests pass a Map-backed one). */
export type KeyValue = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

const DRAFT_PREFIX = 'buddyscope.draft.v2.';
const LEGACY_DRAFT = 'buddyscope.draft.v1'; // one draft shared by every tab (before v2)
export const LEGACY = 'legacy';
const LIST = 'buddyscope.workloads.v1';

/** Whether a storage error means "full" (the name varies across browsers and versions). */
export function isQuotaError(e: unknown): boolean {
  if (!(e instanceof Error) && !(typeof e === 'object' && e !== null && 'name' in e)) return false;
  const { name, code } = e as { name?: unknown; code?: unknown };
  return (
    name === 'QuotaExceededError' ||
    name === 'NS_ERROR_DOM_QUOTA_REACHED' ||
    code === 22 ||
    code === 1014
  );
}

function isSaved(v: unknown): v is SavedWorkload {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.id === 'string' &&
    typeof o.name === 'string' &&
    typeof o.text === 'string' &&
    typeof o.updated === 'number'
  );
}

function asDraft(d: unknown): Draft | null {
  if (typeof d !== 'object' || d === null) return null;
  const o = d as Record<string, unknown>;
  if (typeof o.text !== 'string') return null;
  return {
    text: o.text,
    machine: typeof o.machine === 'string' ? o.machine : null,
    updated: typeof o.updated === 'number' ? o.updated : 0,
  };
}

type Listener = () => void;

let windowStore: WorkloadStore | null = null;

export class WorkloadStore {
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly kv: KeyValue | null,
    /** The tab this store writes drafts for (tab.ts). */
    private tabId = 'solo',
  ) {}

  get tab(): string {
    return this.tabId;
  }

  /**
   * The store of this page, one per page (null storage when the browser refuses it, e.g. some
   * private modes), writing the draft of this tab's id, which stays this tab's alone (tab.ts).
   */
  static ofWindow(): WorkloadStore {
    if (windowStore) return windowStore;
    let session: Storage | null = null;
    try {
      session = window.sessionStorage;
    } catch {
      session = null;
    }
    let local: Storage | null = null;
    try {
      local = window.localStorage;
    } catch {
      local = null;
    }
    const store = new WorkloadStore(local, tabIdOf(session));
    claimTab(store.tab, session, (id) => {
      store.tabId = id; // a duplicated tab: the draft it opened is written under its new id
    });
    windowStore = store;
    return store;
  }

  /** Called after this store changes the saved list (so a list on screen can re-read it). */
  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private read(key: string): unknown {
    try {
      const raw = this.kv?.getItem(key);
      return raw ? (JSON.parse(raw) as unknown) : null;
    } catch {
      return null;
    }
  }

  private write(key: string, value: unknown): WriteResult {
    if (!this.kv) return 'unavailable';
    try {
      this.kv.setItem(key, JSON.stringify(value));
      return 'ok';
    } catch (e) {
      return isQuotaError(e) ? 'full' : 'unavailable';
    }
  }

  private writeList(list: SavedWorkload[]): WriteResult {
    const r = this.write(LIST, list);
    if (r === 'ok') for (const fn of this.listeners) fn();
    return r;
  }

  private keys(): string[] {
    const out: string[] = [];
    try {
      const n = this.kv?.length ?? 0;
      for (let i = 0; i < n; i++) {
        const k = this.kv?.key(i);
        if (k) out.push(k);
      }
    } catch {
      // storage went away: no keys
    }
    return out;
  }

  /** Every tab's draft, newest first. */
  drafts(): TabDraft[] {
    const out: TabDraft[] = [];
    for (const k of this.keys()) {
      const tab =
        k === LEGACY_DRAFT
          ? LEGACY
          : k.startsWith(DRAFT_PREFIX)
            ? k.slice(DRAFT_PREFIX.length)
            : null;
      if (tab === null) continue;
      const d = asDraft(this.read(k));
      if (d) out.push({ ...d, tab });
    }
    return out.sort((a, b) => b.updated - a.updated);
  }

  /** This tab's own draft, if it saved one. */
  ownDraft(): Draft | null {
    return asDraft(this.read(DRAFT_PREFIX + this.tab));
  }

  /** The draft this tab opens: its own, else the most recent of any tab (a new tab). */
  draft(): Draft | null {
    const own = this.ownDraft();
    if (own) return own;
    const newest = this.drafts()[0];
    return newest ? { text: newest.text, machine: newest.machine, updated: newest.updated } : null;
  }

  /** Save this tab's draft (no other tab's key is ever written). */
  saveDraft(text: string, machine: string | null, now = Date.now()): WriteResult {
    return this.write(DRAFT_PREFIX + this.tab, { text, machine, updated: now });
  }

  /** Forget another tab's draft (the reader asked to). */
  removeDraft(tab: string): void {
    try {
      this.kv?.removeItem(tab === LEGACY ? LEGACY_DRAFT : DRAFT_PREFIX + tab);
    } catch {
      // nothing to do: it stays
    }
    for (const fn of this.listeners) fn();
  }

  /**
   * Keep text that is about to be replaced (by a link, a scenario, an import, a saved workload) in
   * My workloads, unless there is nothing to lose: it is empty, the incoming text, the default
   * one, or some saved entry already holds it.
   */
  keep(
    text: string,
    reason: string,
    {
      incoming,
      trivial = [],
      now = Date.now(),
    }: { incoming?: string; trivial?: readonly string[]; now?: number } = {},
  ): KeepResult {
    if (!text.trim() || text === incoming || trivial.includes(text) || this.holds(text))
      return { kept: null, why: 'nothing to keep' };
    const name = `Draft before opening ${reason}, ${new Date(now).toLocaleString('en-GB')}`;
    const r = this.addResult(name, text, now);
    return 'id' in r ? { kept: r } : { kept: null, why: r.failed };
  }

  list(): SavedWorkload[] {
    const l = this.read(LIST);
    return Array.isArray(l) ? l.filter(isSaved).sort((a, b) => b.updated - a.updated) : [];
  }

  private addResult(
    name: string,
    text: string,
    now: number,
  ): SavedWorkload | { failed: 'full' | 'unavailable' } {
    const entry: SavedWorkload = {
      id: `w${now.toString(36)}${Math.random().toString(36).slice(2, 7)}`,
      name: name.trim() || 'Untitled',
      text,
      updated: now,
    };
    const r = this.writeList([entry, ...this.list()]);
    return r === 'ok' ? entry : { failed: r };
  }

  /** Save text under a name (a new entry); returns it, or null when storage refused. */
  add(name: string, text: string, now = Date.now()): SavedWorkload | null {
    const r = this.addResult(name, text, now);
    return 'id' in r ? r : null;
  }

  /** Overwrite the text of an entry. */
  update(id: string, text: string, now = Date.now()): boolean {
    return (
      this.writeList(this.list().map((w) => (w.id === id ? { ...w, text, updated: now } : w))) ===
      'ok'
    );
  }

  rename(id: string, name: string): boolean {
    const n = name.trim();
    if (!n) return false;
    return this.writeList(this.list().map((w) => (w.id === id ? { ...w, name: n } : w))) === 'ok';
  }

  remove(id: string): boolean {
    return this.writeList(this.list().filter((w) => w.id !== id)) === 'ok';
  }

  get(id: string): SavedWorkload | null {
    return this.list().find((w) => w.id === id) ?? null;
  }

  /** Whether some saved entry holds exactly this text (then replacing the draft loses nothing). */
  holds(text: string): boolean {
    return this.list().some((w) => w.text === text);
  }
}
