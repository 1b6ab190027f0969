// The pseudocode table covers every page_alloc and base event kind (and nothing else), and every
// entry, for any field values an event may carry, names lines that exist: a kind added to a
// events.def without its pseudocode, or an entry whose marked line was reworded away, fails here.
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS, EV, FN_NAMES } from '../../core/generated/events';
import { loadCore } from '../../core/module';
import type { SimEvent } from '../../player/engine';
import { compileWorkload } from '../../workload/compiler';
import { parseWorkload } from '../../workload/parser';
import { PSEUDOCODE, pseudocodeFor } from './pseudocode';

const COVERED = EVENT_KINDS.filter((k) => k.subsystem === 'page_alloc' || k.subsystem === 'base');

function event(kind: number, f: Partial<SimEvent> = {}): SimEvent {
  return {
    seq: 0,
    op: 0,
    kind,
    fn: 0,
    cpu: 0,
    node: 0,
    zone: 2,
    pfn: 64,
    order: 0,
    mt: 0,
    a: 0,
    b: 0,
    c: 0,
    ...f,
  };
}

describe('pseudocode of the deciding kernel function', () => {
  it('has an entry for every page_alloc and base event kind, and for no other', () => {
    const names = COVERED.map((k) => k.name).sort();
    expect(COVERED.filter((k) => k.subsystem === 'page_alloc').length).toBeGreaterThan(25);
    expect(Object.keys(PSEUDOCODE).sort()).toEqual(names);
    // other subsystems' kinds (reclaim, percpu) get none, rather than a wrong one
    const other = EVENT_KINDS.find((k) => k.subsystem !== 'page_alloc' && k.subsystem !== 'base');
    if (other) expect(pseudocodeFor(event(other.id))).toBeNull();
  });

  it('marks lines that exist, for any values of the fields it reads', () => {
    const fns = FN_NAMES.map((_, i) => i).filter((i) => FN_NAMES[i]);
    const values: Partial<SimEvent>[] = [];
    for (const a of [0, 1, 2, 3, 4, 5, 6])
      for (const b of [0, 1, 20])
        for (const c of [0, 1])
          for (const mt of [0, 1, 2, 4, 5, 6, 7]) values.push({ a, b, c, mt });
    for (const fn of fns) values.push({ fn }, { fn, b: 20 });
    for (const k of COVERED)
      for (const v of values) {
        const p = pseudocodeFor(event(k.id, v));
        expect(p, k.name).not.toBeNull();
        if (!p) continue;
        expect(p.path.length, k.name).toBeGreaterThan(0);
        expect(p.lines.length, k.name).toBeGreaterThan(0);
        expect(p.decided.length, k.name).toBeGreaterThan(0);
        for (const d of p.decided) expect(p.lines[d], k.name).toBeDefined();
      }
  });

  it("walks a real refill: rmqueue_pcplist → __rmqueue_pcplist → rmqueue_bulk's lines", async () => {
    const core = await loadCore();
    const parsed = parseWorkload(
      'machine tiny\nprofile 6.18\ncpu 0 alloc a GFP_HIGHUSER_MOVABLE\ncpu 0 free a\n',
    );
    if (!parsed.ok) throw new Error(parsed.error.message);
    const c = compileWorkload(parsed.workload, { positions: parsed.positions });
    if (!c.ok) throw new Error(c.error.message);
    const sim = core.createSim(c.program.config);
    const all: SimEvent[] = [];
    try {
      sim.runOps(c.program.ops, () => all.push(...sim.events()));
    } finally {
      sim.dispose();
    }
    for (const e of all) expect(pseudocodeFor(e), String(e.kind)).not.toBeNull();
    const refill = all.find((e) => e.kind === EV.PCP_REFILL);
    const p = refill && pseudocodeFor(refill);
    expect(p?.path).toEqual(['rmqueue_pcplist', '__rmqueue_pcplist']);
    expect(p?.lines[p.decided[0] ?? -1]).toContain('rmqueue_bulk(zone, order, n, list)');
    const locked = all.find((e) => e.kind === EV.MM_PAGE_ALLOC_ZONE_LOCKED && e.a === 1);
    const q = locked && pseudocodeFor(locked);
    expect(q?.path).toEqual(['rmqueue_pcplist', '__rmqueue_pcplist', 'rmqueue_bulk']);
    expect(q?.lines[q.decided[0] ?? -1]).toContain('percpu_refill=1');
    // the first check of 6.18 is the high pre-check, and its line says so
    const check = all.find((e) => e.kind === EV.WMARK_CHECK);
    const w = check && pseudocodeFor(check);
    expect(w?.lines[w.decided[0] ?? -1]).toContain('high watermark');
  });
});
