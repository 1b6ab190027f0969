// The map's canvas text: never under 12 px, and 18 px when presenting (issue 14's text sizes,
// which the DOM checks of the e2e suite cannot see inside a canvas).
import { describe, expect, it } from 'vitest';
import {
  drawBlocks,
  drawEvent,
  drawZones,
  LABEL_PX,
  PRESENTING_LABEL_PX,
  type Grid,
} from './memory-map-draw';

/** A 2D context that records every font set and every text drawn; draws nothing. */
function recordingContext() {
  const fonts: string[] = [];
  const texts: string[] = [];
  const at: { x: number; y: number }[] = [];
  const target: Record<string | symbol, unknown> = {
    measureText: (s: string) => ({ width: s.length * 7 }),
    fillText: (s: string, x: number, y: number) => {
      texts.push(s);
      at.push({ x, y });
    },
  };
  const ctx = new Proxy(target, {
    get: (t, k) => (k in t ? t[k] : () => undefined),
    set: (t, k, v) => {
      if (k === 'font') fonts.push(String(v));
      t[k] = v;
      return true;
    },
  });
  return { ctx: ctx as unknown as CanvasRenderingContext2D, fonts, texts, at };
}

function sizes(fonts: string[]): number[] {
  return fonts.map((f) => Number(/(\d+(?:\.\d+)?)px/.exec(f)?.[1] ?? NaN));
}

describe('memory map labels', () => {
  for (const [setting, px] of [
    ['normal', LABEL_PX],
    ['presenting', PRESENTING_LABEL_PX],
  ] as const) {
    it(`are ${px} px or more (${setting})`, () => {
      const g: Grid = { start: 0, per: 1, cols: 16, rows: 16, cell: 40, label: px };
      const { ctx, fonts, texts } = recordingContext();
      drawBlocks(ctx, g, [{ pfn: 0, order: 6 }], 'light');
      drawZones(ctx, g, [{ name: 'Normal', lo: 64, hi: 256 }], 'light');
      drawEvent(
        ctx,
        g,
        {
          kind: 'split',
          before: [{ pfn: 0, size: 64 }],
          after: [
            { pfn: 0, size: 32 },
            { pfn: 32, size: 32 },
          ],
          label: 'split',
        },
        1,
        'light',
      );
      expect(texts.length).toBeGreaterThan(1);
      expect(fonts.length).toBeGreaterThan(1);
      for (const size of sizes(fonts)) expect(size).toBeGreaterThanOrEqual(px);
      expect(px).toBeGreaterThanOrEqual(12);
    });
  }
});

describe('zone names on the map', () => {
  it('do not overlap when zones begin in the same cell (DMA and DMA32 on a 1 TiB map)', () => {
    const g: Grid = { start: 0, per: 1 << 20, cols: 16, rows: 16, cell: 40, label: 12 };
    const { ctx, texts, at } = recordingContext();
    drawZones(
      ctx,
      g,
      [
        { name: 'DMA', lo: 1, hi: 4096 },
        { name: 'DMA32', lo: 4096, hi: 1 << 20 },
        { name: 'Normal', lo: 1 << 20, hi: 1 << 28 },
      ],
      'light',
    );
    expect(texts).toEqual(['DMA', 'DMA32', 'Normal']);
    const [dma, dma32] = at;
    // measureText gives 7 px a character: DMA's label is 3 * 7 + 6 px wide
    expect((dma32?.x ?? 0) - (dma?.x ?? 0)).toBeGreaterThanOrEqual(3 * 7 + 6);
    expect(dma32?.y).toBe(dma?.y);
  });
});
