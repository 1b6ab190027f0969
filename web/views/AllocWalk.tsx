/*
 * AllocWalk.tsx: how the current allocation went down its zonelist. get_page_from_freelist tries
 * zones in ZONELIST_FALLBACK order; for each it checks a watermark (free pages against the mark
 * plus lowmem_reserve) and either takes a block there or moves on. The steps come from the
 * EV_WMARK_CHECK and EV_ZONE_FALLBACK events of the op at the cursor, in the order they happened.
 */
import { useId } from 'react';
import { EV } from '../core/events';
import type { SimEvent } from './model';
import { narrate } from './narrate';
import { zoneName } from './names';
import { eventAttrs, type ViewProps } from './options';

const STEP_KINDS = new Set<number>([
  EV.WMARK_CHECK,
  EV.ZONE_FALLBACK,
  EV.MM_PAGE_ALLOC,
  EV.ALLOC_FAIL,
  EV.KSWAPD_WAKE,
]);

type Outcome = 'pass' | 'fail' | 'skip' | 'used';

function outcomeOf(e: SimEvent): Outcome | null {
  if (e.kind === EV.WMARK_CHECK) return e.c ? 'pass' : 'fail';
  if (e.kind === EV.ZONE_FALLBACK) return 'skip';
  if (e.kind === EV.MM_PAGE_ALLOC && e.b === 1) return 'used';
  return null;
}

/** Consecutive equal outcomes as [outcome, count] (a retried walk repeats the same checks). */
function runs(os: Outcome[]): [Outcome, number][] {
  const out: [Outcome, number][] = [];
  for (let i = 0; i < os.length; i++) {
    const o = os[i];
    if (!o || (o === 'skip' && os[i - 1] === 'fail')) continue; // a failed check implies moving on
    const last = out[out.length - 1];
    if (last && last[0] === o) last[1]++;
    else out.push([o, 1]);
  }
  return out;
}

const OUTCOME_WORDS: Record<Outcome, string> = {
  pass: 'watermark ok',
  fail: 'below watermark, moved on',
  skip: 'moved on',
  used: 'block taken',
};

export function AllocWalk({ state, event, opEvents }: ViewProps) {
  const hid = useId();
  const steps = opEvents.filter((e) => STEP_KINDS.has(e.kind));
  const alloc = opEvents.find((e) => e.kind === EV.MM_PAGE_ALLOC);
  const nodes = state.nodes.length;
  const cpu = alloc?.cpu ?? steps[0]?.cpu ?? 0;
  const node = state.cpus[cpu]?.node ?? 0;
  const zonelist = state.nodes[node]?.zonelist ?? [];
  const populated = zonelist.filter((r) =>
    (state.nodes[r.node]?.zones ?? []).some((z) => z.idx === r.zone && z.managed > 0),
  );
  const outcomes = new Map<string, Outcome[]>();
  for (const e of steps) {
    const o = outcomeOf(e);
    if (!o) continue;
    const k = `${e.node}-${e.zone}`;
    outcomes.set(k, [...(outcomes.get(k) ?? []), o]);
  }
  const label = (n: number, z: number) => (nodes > 1 ? `N${n} ${zoneName(z)}` : zoneName(z));

  return (
    <section className="view alloc-walk" {...eventAttrs(event)}>
      <header className="view-head">
        <h3 id={hid}>Allocation walk</h3>
      </header>
      {steps.length === 0 ? (
        <p className="muted">
          This op made no allocation decision (no watermark check or zone fallback).
        </p>
      ) : (
        <>
          <p className="small">
            CPU {cpu} on node {node} tries its zonelist in this order:
          </p>
          <ol className="zonelist">
            {populated.map((r) => {
              const k = `${r.node}-${r.zone}`;
              const os = outcomes.get(k) ?? [];
              const lit =
                !!event &&
                event.node === r.node &&
                event.zone === r.zone &&
                STEP_KINDS.has(event.kind);
              return (
                <li
                  key={k}
                  className={`zl${lit ? ' lit' : ''}`}
                  data-highlighted={lit || undefined}
                >
                  <strong>{label(r.node, r.zone)}</strong>
                  <span className="small">
                    {os.length === 0
                      ? 'not reached'
                      : runs(os).map(([o, n], i) => (
                          <span key={i} className={`outcome ${o}`}>
                            {OUTCOME_WORDS[o]}
                            {n > 1 ? ` ×${n}` : ''}
                          </span>
                        ))}
                  </span>
                </li>
              );
            })}
          </ol>
          <ol className="walk-steps small">
            {steps.map((e) => {
              const lit = event?.seq === e.seq;
              return (
                <li
                  key={e.seq}
                  className={lit ? 'lit' : undefined}
                  aria-current={lit ? 'step' : undefined}
                  data-highlighted={lit || undefined}
                  data-seq={e.seq}
                >
                  {narrate(e, nodes).text}
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}
