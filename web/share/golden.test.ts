/*
 * Golden links: links committed once (fixtures/golden-links.json) must keep decoding to the same
 * state, and, while the model version is the one that made them, produce the same events at their
 * position. A new link format adds a decoder and keeps these passing; a model change that alters
 * events bumps SIM_MODEL_VERSION and regenerates the events (the decoded state must not change).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCore, type Core } from '../core/module';
import { decodeState } from './link';
import { replayState } from './replay';
import type { ShareState } from './state';

interface Golden {
  name: string;
  link: string;
  state: ShareState;
  currentSeq: number;
  events: number[][]; // [seq, kind, cpu, pfn, order, mt] of every event of the op at the position
  trace: string;
}

const GOLDEN = JSON.parse(
  readFileSync(new URL('./fixtures/golden-links.json', import.meta.url), 'utf8'),
) as Golden[];

let core: Core;
beforeAll(async () => {
  core = await loadCore();
});

describe('golden links', () => {
  it('cover a preset machine, sysctls with a comparison, and a real zoneinfo machine', () => {
    expect(GOLDEN.length).toBeGreaterThanOrEqual(3);
    expect(GOLDEN.some((g) => g.state.machine !== null)).toBe(true);
    expect(GOLDEN.some((g) => g.state.views.compare !== null)).toBe(true);
  });

  for (const g of GOLDEN) {
    it(`${g.name}: decodes to the same state and the same events at its position`, async () => {
      const d = await decodeState(g.link);
      if (!d.ok) throw new Error(`${d.error.col}: ${d.error.message}`);
      expect(d.state).toEqual(g.state);
      const r = replayState(core, d.state);
      if (!r.ok) throw new Error(r.error.message);
      try {
        expect(r.player.position).toEqual(g.state.position);
        if (d.modelVersion !== core.modelVersion()) {
          // A newer model may decide differently: the link still opens the same workload and step.
          console.warn(
            `${g.name}: made with model ${d.modelVersion}, running ${core.modelVersion()}: regenerate its events`,
          );
          return;
        }
        const events = r.player.currentOpEvents.map((e) => [
          e.seq,
          e.kind,
          e.cpu,
          e.pfn,
          e.order,
          e.mt,
        ]);
        expect(events).toEqual(g.events);
        expect(r.player.currentEvent?.seq ?? -1).toBe(g.currentSeq);
        expect(r.sim.trace()).toBe(g.trace);
      } finally {
        r.sim.dispose();
      }
    });
  }
});
