/*
 * store.ts: the reader's own workloads in localStorage: the draft the editor saves as you type
 * (restored after a reload or a crash) and a list of named workloads. Storage may be missing,
 * full or hold garbage from an older version: every read falls back to nothing and every write
 * says whether it worked, so the editor never loses the text it holds because storage failed.
 */

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

/** The part of the Storage interface we use (tests pass a Map-backed one). */
export type KeyValue = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const DRAFT = 'buddyscope.draft.v1';
const LIST = 'buddyscope.workloads.v1';

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

export class WorkloadStore {
  constructor(private readonly kv: KeyValue | null) {}

  /** The store of this page (null storage when the browser refuses it, e.g. some private modes). */
  static ofWindow(): WorkloadStore {
    try {
      return new WorkloadStore(window.localStorage);
    } catch {
      return new WorkloadStore(null);
    }
  }

  private read(key: string): unknown {
    try {
      const raw = this.kv?.getItem(key);
      return raw ? (JSON.parse(raw) as unknown) : null;
    } catch {
      return null;
    }
  }

  private write(key: string, value: unknown): boolean {
    if (!this.kv) return false;
    try {
      this.kv.setItem(key, JSON.stringify(value));
      return true;
    } catch {
      return false; // quota exceeded, storage disabled
    }
  }

  draft(): Draft | null {
    const d = this.read(DRAFT);
    if (typeof d !== 'object' || d === null) return null;
    const o = d as Record<string, unknown>;
    if (typeof o.text !== 'string') return null;
    return {
      text: o.text,
      machine: typeof o.machine === 'string' ? o.machine : null,
      updated: typeof o.updated === 'number' ? o.updated : 0,
    };
  }

  saveDraft(text: string, machine: string | null, now = Date.now()): boolean {
    return this.write(DRAFT, { text, machine, updated: now });
  }

  list(): SavedWorkload[] {
    const l = this.read(LIST);
    return Array.isArray(l) ? l.filter(isSaved).sort((a, b) => b.updated - a.updated) : [];
  }

  /** Save text under a name (a new entry); returns it, or null when storage refused. */
  add(name: string, text: string, now = Date.now()): SavedWorkload | null {
    const entry: SavedWorkload = {
      id: `w${now.toString(36)}${Math.random().toString(36).slice(2, 7)}`,
      name: name.trim() || 'Untitled',
      text,
      updated: now,
    };
    return this.write(LIST, [entry, ...this.list()]) ? entry : null;
  }

  /** Overwrite the text of an entry. */
  update(id: string, text: string, now = Date.now()): boolean {
    return this.write(
      LIST,
      this.list().map((w) => (w.id === id ? { ...w, text, updated: now } : w)),
    );
  }

  rename(id: string, name: string): boolean {
    const n = name.trim();
    if (!n) return false;
    return this.write(
      LIST,
      this.list().map((w) => (w.id === id ? { ...w, name: n } : w)),
    );
  }

  remove(id: string): boolean {
    return this.write(
      LIST,
      this.list().filter((w) => w.id !== id),
    );
  }

  get(id: string): SavedWorkload | null {
    return this.list().find((w) => w.id === id) ?? null;
  }

  /** Whether some saved entry holds exactly this text (then replacing the draft loses nothing). */
  holds(text: string): boolean {
    return this.list().some((w) => w.text === text);
  }
}
