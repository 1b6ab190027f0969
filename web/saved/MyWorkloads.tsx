/*
 * MyWorkloads.tsx: the reader's saved workloads: save the current text under a name, and open,
 * rename or delete each. Opening replaces the editor's text as one undoable change. Below them,
 * the drafts other tabs (open or closed) keep, so none is out of reach: open or delete each. The
 * lists follow changes made elsewhere (a draft kept before a replacement, another tab).
 */
import { useEffect, useState } from 'react';
import type { SavedWorkload, TabDraft, WorkloadStore } from './store';

/** A draft's first two lines that say something (not blank, not comments), to recognise it by. */
function firstLines(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  return lines.slice(0, 2).join(' · ').slice(0, 70) || '(empty)';
}

export function MyWorkloads({
  store,
  text,
  onOpen,
  onOpenDraft,
}: {
  store: WorkloadStore;
  text: string;
  onOpen: (w: SavedWorkload) => void;
  /** Open another tab's draft here (that tab keeps its own). */
  onOpenDraft: (d: TabDraft) => void;
}) {
  const [list, setList] = useState(() => store.list());
  const others = () => store.drafts().filter((d) => d.tab !== store.tab);
  const [drafts, setDrafts] = useState(others);
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const [said, setSaid] = useState('');
  const refresh = (msg: string) => {
    setList(store.list());
    setDrafts(others());
    setSaid(msg);
  };
  useEffect(() => {
    const reread = () => {
      setList(store.list());
      setDrafts(store.drafts().filter((d) => d.tab !== store.tab));
    };
    window.addEventListener('storage', reread); // another tab saved or deleted
    const off = store.subscribe(reread);
    return () => {
      window.removeEventListener('storage', reread);
      off();
    };
  }, [store]);

  return (
    <div className="tool my-workloads">
      <form
        className="tool-row"
        onSubmit={(e) => {
          e.preventDefault();
          const w = store.add(name, text);
          refresh(
            w ? `Saved as “${w.name}”.` : 'The browser refused to save (storage full or disabled).',
          );
          setName('');
        }}
      >
        <label>
          Name{' '}
          <input
            type="text"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Untitled"
          />
        </label>
        <button type="submit">Save current workload</button>
      </form>
      {list.length === 0 ? (
        <p className="small muted">
          No saved workloads yet. Your edits are kept as a draft as you type.
        </p>
      ) : (
        <ul className="saved-list" aria-label="My workloads">
          {list.map((w) => (
            <li key={w.id}>
              {renaming?.id === w.id ? (
                <form
                  className="tool-row"
                  onSubmit={(e) => {
                    e.preventDefault();
                    refresh(
                      store.rename(w.id, renaming.name) ? 'Renamed.' : 'A name cannot be empty.',
                    );
                    setRenaming(null);
                  }}
                >
                  <label>
                    New name for {w.name}{' '}
                    <input
                      type="text"
                      autoFocus
                      value={renaming.name}
                      onChange={(e) => setRenaming({ id: w.id, name: e.target.value })}
                    />
                  </label>
                  <button type="submit">Rename</button>
                  <button type="button" onClick={() => setRenaming(null)}>
                    Cancel
                  </button>
                </form>
              ) : (
                <>
                  <span className="saved-name">{w.name}</span>{' '}
                  <span className="small muted">{new Date(w.updated).toLocaleString('en-GB')}</span>
                  <span className="tool-row">
                    <button type="button" onClick={() => onOpen(w)} aria-label={`Open ${w.name}`}>
                      Open
                    </button>
                    <button
                      type="button"
                      onClick={() => setRenaming({ id: w.id, name: w.name })}
                      aria-label={`Rename ${w.name}`}
                    >
                      Rename
                    </button>
                    <button
                      type="button"
                      onClick={() => {
                        if (window.confirm(`Delete “${w.name}”?`))
                          refresh(
                            store.remove(w.id) ? `Deleted “${w.name}”.` : 'Could not delete.',
                          );
                      }}
                      aria-label={`Delete ${w.name}`}
                    >
                      Delete
                    </button>
                  </span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {drafts.length > 0 && (
        <>
          <h3 className="small">Drafts in other tabs</h3>
          <ul className="saved-list" aria-label="Drafts in other tabs">
            {drafts.map((d) => {
              const label = `the draft “${firstLines(d.text)}” of ${new Date(d.updated).toLocaleString('en-GB')}`;
              return (
                <li key={d.tab}>
                  <span className="saved-name">{firstLines(d.text)}</span>{' '}
                  <span className="small muted">{new Date(d.updated).toLocaleString('en-GB')}</span>
                  <span className="tool-row">
                    <button
                      type="button"
                      onClick={() => onOpenDraft(d)}
                      aria-label={`Open ${label}`}
                    >
                      Open
                    </button>
                    <button
                      type="button"
                      onClick={() => {
                        if (
                          window.confirm(`Delete ${label}? A tab still showing it keeps its text.`)
                        ) {
                          store.removeDraft(d.tab);
                          refresh('Deleted that draft.');
                        }
                      }}
                      aria-label={`Delete ${label}`}
                    >
                      Delete
                    </button>
                  </span>
                </li>
              );
            })}
          </ul>
        </>
      )}
      <p role="status" className="small muted">
        {said}
      </p>
    </div>
  );
}
