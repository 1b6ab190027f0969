// The NUMA views: the node counters read from the state equal what the core prints as
// /sys/devices/system/node/nodeN/numastat, line for line; a step's change is said; the view joins
// the playground only on a machine of two nodes or more; and the memory map of a NUMA machine is
// one map per node, each headed with its CPUs, the event outlined on its own node's map only.
import { describe, expect, it } from 'vitest';
import { compileText } from '../../app/compile';
import { prerender } from '../../app/static-markup';
import { Session } from '../../app/session';
import { loadCore } from '../../core/module';
import { RegisteredView, VIEWS } from '../registry';
import { describeChange, NODE_ROWS, nodeFigures } from './node-counters';

/** Two nodes of 1024 pages and 2 CPUs each; CPU 0 (node 0) allocates until its pages spill onto node 1. */
const SPILL = 'machine nodes=2 cpus=2 normal=1024\nrepeat 1100 {\n  cpu 0 alloc a order=0\n}\n';

/** The core's numastat text as { node: { name: value } }. */
function parseNumastat(text: string): Record<number, Record<string, number>> {
  const out: Record<number, Record<string, number>> = {};
  let node = -1;
  for (const line of text.split('\n')) {
    const head = /node(\d+)\/numastat/.exec(line);
    if (head) node = Number(head[1]);
    const kv = /^(\w+) (\d+)$/.exec(line);
    if (kv && node >= 0) (out[node] ??= {})[kv[1] ?? ''] = Number(kv[2]);
  }
  return out;
}

describe('NUMA views', async () => {
  const core = await loadCore();

  function session(text: string): Session {
    const out = compileText(text);
    if (!out.ok) throw new Error(out.error.message);
    const s = new Session(core, out.program);
    s.player.seekOp(s.player.length);
    return s;
  }

  it('reads each node’s numastat lines from the state exactly as the core prints them', () => {
    const s = session(SPILL);
    try {
      const printed = parseNumastat(s.proc('numastat'));
      const figures = nodeFigures(s.state());
      const numastat = NODE_ROWS.map(([name]) => name).filter((n) => n !== 'free pages');
      expect(Object.keys(printed)).toEqual(['0', '1']);
      for (const nid of [0, 1]) {
        expect(Object.keys(printed[nid] ?? {})).toEqual(numastat);
        for (const name of numastat)
          expect(
            figures[nid]?.[NODE_ROWS.findIndex(([n]) => n === name)],
            `node ${nid} ${name}`,
          ).toBe(printed[nid]?.[name]);
      }
      // the spill: node 1 served node 0's CPU, which wanted node 0
      const at = (nid: number, name: string) =>
        figures[nid]?.[NODE_ROWS.findIndex(([n]) => n === name)] ?? 0;
      expect(at(1, 'numa_miss')).toBeGreaterThan(0);
      expect(at(0, 'numa_foreign')).toBe(at(1, 'numa_miss'));
      expect(at(1, 'other_node')).toBe(at(1, 'numa_miss'));
      expect(at(0, 'free pages')).toBe(
        s.state().nodes[0]?.zones.reduce((t, z) => t + z.nrFreePages, 0),
      );
    } finally {
      s.dispose();
    }
  });

  it('says what a step changed', () => {
    const before = [
      [5, 0, 0, 0, 5, 0, 100],
      [0, 0, 0, 0, 0, 0, 100],
    ];
    const after = [
      [5, 0, 1, 0, 5, 0, 100],
      [0, 1, 0, 0, 0, 1, 99],
    ];
    expect(describeChange(before, after)).toBe(
      'node 0: numa_foreign +1; node 1: numa_miss +1, other_node +1',
    );
    expect(describeChange(after, after)).toBe('');
  });

  it('shows the node counters only on a machine of two nodes or more', () => {
    const one = session('machine small\ncpu 0 alloc a order=0\n');
    const two = session(SPILL);
    try {
      expect(VIEWS['node-counters'].shows?.(one.state())).toBe(false);
      expect(VIEWS['node-counters'].shows?.(two.state())).toBe(true);
    } finally {
      one.dispose();
      two.dispose();
    }
  });

  it('draws one memory map per node, headed with its CPUs, the event on its own node only', async () => {
    const s = session(SPILL);
    try {
      const event = s.player.currentEvent;
      expect(event?.node).toBe(1);
      const h = await prerender(
        <RegisteredView
          name="memory-map"
          machine={s}
          event={event}
          opEvents={s.player.currentOpEvents}
          other={null}
          theme="light"
          reducedMotion
        />,
      );
      expect(h).toMatch(/<h3[^>]*>Node 0 · CPUs 0-1<\/h3>/);
      expect(h).toMatch(/<h3[^>]*>Node 1 · CPUs 2-3<\/h3>/);
      expect(h.match(/data-node="(\d)"[^>]*data-event-here="(true|false)"/g)).toEqual([
        'data-node="0" data-event-here="false"',
        'data-node="1" data-event-here="true"',
      ]);
      // the legend once, under the last map
      expect(h.match(/class="legend"/g)?.length).toBe(1);
      const counters = await prerender(
        <RegisteredView
          name="node-counters"
          machine={s}
          event={event}
          opEvents={s.player.currentOpEvents}
          other={s.state()}
          theme="light"
          reducedMotion
        />,
      );
      expect(counters).toContain('node1/numastat · CPUs 2-3');
      expect(counters).toContain('the same as');
    } finally {
      s.dispose();
    }
  });
});
