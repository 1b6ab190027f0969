/*
 * trace-runs.ts: refill and drain run lengths, the pattern a real trace and the model can be
 * compared on. A pcp refill takes `batch`-ish blocks off the buddy lists under the zone lock, each
 * traced as mm_page_alloc_zone_locked with percpu_refill=1, so a refill shows up as a run of such
 * lines on one CPU; free_pcppages_bulk shows up as a run of mm_page_pcpu_drain lines. A run ends
 * when the same CPU traces anything else, or the order changes.
 */

/** One tracepoint hit, reduced to what the runs need. */
export interface RunEvent {
  cpu: number;
  kind: 'refill' | 'drain' | 'other';
  order: number;
}

/** Run lengths per "cpu/order": length -> how many runs had it. */
export type RunTable = Map<string, Map<number, number>>;

export interface RunLengths {
  refill: RunTable;
  drain: RunTable;
}

export function runKey(cpu: number, order: number): string {
  return `${cpu}/${order}`;
}

/** Collects runs from events given in trace order. */
export class RunCounter {
  readonly runs: RunLengths = { refill: new Map(), drain: new Map() };
  private readonly open = new Map<
    number,
    { kind: 'refill' | 'drain'; order: number; length: number }
  >();

  add(e: RunEvent): void {
    const cur = this.open.get(e.cpu);
    if (cur && (e.kind !== cur.kind || e.order !== cur.order)) this.close(e.cpu);
    if (e.kind === 'other') return;
    const still = this.open.get(e.cpu);
    if (still) still.length++;
    else this.open.set(e.cpu, { kind: e.kind, order: e.order, length: 1 });
  }

  private close(cpu: number): void {
    const cur = this.open.get(cpu);
    if (!cur) return;
    this.open.delete(cpu);
    const table = this.runs[cur.kind];
    const key = runKey(cpu, cur.order);
    let hist = table.get(key);
    if (!hist) {
      hist = new Map();
      table.set(key, hist);
    }
    hist.set(cur.length, (hist.get(cur.length) ?? 0) + 1);
  }

  /** Close every open run and return the tables. */
  finish(): RunLengths {
    for (const cpu of [...this.open.keys()]) this.close(cpu);
    return this.runs;
  }
}

/** `63×12 31×1` (most frequent first), or `-`. */
export function describeRuns(hist: Map<number, number> | undefined): {
  runs: number;
  mean: string;
  lengths: string;
} {
  if (!hist || hist.size === 0) return { runs: 0, mean: '-', lengths: '-' };
  let runs = 0;
  let pages = 0;
  for (const [len, n] of hist) {
    runs += n;
    pages += len * n;
  }
  const top = [...hist.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const shown = top.slice(0, 4).map(([len, n]) => `${len}×${n}`);
  if (top.length > 4) shown.push('…');
  return { runs, mean: (pages / runs).toFixed(1), lengths: shown.join(' ') };
}

/** Real and simulated runs side by side, one row per CPU and order. */
export function compareRunsTable(real: RunLengths, sim: RunLengths): string {
  const out: string[] = [];
  for (const [kind, title] of [
    ['refill', 'refill runs (mm_page_alloc_zone_locked percpu_refill=1)'],
    ['drain', 'drain runs (mm_page_pcpu_drain)'],
  ] as const) {
    out.push(`${title}, per CPU and order:`);
    const keys = [...new Set([...real[kind].keys(), ...sim[kind].keys()])].sort((a, b) => {
      const [ac, ao] = a.split('/').map(Number);
      const [bc, bo] = b.split('/').map(Number);
      return (ac ?? 0) - (bc ?? 0) || (ao ?? 0) - (bo ?? 0);
    });
    const header = `  ${'cpu'.padStart(3)} ${'order'.padStart(5)}  ${'real runs'.padStart(9)} ${'mean'.padStart(6)}  ${'lengths'.padEnd(28)}  ${'sim runs'.padStart(8)} ${'mean'.padStart(6)}  lengths`;
    out.push(header);
    if (keys.length === 0) out.push('  (none in either)');
    for (const key of keys) {
      const [cpu, order] = key.split('/');
      const r = describeRuns(real[kind].get(key));
      const s = describeRuns(sim[kind].get(key));
      out.push(
        `  ${String(cpu).padStart(3)} ${String(order).padStart(5)}  ${String(r.runs).padStart(9)} ${r.mean.padStart(6)}  ${r.lengths.padEnd(28)}  ${String(s.runs).padStart(8)} ${s.mean.padStart(6)}  ${s.lengths}`,
      );
    }
    out.push('');
  }
  return out.join('\n');
}
