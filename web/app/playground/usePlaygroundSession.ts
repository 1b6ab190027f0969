/*
 * usePlaygroundSession.ts: the playground's one session and how text reaches it. The session
 * lives as long as the page; each run compiles the text and loads it into the session, a branch
 * when the machine is unchanged. Short workloads compile in place; long ones compile in a worker
 * and load in slices (runner/sliced-load.ts), with progress; cancel(), or a newer run, stops an
 * older one and the session keeps what it showed.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ExplicitMachine } from '../../core/machine-config';
import type { Core } from '../../core/module';
import { Compiler } from '../../runner/compile-client';
import { estimateOps } from '../../runner/estimate';
import { loadSliced, SLICE_THRESHOLD, type LoadToken } from '../../runner/sliced-load';
import type { ShareState } from '../../share/state';
import type { WorkloadError } from '../../workload/errors';
import { parseWorkload } from '../../workload/parser';
import { compileText } from '../compile';
import { Session } from '../session';
import { useResource } from '../useResource';
import type { WorkloadSource } from '../workload-source';
import type { Loading } from './LoadProgress';

/** Whether text may compile in place: it parses, and it expands to few ops (else: the worker). */
function small(text: string): boolean {
  if (text.length > 200_000) return false;
  const p = parseWorkload(text);
  return !p.ok || estimateOps(p.workload.ops, SLICE_THRESHOLD + 1) <= SLICE_THRESHOLD;
}

/** Run text on the session: to its end (ops added by hand), or to a position (a link). */
export type Run = (
  text: string,
  toEnd: boolean,
  machine?: ExplicitMachine | null,
  at?: ShareState['position'] | null,
) => void;

export interface PlaygroundSession {
  session: Session | null;
  run: Run;
  /** Stop the long run on its way, if any; the session keeps the run it shows. */
  cancel: () => void;
  error: WorkloadError | null; // where the last run's text does not compile
  loading: Loading | null; // a long run on its way (total 0: compiling)
}

export function usePlaygroundSession(
  core: Core,
  source: WorkloadSource,
  machineOverride: ExplicitMachine | null,
  onRefused: (message: string) => void,
): PlaygroundSession {
  const [error, setError] = useState<WorkloadError | null>(null);
  const [loading, setLoading] = useState<Loading | null>(null);
  const [runCompiler] = useState(() => new Compiler());
  useEffect(() => () => runCompiler.dispose(), [runCompiler]);
  const token = useRef<LoadToken>({ cancelled: false });
  const inflight = useRef<{
    text: string;
    machine: ExplicitMachine | null;
    token: LoadToken;
  } | null>(null);
  const refused = useRef(onRefused);
  // A layout effect: current before the next event, as in useAction (actions/context.ts).
  useLayoutEffect(() => {
    refused.current = onRefused;
  });
  const refuse = useCallback(
    (e: unknown) =>
      refused.current(
        `The core refused this machine: ${e instanceof Error ? e.message : String(e)}`,
      ),
    [],
  );

  // A long workload starts on an empty tiny machine and arrives through run() in slices.
  const first = useRef({ text: source.text, machine: source.machine, position: source.position });
  const session = useResource(
    () => {
      const f = first.current;
      const out = small(f.text) ? compileText(f.text, f.machine) : null;
      const fallback = compileText('machine tiny\n');
      try {
        if (out?.ok) {
          const s = new Session(core, out.program);
          if (f.position) s.player.seek(f.position);
          return s;
        }
      } catch {
        // The core refused the machine (a hand-edited link): start on tiny; run() says why.
      }
      return fallback.ok ? new Session(core, fallback.program) : null;
    },
    (s) => s.dispose(),
    [core],
  );

  const run = useCallback<Run>(
    (src, toEnd, machine = machineOverride, at = null) => {
      if (!session) return;
      // The same text again while it loads (the Run button, then the pause after typing): let
      // the load that is under way finish rather than start it over.
      const same = inflight.current;
      if (same && !same.token.cancelled && same.text === src && same.machine === machine) return;
      token.current.cancelled = true;
      const mine: LoadToken = { cancelled: false };
      token.current = mine;
      const finish = () => {
        if (at) session.player.seek(at);
        else if (toEnd) session.player.end();
      };
      if (small(src)) {
        const out = compileText(src, machine);
        if (!out.ok) {
          setError(out.error);
          return;
        }
        setError(null);
        try {
          session.load(out.program);
        } catch (e) {
          refuse(e);
          return;
        }
        finish();
        return;
      }
      setLoading({ done: 0, total: 0 });
      inflight.current = { text: src, machine, token: mine };
      void runCompiler
        .compile(src, machine, true)
        .then(async (r) => {
          if ('cancelled' in r || mine.cancelled) return;
          if (!r.ok || !r.ops || !r.lines) {
            setLoading(null);
            if (!r.ok) setError(r.error);
            return;
          }
          setError(null);
          const program = { config: r.config, ops: r.ops, lines: r.lines, opCount: r.opCount };
          // One render per percent, not per slice: the bar moves, the page keeps its time.
          let shown = -1;
          try {
            const done = await loadSliced(session, program, mine, (d, total) => {
              const percent = Math.floor((100 * d) / total);
              if (percent === shown) return;
              shown = percent;
              setLoading({ done: d, total });
            });
            if (done === 'done') finish();
          } catch (e) {
            refuse(e);
          }
          if (!mine.cancelled) setLoading(null);
        })
        .finally(() => {
          if (inflight.current?.token === mine) inflight.current = null;
        });
    },
    [session, machineOverride, runCompiler, refuse],
  );

  const cancel = useCallback(() => {
    token.current.cancelled = true;
    runCompiler.dispose(); // a compile midway stops with its worker; the next run starts another
    setLoading(null);
  }, [runCompiler]);

  // A long workload from a link, scenario or draft: run it once the session exists.
  const started = useRef(false);
  useEffect(() => {
    if (!session || started.current) return;
    started.current = true;
    const f = first.current;
    const out = small(f.text) ? compileText(f.text, f.machine) : null;
    if (!out?.ok || session.player.length !== out.program.ops.length)
      run(f.text, false, f.machine, f.position);
  }, [session, run]);

  return { session, run, cancel, error, loading };
}
