/*
 * useWorkloadDraft.ts: the workload text being edited. Saved as a draft as you type (after a
 * short pause, restored after a reload or a crash), checked in a worker as you type, and run
 * after a longer pause when it compiles. Replacing the whole text (an import, a saved workload, a
 * scenario, a form field) runs it at once.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ExplicitMachine } from '../../core/machine-config';
import { Compiler } from '../../runner/compile-client';
import type { WorkloadStore } from '../../saved/store';
import type { WorkloadError } from '../../workload/errors';
import { appendStatement } from '../workload-text';
import type { Run } from './usePlaygroundSession';

/** Pause after the last keystroke before the draft is saved and the edit runs. */
const SAVE_MS = 400;
const RUN_MS = 800;

export interface WorkloadDraft {
  text: string;
  /** A keystroke in the editor: saved and run after a pause. */
  onEdit: (next: string) => void;
  /** Replace the whole text, and the machine it runs on, and run it. */
  replace: (next: string, machine?: ExplicitMachine | null) => void;
  /** Replace the text on the same machine and run it (a form field changed a header line). */
  setAndRun: (next: string) => void;
  /** Add a statement at the end and run to it (an op button). */
  append: (stmt: string) => void;
  /** The editor's check as you type: the first error, null, or 'cancelled' by a newer check. */
  check: (src: string) => Promise<WorkloadError | null | 'cancelled'>;
}

export function useWorkloadDraft({
  initial,
  store,
  machine,
  setMachine,
  run,
}: {
  initial: string;
  store: WorkloadStore;
  machine: ExplicitMachine | null; // the reader's own machine, when one replaces the text's
  setMachine: (m: ExplicitMachine | null) => void;
  run: Run;
}): WorkloadDraft {
  const [text, setText] = useState(initial);
  const [lintCompiler] = useState(() => new Compiler());
  useEffect(() => () => lintCompiler.dispose(), [lintCompiler]);

  // Saved as you type (after a short pause), restored after a reload or a crash.
  useEffect(() => {
    const t = setTimeout(
      () => store.saveDraft(text, machine ? JSON.stringify(machine) : null),
      SAVE_MS,
    );
    return () => clearTimeout(t);
  }, [text, machine, store]);

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
    (next: string, m: ExplicitMachine | null = machine) => {
      edited.current = false;
      setText(next);
      setMachine(m);
      run(next, false, m);
    },
    [run, machine, setMachine],
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

  return { text, onEdit, replace, setAndRun, append, check };
}
