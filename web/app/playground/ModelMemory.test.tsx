// The model memory readout: bytes in binary units, frames of the pool, checkpoints, and a column
// per machine in compare mode (each its own figures).
import { describe, expect, it } from 'vitest';
import type { MemoryUse } from '../../core/state';
import type { Session } from '../session';
import { renderToStaticMarkup } from '../static-markup';
import { formatBytes, ModelMemory } from './ModelMemory';

/** A session as the readout reads it: the state's memory and max order, the checkpoints. */
function fakeSession(memory: MemoryUse, checkpoints: { count: number; bytes: number }): Session {
  return {
    state: () => ({ memory, maxOrder: 10 }),
    player: { checkpointStats: { ...checkpoints, spacing: 64 } },
  } as unknown as Session;
}

const BIG: MemoryUse = {
  arenaBytes: 178_946_048,
  fixedBytes: 9_000_000,
  slabBytes: 20 * 1024,
  slabsUsed: 1109,
  slabsPeak: 1200,
  nrSlabs: 8195,
};

describe('ModelMemory', () => {
  it('writes bytes in binary units', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.00 MiB');
    expect(formatBytes(178_946_048)).toBe('170.7 MiB');
    expect(formatBytes(2 ** 40)).toBe('1.00 TiB');
  });

  it('says the arena, the frames materialised of the pool and the checkpoints', () => {
    const html = renderToStaticMarkup(
      <ModelMemory
        session={fakeSession(BIG, { count: 5, bytes: 5 * 31_000_000 })}
        compare={null}
        profile="6.18"
        compareProfile={null}
      />,
    );
    expect(html).toContain('170.7 MiB');
    // 1109 blocks of 1024 frames, of a pool of 8195
    expect(html).toContain('1,135,616 of 8,391,680 (14%; peak 1,228,800)');
    expect(html).toContain('5 × 29.6 MiB = 147.8 MiB');
    expect(html).not.toContain('<thead>');
  });

  it('in compare mode, one column per machine, each its own figures', () => {
    const small: MemoryUse = { ...BIG, arenaBytes: 3 * 1024 * 1024, slabsUsed: 0, slabsPeak: 2 };
    const html = renderToStaticMarkup(
      <ModelMemory
        session={fakeSession(BIG, { count: 5, bytes: 5 * 31_000_000 })}
        compare={fakeSession(small, { count: 9, bytes: 9 * 689_000 })}
        profile="6.18"
        compareProfile="5.13"
      />,
    );
    expect(html).toMatch(/<th scope="col">6\.18<\/th><th scope="col">5\.13<\/th>/);
    expect(html).toContain('170.7 MiB');
    expect(html).toContain('3.00 MiB');
    expect(html).toContain('0 of 8,391,680 (0.0%; peak 2,048)');
  });
});
