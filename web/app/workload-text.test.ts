import { describe, expect, it } from 'vitest';
import { appendStatement, headerValue, setHeader, setSysctl, sysctlValue } from './workload-text';

describe('workload text edits', () => {
  const text = '# demo\nmachine tiny\nprofile 6.18\n\ncpu 0 alloc a\n';
  it('replaces and inserts header lines', () => {
    expect(setHeader(text, 'profile', '5.13')).toContain('profile 5.13\n');
    expect(headerValue(setHeader(text, 'machine', 'small'), 'machine')).toBe('small');
    const seeded = setHeader(text, 'seed', '9');
    expect(seeded.indexOf('seed 9')).toBeLessThan(seeded.indexOf('cpu 0'));
  });
  it('sets a sysctl once', () => {
    const a = setSysctl(text, 'watermark_scale_factor', '100');
    const b = setSysctl(a, 'watermark_scale_factor', '200');
    expect(sysctlValue(b, 'watermark_scale_factor')).toBe('200');
    expect(b.match(/watermark_scale_factor/g)).toHaveLength(1);
  });
  it('appends statements', () => {
    expect(appendStatement(text, 'drain all').endsWith('cpu 0 alloc a\ndrain all\n')).toBe(true);
  });
});
