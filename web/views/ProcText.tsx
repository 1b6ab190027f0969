/*
 * ProcText.tsx: the simulated machine's /proc files, rendered by the core in the kernel's own
 * format, live at the cursor. The lines about the zone the current event touched are marked, so
 * the numbers the other views draw can be found in the text a real machine prints.
 */
import { useId, useState } from 'react';
import { eventAttrs, type ViewProps } from './options';
import { zoneName } from './names';
import { useMasked } from './Masked';
import { maskVmstat, maskZoneinfo } from './proc-mask';

import { PROC_FILES, type ProcFile } from '../core/sim';

export interface ProcOptions {
  proc: (file: ProcFile) => string; // the core's rendering at the cursor
}

export function ProcText({ state, event, options }: ViewProps<ProcOptions>) {
  const [file, setFile] = useState<ProcFile>('buddyinfo');
  const id = useId();
  const text = options.proc(file);
  const zoneTag = event ? `Node ${event.node}, zone ${zoneName(event.zone).padStart(8)}` : null;
  const zoneTag2 = event ? `Node ${event.node}, zone ${zoneName(event.zone)}` : null;
  const masked = useMasked();
  const raw = text.split('\n');
  // A lesson question's value stays hidden here too (lessons/README.md, `hides`).
  const lines =
    file === 'zoneinfo'
      ? maskZoneinfo(raw, masked)
      : file === 'vmstat'
        ? maskVmstat(raw, masked)
        : raw;
  return (
    <section className="view proc-text" {...eventAttrs(event)}>
      <header className="view-head">
        <h3 id={`${id}-h`}>/proc</h3>
        <div role="tablist" aria-label="/proc file" className="tabs">
          {PROC_FILES.map((f) => (
            <button
              key={f}
              type="button"
              role="tab"
              id={`${id}-${f}`}
              aria-selected={f === file}
              aria-controls={`${id}-panel`}
              tabIndex={f === file ? 0 : -1}
              onClick={() => setFile(f)}
              onKeyDown={(e) => {
                const i = PROC_FILES.indexOf(file);
                const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
                if (!d) return;
                e.preventDefault();
                e.stopPropagation();
                const next =
                  PROC_FILES[(i + d + PROC_FILES.length) % PROC_FILES.length] ?? 'buddyinfo';
                setFile(next);
                document.getElementById(`${id}-${next}`)?.focus();
              }}
            >
              {f}
            </button>
          ))}
        </div>
      </header>
      <pre
        className="proc"
        id={`${id}-panel`}
        role="tabpanel"
        aria-labelledby={`${id}-${file}`}
        tabIndex={0}
        data-op={state.op}
      >
        {lines.map((l, i) => {
          const lit =
            !!zoneTag && (l.startsWith(zoneTag) || (zoneTag2 !== null && l.startsWith(zoneTag2)));
          return (
            <span key={i} className={lit ? 'lit' : undefined} data-highlighted={lit || undefined}>
              {l}
              {'\n'}
            </span>
          );
        })}
      </pre>
    </section>
  );
}
