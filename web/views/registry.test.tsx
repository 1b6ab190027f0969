// The view registry: every view a lesson can name is registered, and each entry, drawn by name
// through RegisteredView, renders the view it says (its title as its heading) with the options
// it needs, at the machine's current event.
import { describe, expect, it } from 'vitest';
import { compileText } from '../app/compile';
import { prerender } from '../app/static-markup';
import { Session } from '../app/session';
import { loadCore } from '../core/module';
import { COMPARE_VIEWS, RegisteredView, VIEW_ORDER, VIEWS } from './registry';
import { VIEW_NAMES } from './view-names';

/** Render with every lazy view loaded (the memory map), as the browser shows it. */
const html = (node: React.ReactNode): Promise<string> => prerender(node);

const escape = (s: string) => s.replace(/&/g, '&amp;');

describe('view registry', async () => {
  const core = await loadCore();

  it('holds exactly the views lessons can name', () => {
    expect([...VIEW_ORDER].sort()).toEqual([...VIEW_NAMES].sort());
    expect(COMPARE_VIEWS).toEqual([
      'memory-map',
      'pcp',
      'counters',
      'node-counters',
      'fault-lanes',
      'fault-vmas',
    ]);
  });

  it('draws each view by name, titled as registered, at the current event', async () => {
    const out = compileText('machine small\ncpu 0 alloc a order=2\ncpu 1 alloc b order=0\n');
    if (!out.ok) throw new Error(out.error.message);
    const session = new Session(core, out.program);
    const other = new Session(core, out.program);
    try {
      session.player.seekOp(2);
      session.player.stepEvent(-1);
      const event = session.player.currentEvent;
      expect(event).not.toBeNull();
      for (const name of VIEW_ORDER) {
        const h = await html(
          <RegisteredView
            name={name}
            machine={session}
            event={event}
            opEvents={session.player.currentOpEvents}
            other={other.state()}
            theme="light"
            reducedMotion
          />,
        );
        expect(h, name).toMatch(new RegExp(`<h3[^>]*>${escape(VIEWS[name].title)}</h3>`));
        expect(h, name).toContain(`data-event-seq="${event?.seq}"`);
      }
    } finally {
      session.dispose();
      other.dispose();
    }
  });
});
