/*
 * FilesPanel.tsx: workloads and traces in and out. Export the workload (.workload text) or the
 * run's events (ftrace text); import a workload file, or a kernel trace by file (plain or .gz) or
 * by pasting. Nothing imported is lost and nothing replaced is lost: a bad file is refused with
 * the reason, an imported text with errors opens with its error at its line and column, and the
 * text it replaced comes back with Restore (or Ctrl+Z in the editor).
 */
import { useRef, useState } from 'react';
import type { Core } from '../core/module';
import type { ExplicitMachine } from '../core/machine-config';
import { fileToText } from '../files/read-text';
import { importTraceTolerant, type TolerantStats } from '../traces/tolerant-import';
import { importedWorkloadText } from '../workload/trace-import';
import { download } from './download';
import { traceOfRun } from './trace-export';
import { formatCount } from '../core/count';

export interface FilesPanelProps {
  core: Core | null;
  text: string;
  machine: ExplicitMachine | null;
  /** Replace the workload (and run it); the panel keeps the previous text for Restore. */
  replace: (text: string, why: string) => void;
}

function TraceSummary({ stats, name }: { stats: TolerantStats; name: string }) {
  const skipped = [...stats.skipped.entries()].sort((a, b) => b[1] - a[1]);
  return (
    <div className="trace-summary" aria-label="What was imported">
      <p>
        From <strong>{name}</strong> ({formatCount(stats.lines)} lines): imported{' '}
        <strong>{stats.allocs}</strong> allocations and <strong>{stats.frees}</strong> frees
        {stats.percpuAllocs + stats.percpuFrees > 0 && (
          <>
            {' '}
            of pages, <strong>{stats.percpuAllocs}</strong> percpu allocations and{' '}
            <strong>{stats.percpuFrees}</strong> percpu frees
          </>
        )}
        , on {stats.maxCpu + 1} CPU{stats.maxCpu ? 's' : ''}.
      </p>
      <table className="small">
        <caption className="visually-hidden">Skipped</caption>
        <thead>
          <tr>
            <th scope="col">Skipped</th>
            <th scope="col">Count</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>frees of pages not allocated in the trace</td>
            <td>{stats.unmatchedFrees}</td>
          </tr>
          {stats.percpuUnmatchedFrees > 0 && (
            <tr>
              <td>percpu frees of areas not allocated in the trace</td>
              <td>{stats.percpuUnmatchedFrees}</td>
            </tr>
          )}
          {stats.batchedRepeats > 0 && (
            <tr>
              <td>mm_page_free_batched repeating its mm_page_free</td>
              <td>{stats.batchedRepeats}</td>
            </tr>
          )}
          {stats.failedAllocs > 0 && (
            <tr>
              <td>failed allocations (no page)</td>
              <td>{stats.failedAllocs}</td>
            </tr>
          )}
          {skipped.map(([kind, n]) => (
            <tr key={kind}>
              <td>
                <code>{kind}</code> events
              </td>
              <td>{n}</td>
            </tr>
          ))}
          {stats.malformed > 0 && (
            <tr>
              <td>
                unreadable lines (line {stats.malformedLines.join(', ')}
                {stats.malformed > stats.malformedLines.length ? ', …' : ''})
              </td>
              <td>{stats.malformed}</td>
            </tr>
          )}
          {stats.lostEvents > 0 && (
            <tr>
              <td>events the kernel lost ([LOST n EVENTS])</td>
              <td>{stats.lostEvents}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

export function FilesPanel({ core, text, machine, replace }: FilesPanelProps) {
  const workloadInput = useRef<HTMLInputElement>(null);
  const traceInput = useRef<HTMLInputElement>(null);
  const [previous, setPrevious] = useState<string | null>(null);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [summary, setSummary] = useState<{ stats: TolerantStats; name: string } | null>(null);
  const [paste, setPaste] = useState('');

  const swapIn = (next: string, why: string) => {
    setPrevious(text);
    replace(next, why);
  };

  const importTraceText = (t: string, name: string) => {
    const r = importTraceTolerant(t);
    if (!r.ok) {
      setSummary(null);
      setMessage({ error: true, text: `${name}, line ${r.error.line}: ${r.error.message}` });
      return;
    }
    // A trace says nothing of the machine: keep a real machine if one is loaded, else laptop.
    const w = {
      ...r.workload,
      machine: machine ? null : { kind: 'preset' as const, name: 'laptop' as const },
    };
    const next = importedWorkloadText(w, `# imported from ${name.replace(/[\r\n]/g, ' ')}`);
    if (!next.ok) {
      setSummary(null);
      setMessage({ error: true, text: `${name}: ${next.message}` });
      return;
    }
    swapIn(next.text, 'trace');
    setSummary({ stats: r.stats, name });
    setMessage({ error: false, text: `Imported ${name}: the playground now replays it.` });
  };

  const onWorkloadFile = async (f: File) => {
    const r = await fileToText(f, 16 * 1024 * 1024);
    if (!r.ok) return setMessage({ error: true, text: `${f.name}: ${r.message}` });
    swapIn(r.text, 'file');
    setSummary(null);
    setMessage({
      error: false,
      text: `Opened ${f.name}. Restore brings back the text it replaced.`,
    });
  };

  const onTraceFile = async (f: File) => {
    const r = await fileToText(f);
    if (!r.ok) return setMessage({ error: true, text: `${f.name}: ${r.message}` });
    importTraceText(r.text, f.name);
  };

  return (
    <div className="tool files-panel">
      <div className="tool-row">
        <button type="button" onClick={() => download('buddyscope.workload', text)}>
          Export workload
        </button>
        <button type="button" onClick={() => workloadInput.current?.click()}>
          Import workload…
        </button>
        <input
          ref={workloadInput}
          type="file"
          accept=".workload,.txt,text/plain"
          hidden
          aria-label="Choose a workload file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void onWorkloadFile(f);
          }}
        />
        {previous !== null && (
          <button
            type="button"
            onClick={() => {
              replace(previous, 'restore');
              setPrevious(null);
              setMessage({ error: false, text: 'The previous text is back.' });
            }}
          >
            Restore previous text
          </button>
        )}
      </div>
      <div className="tool-row">
        <button type="button" onClick={() => traceInput.current?.click()}>
          Import kernel trace…
        </button>
        <input
          ref={traceInput}
          type="file"
          hidden
          aria-label="Kernel trace file"
          data-testid="trace-file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void onTraceFile(f);
          }}
        />
        <button
          type="button"
          disabled={!core}
          onClick={() => {
            if (!core) return;
            const r = traceOfRun(core, text, machine);
            if (!r.ok) return setMessage({ error: true, text: r.message });
            download('buddyscope.trace', r.text);
            setMessage({
              error: false,
              text: r.truncated
                ? `Exported the events of the first ${r.ops} ops (the 64 MiB limit).`
                : `Exported the events of ${r.ops} ops as ftrace text.`,
            });
          }}
        >
          Export events as a trace
        </button>
      </div>
      <details>
        <summary>Paste a trace</summary>
        <label className="paste-trace">
          Trace text (from /sys/kernel/tracing/trace or trace-cmd report)
          <textarea
            rows={5}
            value={paste}
            onChange={(e) => setPaste(e.target.value)}
            spellCheck={false}
            wrap="off"
          />
        </label>
        <button
          type="button"
          disabled={!paste.trim()}
          onClick={() => importTraceText(paste, 'the pasted trace')}
        >
          Import pasted trace
        </button>
      </details>
      {message && (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'error' : 'small'}>
          {message.text}
        </p>
      )}
      {summary && <TraceSummary stats={summary.stats} name={summary.name} />}
    </div>
  );
}
