/*
 * useWorkloadDraft.ts: the workload text being edited. Saved as this tab's draft on every change
 * (writes are batched over a short pause, and the pending one is written at once when the page
 * is hidden, closed or navigated, so the last keystrokes survive), checked in a worker as you
 * type, and run after a longer pause when it compiles. Replacing the whole text (an import, a
 * saved workload, a scenario) keeps the text it replaces in My workloads first; when storage is
 * full, the stored draft is held (never overwritten) until the reader chooses, and the page says
 * so (DraftStatus.tsx).
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ExplicitMachine } from '../../core/machine-config';
import { Compiler } from '../../runner/compile-client';
import type { HeldDraft, WorkloadStore, WriteResult } from '../../saved/store';
import type { WorkloadError } from '../../workload/errors';
import { DEFAULT_WORKLOAD } from '../presets';
import { appendStatement } from '../workload-text';
import type { Run } from './usePlaygroundSession';

/** Pause after the last keystroke before the draft is written (flushed early on pagehide). */
const SAVE_MS = 400;
const RUN_MS = 800;

/** How saving goes, for the page to say (DraftStatus.tsx). */
export interface DraftSaving {
  /** The last write: 'full' or 'unavailable' means the latest edits are not stored. */
  result: WriteResult;
  held: HeldDraft | null;
  /** The name a replaced text was kept under in My workloads, once. */
  kept: string | null;
  /** Try again (after the reader made room): keep the held text, then save the current one. */
  retry: () => void;
  /** The reader agrees to let the held text go: the stored draft may now be overwritten. */
  discardHeld: () => void;
}

export interface WorkloadDraft {
  text: string;
  /** A keystroke in the editor: saved and run after a pause. */
  onEdit: (next: string) => void;
  /** Replace the whole text, and the machine it runs on, and run it. */
  replace: (next: string, machine?: ExplicitMachine | null, reason?: string) => void;
  /** Replace the text on the same machine and run it (a form field changed a header line). */
  setAndRun: (next: string) => void;
  /** Add a statement at the end and run to it (an op button). */
  append: (stmt: string) => void;
  /** The editor's check as you type: the first error, null, or 'cancelled' by a newer check. */
  check: (src: string) => Promise<WorkloadError | null | 'cancelled'>;
  saving: DraftSaving;
}

export function useWorkloadDraft({
  initial,
  store,
  machine,
  setMachine,
  saveInitial,
  held: initialHeld,
  run,
}: {
  initial: string;
  /** Whether the opening text is new to this tab (a link, a scenario), not a stored draft. */
  saveInitial: boolean;
  /** This tab's stored draft that the opening text replaced but could not be kept. */
  held: HeldDraft | null;
  store: WorkloadStore;
  machine: ExplicitMachine | null; // the reader's own machine, when one replaces the text's
  setMachine: (m: ExplicitMachine | null) => void;
  run: Run;
}): WorkloadDraft {
  const [text, setText] = useState(initial);
  const [lintCompiler] = useState(() => new Compiler());
  useEffect(() => () => lintCompiler.dispose(), [lintCompiler]);

  // Saving: what waits to be written, and the held text that must not be overwritten.
  const [result, setResult] = useState<WriteResult>('ok');
  const [held, setHeldState] = useState<HeldDraft | null>(initialHeld);
  const [kept, setKept] = useState<string | null>(null);
  const pending = useRef<{ text: string; machine: string | null } | null>(null);
  const heldRef = useRef(held);
  const setHeld = (h: HeldDraft | null) => {
    heldRef.current = h;
    setHeldState(h);
  };
  const flush = useCallback(() => {
    const p = pending.current;
    if (!p) return;
    const h = heldRef.current;
    if (h) {
      const r = store.keep(h.text, h.reason, { incoming: p.text, trivial: [DEFAULT_WORKLOAD] });
      if (!r.kept && r.why !== 'nothing to keep') {
        setResult(r.why); // still held: this tab's stored draft stays as it is
        return;
      }
      heldRef.current = null;
      setHeldState(null);
      if (r.kept) setKept(r.kept.name);
    }
    const r = store.saveDraft(p.text, p.machine);
    if (r === 'ok') pending.current = null;
    setResult(r);
  }, [store]);

  // Every change is saved: written after a short pause, or at once when the page goes away.
  // A stored draft opened unchanged is not written again (a new tab showing another tab's draft
  // writes nothing until the reader edits it). Compared by value, so a double mount is harmless.
  // A layout effect: the pending write is noted as the keystroke's render is committed, so a
  // pagehide right after it writes it (a passive effect may still be waiting for the next paint,
  // as on Preact, and the last keystrokes would be lost).
  const [opened] = useState(() => ({ text, machine }));
  const dirty = useRef(saveInitial);
  useLayoutEffect(() => {
    if (!dirty.current && text === opened.text && machine === opened.machine) return;
    dirty.current = true;
    pending.current = { text, machine: machine ? JSON.stringify(machine) : null };
    const t = setTimeout(flush, SAVE_MS);
    return () => clearTimeout(t);
  }, [text, machine, flush, opened]);
  useEffect(() => {
    const onHidden = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    window.addEventListener('pagehide', flush);
    window.addEventListener('hashchange', flush); // before a link opened in this tab reads it
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      window.removeEventListener('pagehide', flush);
      window.removeEventListener('hashchange', flush);
      document.removeEventListener('visibilitychange', onHidden);
      flush(); // leaving the playground for another route
    };
  }, [flush]);

  const current = () => ({ text, machine: machine ? JSON.stringify(machine) : null });
  const saving: DraftSaving = {
    result,
    held,
    kept,
    retry: () => {
      pending.current = current();
      flush();
    },
    discardHeld: () => {
      setHeld(null);
      pending.current = current();
      flush();
    },
  };

  // The simulation follows the edit: a pause in typing runs the text when it compiles.
  const edited = useRef(false);
  useEffect(() => {
    if (!edited.current) return;
    const t = setTimeout(() => {
      edited.current = false;
      run(text, false);
    }, RUN_MS);
    return () => clearTimeout(t);
  }, [text, run]);
  const onEdit = useCallback((next: string) => {
    edited.current = true;
    setText(next);
  }, []);

  const check = useCallback(
    async (src: string) => {
      const r = await lintCompiler.compile(src, machine, false);
      if ('cancelled' in r) return 'cancelled' as const;
      return r.ok ? null : r.error;
    },
    [lintCompiler, machine],
  );

  const replace = useCallback(
    (next: string, m: ExplicitMachine | null = machine, reason?: string) => {
      // The text being replaced goes to My workloads first; when it cannot (storage full), the
      // stored draft is held until the reader chooses. A form field's change has no reason.
      if (reason && next !== text && !heldRef.current) {
        const r = store.keep(text, reason, { incoming: next, trivial: [DEFAULT_WORKLOAD] });
        if (r.kept) setKept(r.kept.name);
        else if (r.why !== 'nothing to keep') {
          setHeld({ text, reason });
          setResult(r.why);
        }
      }
      edited.current = false;
      setText(next);
      setMachine(m);
      run(next, false, m);
    },
    [run, machine, setMachine, store, text],
  );

  const setAndRun = (next: string) => {
    edited.current = false;
    setText(next);
    run(next, false);
  };

  const append = useCallback(
    (stmt: string) => {
      const next = appendStatement(text, stmt);
      setText(next);
      run(next, true);
    },
    [text, run],
  );

  return { text, onEdit, replace, setAndRun, append, check, saving };
}
