/*
 * AllocWalk.tsx: how the current allocation went down its zonelist. get_page_from_freelist tries
 * zones in ZONELIST_FALLBACK order; for each it checks a watermark (free pages against the mark
 * plus lowmem_reserve) and either takes a block there or moves on. The steps come from the
 * EV_WMARK_CHECK and EV_ZONE_FALLBACK events of the op at the cursor, in the order they happened,
 * with the zonelist cache's skips and marks (<= 4.3) and what node reclaim scanned and freed. A
 * kernel with a zonelist cache also shows each entry's full bit and how long until the zap.
 */
import { useId } from 'react';
import { EV } from '../core/events';
import { PROFILES } from '../core/generated/profiles';
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
  EV.ZLC_SKIP,
  EV.ZLC_MARK_FULL,
  EV.ZLC_ZAP,
  EV.NODE_RECLAIM_END,
  EV.NODE_RECLAIM,
]);

type Outcome = 'pass' | 'fail' | 'skip' | 'used' | 'zlc' | 'reclaim';

function outcomeOf(e: SimEvent): Outcome | null {
  if (e.kind === EV.WMARK_CHECK) return e.c ? 'pass' : 'fail';
  if (e.kind === EV.ZONE_FALLBACK) return 'skip';
  if (e.kind === EV.MM_PAGE_ALLOC && e.b === 1) return 'used';
  if (e.kind === EV.ZLC_SKIP) return 'zlc';
  if (e.kind === EV.NODE_RECLAIM) return 'reclaim';
  return null;
}

/** CONFIG_HZ of a hz switch value. */
const HZ: Record<string, number> = { HZ_100: 100, HZ_250: 250, HZ_300: 300, HZ_1000: 1000 };

/** What node reclaim did in this zone during the op: its scans summed, and its last result. */
function reclaimWords(opEvents: readonly SimEvent[], n: number, z: number): string | null {
  let scanned = 0;
  let freed = 0;
  let calls = 0;
  for (const e of opEvents) {
    if (e.node !== n || e.zone !== z) continue;
    if (e.kind === EV.NODE_RECLAIM_END) {
      scanned += e.b;
      freed += e.a;
    }
    if (e.kind === EV.NODE_RECLAIM) calls++;
  }
  if (!calls) return null;
  return `node reclaim ×${calls}: scanned ${scanned}, freed ${freed}`;
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
  zlc: 'skipped: marked full (zonelist cache)',
  reclaim: 'node reclaim ran',
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
  // the zonelist cache of the walking node, on kernels that have one
  const profile = PROFILES[state.profileId];
  const zlc = profile?.switches.zlc ? state.nodes[node]?.zlc : undefined;
  const hz = HZ[profile?.switches.hz ?? 'HZ_250'] ?? 250;
  const jiffies = Math.floor(((state.cpus[cpu]?.clockNs ?? 0) * hz) / 1e9);
  const zapIn = zlc ? Math.max(0, zlc.lastFullZap + hz + 1 - jiffies) : 0;
  const slotOf = (n: number, z: number) => zonelist.findIndex((r) => r.node === n && r.zone === z);

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
                  {reclaimWords(opEvents, r.node, r.zone) && (
                    <span className="small">{reclaimWords(opEvents, r.node, r.zone)}</span>
                  )}
                  {zlc && (
                    <span className="small zlc-bit">
                      {zlc.full[slotOf(r.node, r.zone)]
                        ? `zonelist cache: full, zap in ${zapIn} jiffies`
                        : 'zonelist cache: worth trying'}
                    </span>
                  )}
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
