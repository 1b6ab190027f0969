// The percpu views in the registry: hidden in the playground until a percpu request is made
// (the area map only under the area map allocator), and drawn from a real machine's state.
import { describe, expect, it } from 'vitest';
import { compileText } from '../../app/compile';
import { Session } from '../../app/session';
import { loadCore } from '../../core/module';
import { VIEWS } from '../registry';

describe('percpu views in the registry', async () => {
  const core = await loadCore();
  const stateOf = (text: string) => {
    const out = compileText(text);
    if (!out.ok) throw new Error(out.error.message);
    const s = new Session(core, out.program);
    s.player.seekOp(out.program.ops.length);
    return { s, state: s.state() };
  };

  it('show once a percpu request was made, the area map only on 4.13', () => {
    const pages = stateOf('cpu 0 alloc a order=1\n');
    const v618 = stateOf('percpu alloc a size=16\n');
    const v413 = stateOf('profile 4.13\npercpu alloc a size=16\n');
    const shows = (name: 'percpu-chunks' | 'percpu-map', st: typeof pages.state) =>
      VIEWS[name].shows?.(st) ?? true;
    expect(shows('percpu-chunks', pages.state)).toBe(false);
    expect(shows('percpu-chunks', v618.state)).toBe(true);
    expect(shows('percpu-map', v618.state)).toBe(false);
    expect(shows('percpu-map', v413.state)).toBe(true);
    // the adapter reads the first chunk's detail through the session's reader
    const first = v618.state.percpu?.chunks[0];
    expect(first?.nrPages).toBe(8);
    expect(
      v618.s
        .percpuReader()
        .populated(first?.index ?? 0)
        .every(Boolean),
    ).toBe(true);
    for (const x of [pages, v618, v413]) x.s.dispose();
  });
});
