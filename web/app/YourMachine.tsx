/*
 * YourMachine.tsx: simulate the reader's own machine. How to capture /proc/zoneinfo and a
 * page-allocator trace (the commands of scripts/capture/capture.sh and traces/README.md), then:
 * paste or upload the zoneinfo, see the machine it describes, and open the playground on it.
 */
import { useState } from 'react';
import type { ExplicitMachine } from '../core/machine-config';
import { ZONE_NAMES } from '../core/machine-config';
import { fileToText } from '../files/read-text';
import { encodeState } from '../share/link';
import { stateOfText } from '../share/state';
import { machineFromZoneinfo, parseZoneinfo } from '../workload/zoneinfo-machine';
import { useCore } from './useCore';

const CAPTURE = `# /proc/zoneinfo: readable by any user
cat /proc/zoneinfo > zoneinfo.txt

# a page-allocator trace (root, tracefs at /sys/kernel/tracing)
cd /sys/kernel/tracing
echo 0 > tracing_on; echo > trace
echo 'kmem:mm_page_alloc kmem:mm_page_free kmem:mm_page_free_batched
kmem:mm_page_alloc_zone_locked kmem:mm_page_pcpu_drain' > set_event
echo 1 > tracing_on; sleep 5; echo 0 > tracing_on
gzip -c trace > ~/page-alloc.trace.gz    # or: trace-cmd record -e kmem; trace-cmd report`;

const START = `# Your machine, from its /proc/zoneinfo. Add ops below, or import a trace you captured on it.
profile 6.18
repeat 64 {
  cpu 0 alloc a order=0 GFP_HIGHUSER_MOVABLE
}
cpu 0 free a *
`;

type Built = { ok: true; machine: ExplicitMachine; cpus: number } | { ok: false; message: string };

function build(text: string): Built {
  const z = parseZoneinfo(text);
  if (!z.ok) return { ok: false, message: `line ${z.error.line}: ${z.error.message}` };
  const m = machineFromZoneinfo(z.zones);
  if (!m.ok) return { ok: false, message: `line ${m.error.line}: ${m.error.message}` };
  return { ok: true, machine: m.machine, cpus: m.cpus };
}

export default function YourMachine() {
  const core = useCore();
  const [text, setText] = useState('');
  const [built, setBuilt] = useState<Built | null>(null);

  const open = async () => {
    if (!built?.ok || core.state !== 'ready') return;
    const s = await encodeState(stateOfText(START, built.machine), core.core.modelVersion());
    window.location.hash = `#/playground?s=${s}`;
  };

  return (
    <main id="main" className="your-machine-page prose">
      <h1>Your machine</h1>
      <p className="lede">
        Simulate the memory of the computer in front of you, and replay what its kernel really did.
      </p>
      <h2>1. Capture</h2>
      <p>
        On a Linux machine, <code>/proc/zoneinfo</code> describes its zones: their spans, managed
        pages, watermarks and per-CPU lists. A trace of the <code>kmem</code> events records every
        page the kernel handed out and took back. The repository's{' '}
        <code>scripts/capture/capture.sh</code> does both around one command (
        <code>capture.sh NAME --cpu 0 -- COMMAND</code>); by hand:
      </p>
      <pre className="proc" tabIndex={0} aria-label="Capture commands">
        {CAPTURE}
      </pre>
      <p>
        Import the trace (plain or <code>.gz</code>) in the playground under{' '}
        <em>Files and kernel traces</em>.
      </p>
      <h2>2. Build the machine</h2>
      <form
        className="tool"
        onSubmit={(e) => {
          e.preventDefault();
          setBuilt(build(text));
        }}
      >
        <label>
          Paste /proc/zoneinfo
          <textarea
            rows={10}
            value={text}
            onChange={(e) => setText(e.target.value)}
            spellCheck={false}
            wrap="off"
            className="mono-area"
          />
        </label>
        <div className="tool-row">
          <label>
            or upload it{' '}
            <input
              type="file"
              accept=".txt,text/plain,.gz"
              onChange={async (e) => {
                const f = e.target.files?.[0];
                if (!f) return;
                const r = await fileToText(f, 4 * 1024 * 1024);
                if (!r.ok) return setBuilt({ ok: false, message: `${f.name}: ${r.message}` });
                setText(r.text);
                setBuilt(build(r.text));
              }}
            />
          </label>
          <button type="submit" disabled={!text.trim()}>
            Build the machine
          </button>
        </div>
      </form>
      {built && !built.ok && (
        <p role="alert" className="error">
          This is not a zoneinfo the model can use: {built.message}
        </p>
      )}
      {built?.ok && (
        <section aria-labelledby="ym-h">
          <h2 id="ym-h">3. Your machine</h2>
          <p>
            {built.machine.nodes} node{built.machine.nodes > 1 ? 's' : ''}, {built.cpus} CPUs, THP
            with pageblock order {built.machine.pageblockOrder} and MAX_PAGE_ORDER{' '}
            {built.machine.maxOrder}.
          </p>
          <table className="small">
            <caption className="visually-hidden">Zones</caption>
            <thead>
              <tr>
                <th scope="col">Node</th>
                <th scope="col">Zone</th>
                <th scope="col">start_pfn</th>
                <th scope="col">spanned</th>
                <th scope="col">managed pages</th>
                <th scope="col">MiB</th>
              </tr>
            </thead>
            <tbody>
              {built.machine.zones.flatMap((row, nid) =>
                row.map((z, zid) =>
                  z.managed > 0 ? (
                    <tr key={`${nid}-${zid}`}>
                      <td>{nid}</td>
                      <td>{ZONE_NAMES[zid]}</td>
                      <td>{z.startPfn}</td>
                      <td>{z.spanned}</td>
                      <td>{z.managed}</td>
                      <td>{Math.round(z.managed / 256)}</td>
                    </tr>
                  ) : null,
                ),
              )}
            </tbody>
          </table>
          <p>
            <button
              type="button"
              className="primary"
              onClick={() => void open()}
              disabled={core.state !== 'ready'}
            >
              Open the playground on this machine
            </button>
          </p>
        </section>
      )}
    </main>
  );
}
