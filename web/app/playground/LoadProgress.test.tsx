// The load's progress bar: labelled, with its value and percentage; the live region speaks in
// quarters only; while compiling the bar has no value (indeterminate).
import { createElement } from 'react';
import { renderToStaticMarkup } from '../static-markup';
import { describe, expect, it } from 'vitest';
import { LoadProgress } from './LoadProgress';

const html = (done: number, total: number) =>
  renderToStaticMarkup(
    createElement(LoadProgress, { loading: { done, total }, onCancel: () => {} }),
  );

describe('LoadProgress', () => {
  it('labels the bar and gives its value, percentage and ops', () => {
    const h = html(840_000, 2_000_000);
    expect(h).toMatch(/<label>Loading the workload <progress max="100" value="42"/);
    expect(h).toContain('aria-valuetext="42%, 840,000 of 2,000,000 ops"');
    expect(h).toMatch(/role="status" aria-live="polite">Loading the workload: 25%</);
    expect(h).toMatch(/<button type="button">Cancel<\/button>/);
  });

  it('is indeterminate while compiling', () => {
    const h = html(0, 0);
    expect(h).toMatch(/<label>Compiling the workload <progress max="100"><\/progress>/);
    expect(h).toMatch(/aria-live="polite">Compiling</);
  });
});
