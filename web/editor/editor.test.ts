// The editor's pieces that need no DOM: word roles, completion by position, error ranges.
import { Text } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { optionsFor } from './complete';
import { errorRange } from './lint';
import { roleOf } from './vocabulary';

const labels = (before: string) => optionsFor(before).map((o) => o.label);

describe('workload editor', () => {
  it('knows each word’s role', () => {
    expect(
      ['alloc', 'tiny', '6.18', 'GFP_KERNEL', '__GFP_COMP', 'order', '0x1f', 'buf'].map(roleOf),
    ).toEqual(['keyword', 'atom', 'atom', 'flag', 'flag', 'key', 'number', 'name']);
  });

  it('completes what may come next', () => {
    expect(labels('')).toContain('machine');
    expect(labels('machine ')).toEqual(expect.arrayContaining(['tiny', 'laptop', 'nodes=']));
    expect(labels('profile ')).toEqual(expect.arrayContaining(['6.18', '2016-prefix']));
    expect(labels('set ')).toContain('watermark_scale_factor=');
    expect(labels('cpu 0 ')).toContain('alloc');
    expect(labels('cpu 0 alloc a ')).toEqual(
      expect.arrayContaining(['order=', 'GFP_KERNEL', '__GFP_COMP']),
    );
    expect(labels('cpu 0 alloc a GFP_KERNEL|')).toContain('__GFP_COMP');
    expect(labels('cpu 0 alloc ')).toEqual([]); // a group name comes here: nothing to offer
    expect(labels('drain ')).toEqual(['all']);
  });

  it('places an error over the word at its column, clamped to the line', () => {
    const doc = Text.of(['machine tiny', 'cpu 0 alloc a GFP_KERNAL', '']);
    const r = errorRange(doc, { line: 2, col: 15, message: '' });
    expect(doc.sliceString(r.from, r.to)).toBe('GFP_KERNAL');
    const far = errorRange(doc, { line: 99, col: 99, message: '' });
    expect(far.from).toBeLessThanOrEqual(doc.length);
  });
});
