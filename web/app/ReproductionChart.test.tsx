// The reproduction chart is a pure function of a result: its text alternative reads every figure,
// and a source mark is drawn exactly where the source gives a figure.
import { renderToStaticMarkup } from './static-markup';
import { describe, expect, it } from 'vitest';
import type { ReproductionResult } from '../reproductions/types';
import { ReproductionChart } from './ReproductionChart';

const RESULT: ReproductionResult = {
  seed: 'seed-x',
  title: 'A test seed',
  rows: [
    { metric: 'lock_takes', unit: 'acquisitions', model: { '5.13': 384, '6.18': 11 }, seed: {} },
    { metric: 'drained', unit: 'pages', model: { '2016-v5': 9 }, seed: { '2016-v5': 12 } },
  ],
  notes: '',
};

describe('ReproductionChart', () => {
  const html = renderToStaticMarkup(<ReproductionChart result={RESULT} />);

  it('is one image named by its title and described by every figure', () => {
    expect(html).toMatch(/^<svg[^>]* role="img" aria-labelledby="[^"]+" aria-describedby="[^"]+"/);
    expect(html).toContain('<desc id="' /* the description element the svg points at */);
    expect(html).toContain(
      'lock_takes in acquisitions: 5.13 384, 6.18 11. drained in pages: 2016-v5 9 (source 12)',
    );
  });

  it('draws a bar per profile and a source mark only where the source gives a figure', () => {
    expect(html.match(/class="repro-bar"/g)).toHaveLength(3);
    expect(html.match(/class="repro-seed"/g)).toHaveLength(1);
    expect(html).toContain('9 · source 12');
  });

  it('scales each panel to its own largest figure, the source included', () => {
    // The longest bar of each panel ends at the same x; in the second the source's 12 is longest.
    const widths = [
      ...html.matchAll(/class="repro-bar" x="(\d+)" y="[\d.]+" width="([\d.]+)"/g),
    ].map((m) => Number(m[2]));
    expect(widths[0]).toBeGreaterThan(widths[1] ?? Infinity);
    const full = widths[0] ?? 0;
    expect(widths[2]).toBeCloseTo((full * 9) / 12, 5);
  });
});
