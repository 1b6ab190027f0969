/*
 * YourMachine.tsx: simulate the reader's own machine. How to capture /proc/zoneinfo (with
 * buddyinfo and pagetypeinfo) and a page-allocator trace (the commands of
 * scripts/capture/capture.sh and traces/README.md), then: paste or upload the files, see the
 * machine and the state they describe, and open the playground on it in that state. A file that
 * cannot be read is named with the line and column; what was typed stays where it was.
 */
import { Fragment, useState } from 'react';
import type { ExplicitMachine } from '../core/machine-config';
import { ZONE_NAMES } from '../core/machine-config';
import { machineFromCapture } from '../workload/captured-state';
import { MIGRATETYPE_NAMES } from '../workload/free-blocks';
import { fileToText } from '../files/read-text';
import { encodeState } from '../share/link';
import { stateOfText } from '../share/state';
import { useCore } from './useCore';

const CAPTURE = `# the machine's state: zoneinfo and buddyinfo for any user, pagetypeinfo for root
cat /proc/zoneinfo > zoneinfo.txt; cat /proc/buddyinfo > buddyinfo.txt
sudo cat /proc/pagetypeinfo > pagetypeinfo.txt

# a page-allocator trace (root, tracefs at /sys/kernel/tracing)
cd /sys/kernel/tracing
echo 0 > tracing_on; echo > trace
echo 'kmem:mm_page_alloc kmem:mm_page_free kmem:mm_page_alloc_zone_locked
kmem:mm_page_pcpu_drain kmem:mm_page_alloc_extfrag' > set_event
echo 1 > tracing_on; sleep 5; echo 0 > tracing_on
gzip -c trace > ~/page-alloc.trace.gz    # or: trace-cmd record -e kmem; trace-cmd report`;

const START = `# Your machine, from its /proc/zoneinfo. Add ops below, or import a trace you captured on it.
profile 6.18
repeat 64 {
  cpu 0 alloc a order=0 GFP_HIGHUSER_MOVABLE
}
cpu 0 free a *
`;

/** The three files the machine is built from; zoneinfo is required. */
const FILES = [
  { key: 'zoneinfo', label: '/proc/zoneinfo', required: true },
  { key: 'buddyinfo', label: '/proc/buddyinfo (optional: free blocks per order)', required: false },
  {
    key: 'pagetypeinfo',
    label: '/proc/pagetypeinfo (optional: free blocks per migratetype, pageblocks per type)',
    required: false,
  },
] as const;
type FileKey = (typeof FILES)[number]['key'];
type Texts = Record<FileKey, string>;

type Built =
  | { ok: true; machine: ExplicitMachine; cpus: number }
  | { ok: false; file: FileKey; message: string };

function build(texts: Texts): Built {
  const given = (key: FileKey) =>
    texts[key].trim() ? { [key]: { name: key, text: texts[key] } } : {};
  const m = machineFromCapture(
    { name: 'zoneinfo', text: texts.zoneinfo },
    { ...given('buddyinfo'), ...given('pagetypeinfo') },
  );
  if (!m.ok)
    return {
      ok: false,
      file: m.file as FileKey,
      message: `${m.file}, line ${m.error.line}, column ${m.error.col}: ${m.error.message}`,
    };
  return { ok: true, machine: m.machine, cpus: m.cpus };
}

/** Pages of free blocks counted per order. */
function freePages(rows: number[][]): number {
  return rows.reduce((n, row) => n + row.reduce((m, c, order) => m + c * 2 ** order, 0), 0);
}

/** The captured state: per zone its free memory and pageblocks, per CPU its pcp pages. */
function CapturedTable({ machine }: { machine: ExplicitMachine }) {
  const c = machine.captured;
  if (!c) return null;
  return (
    <>
      <table className="small">
        <caption>The state the files show: the model boots in it</caption>
        <thead>
          <tr>
            <th scope="col">Node</th>
            <th scope="col">Zone</th>
            <th scope="col">free pages</th>
            <th scope="col">free blocks per order (0..{machine.maxOrder})</th>
            <th scope="col">pageblocks per type</th>
          </tr>
        </thead>
        <tbody>
          {c.zones.map((z) => {
            const perOrder = Array.from({ length: machine.maxOrder + 1 }, (_, order) =>
              z.free.reduce((n, row) => n + (row[order] ?? 0), 0),
            );
            return (
              <tr key={`${z.node}-${z.zone}`}>
                <td>{z.node}</td>
                <td>{ZONE_NAMES[z.zone]}</td>
                <td>{freePages(z.free)}</td>
                <td>
                  <code>{perOrder.join(' ')}</code>
                </td>
                <td>
                  {z.pageblocks
                    ? z.pageblocks
                        .map((n, mt) => (n ? `${MIGRATETYPE_NAMES[mt] ?? mt} ${n}` : ''))
                        .filter(Boolean)
                        .join(', ')
                    : 'not given: memory in use is Unmovable'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <table className="small">
        <caption>Per-CPU lists (zoneinfo pagesets)</caption>
        <thead>
          <tr>
            <th scope="col">CPU</th>
            <th scope="col">Zone</th>
            <th scope="col">count</th>
            <th scope="col">high</th>
          </tr>
        </thead>
        <tbody>
          {c.pcps
            .filter((p) => p.count || p.high)
            .map((p) => (
              <tr key={`${p.cpu}-${p.node}-${p.zone}`}>
                <td>{p.cpu}</td>
                <td>{ZONE_NAMES[p.zone]}</td>
                <td>{p.count}</td>
                <td>{p.high}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </>
  );
}

export default function YourMachine() {
  const core = useCore();
  const [texts, setTexts] = useState<Texts>({ zoneinfo: '', buddyinfo: '', pagetypeinfo: '' });
  const [built, setBuilt] = useState<Built | null>(null);
  const setText = (key: FileKey, value: string) => setTexts((t) => ({ ...t, [key]: value }));

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
          setBuilt(build(texts));
        }}
      >
        {FILES.map((f) => (
          <Fragment key={f.key}>
            <label>
              Paste {f.label}
              <textarea
                rows={f.required ? 10 : 5}
                value={texts[f.key]}
                onChange={(e) => setText(f.key, e.target.value)}
                spellCheck={false}
                wrap="off"
                className="mono-area"
                aria-invalid={built !== null && !built.ok && built.file === f.key}
                aria-describedby={
                  built !== null && !built.ok && built.file === f.key ? 'ym-error' : undefined
                }
              />
            </label>
            <div className="tool-row">
              <label>
                or upload {f.key}{' '}
                <input
                  type="file"
                  accept=".txt,text/plain,.gz"
                  onChange={async (e) => {
                    const file = e.target.files?.[0];
                    if (!file) return;
                    const r = await fileToText(file, 4 * 1024 * 1024);
                    if (!r.ok)
                      return setBuilt({
                        ok: false,
                        file: f.key,
                        message: `${file.name}: ${r.message}`,
                      });
                    const next = { ...texts, [f.key]: r.text };
                    setTexts(next);
                    if (next.zoneinfo.trim()) setBuilt(build(next));
                  }}
                />
              </label>
            </div>
          </Fragment>
        ))}
        <div className="tool-row">
          <button type="submit" disabled={!texts.zoneinfo.trim()}>
            Build the machine
          </button>
        </div>
      </form>
      {built && !built.ok && (
        <p role="alert" className="error" id="ym-error">
          The model cannot use this: {built.message}
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
          <CapturedTable machine={built.machine} />
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
