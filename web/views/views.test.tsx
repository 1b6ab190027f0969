// Every view is a pure function of (state, event, options): render each one to HTML on every
// preset machine and profile, at an event, and check it marks that event and nothing throws.
import { renderToStaticMarkup } from '../app/static-markup';
import { describe, expect, it } from 'vitest';
import { compileText } from '../app/compile';
import { loadCore } from '../core/module';
import { PROFILE_NAMES } from '../core/machine-config';
import { readFileSync } from 'node:fs';
import { machineFromCapture } from '../workload/captured-state';
import { Player } from '../player/player';
import { AllocWalk } from './AllocWalk';
import { Counters } from './Counters';
import { bootedWords, EventLog } from './EventLog';
import { FreeAreas } from './FreeAreas';
import { MemoryMap } from './MemoryMap';
import { PcpLists } from './PcpLists';
import { ProcText } from './ProcText';
import { Zones } from './Zones';

const MACHINES = ['tiny', 'classroom', 'small', 'laptop', 'server2'];

describe('views', async () => {
  const core = await loadCore();

  for (const machine of MACHINES) {
    // nine profiles on the 8-CPU machines: seconds on a loaded 2-core machine
    it(
      `render on ${machine} under every profile, marking the current event`,
      { timeout: 30_000 },
      () => {
        for (const profile of PROFILE_NAMES) {
          const out = compileText(
            `machine ${machine}\nprofile ${profile}\nrepeat 4 {\n cpu 1 alloc a order=1\n cpu 0 alloc b order=3 GFP_HIGHUSER_MOVABLE\n}\ncpu 0 free b *\ndrain all\n`,
          );
          if (!out.ok) throw new Error(out.error.message);
          const sim = core.createSim(out.program.config);
          const p = new Player(sim, out.program.ops);
          p.seekOp(3);
          p.stepEvent(-1);
          const state = sim.state();
          const event = p.currentEvent;
          expect(event).not.toBeNull();
          const props = {
            state,
            event,
            opEvents: p.currentOpEvents,
            options: { theme: 'light' as const, reducedMotion: true },
          };
          const html = [
            renderToStaticMarkup(<MemoryMap {...props} />),
            renderToStaticMarkup(
              <EventLog
                {...props}
                options={{ ...props.options, op: p.ops.at(2), opIndex: 2, opError: 0 }}
              />,
            ),
            renderToStaticMarkup(<AllocWalk {...props} />),
            renderToStaticMarkup(<FreeAreas {...props} />),
            renderToStaticMarkup(<PcpLists {...props} />),
            renderToStaticMarkup(<Zones {...props} />),
            renderToStaticMarkup(
              <Counters {...props} options={{ ...props.options, compare: state }} />,
            ),
            renderToStaticMarkup(
              <ProcText {...props} options={{ ...props.options, proc: (f) => sim.proc(f) }} />,
            ),
          ];
          for (const h of html) expect(h).toContain(`data-event-seq="${event?.seq}"`);
          expect(html[1]).toContain('aria-current="step"');
          sim.dispose();
        }
      },
    );
  }

  it('say before the first op whether the machine booted all free or in a captured state', () => {
    const booted = (text: string, zoneinfo?: string) => {
      const m = zoneinfo ? machineFromCapture({ name: 'zoneinfo', text: zoneinfo }, {}) : null;
      if (m && !m.ok) throw new Error(m.error.message);
      const out = compileText(text, m?.machine);
      if (!out.ok) throw new Error(out.error.message);
      const sim = core.createSim(out.program.config);
      const words = bootedWords(sim.state());
      sim.dispose();
      return words;
    };
    expect(booted('machine tiny\ncpu 0 alloc a\n')).toBe(
      'The machine as booted: every managed page is free.',
    );
    const zoneinfo = readFileSync(
      new URL('../../traces/captured/kswapd/zoneinfo', import.meta.url),
      'utf8',
    );
    expect(booted('cpu 0 alloc a\n', zoneinfo)).toMatch(
      /^The machine as booted in its captured state: [\d,]+ of [\d,]+ managed pages free, the rest in use as the capture showed it\.$/,
    );
  });
});
