// The default Trusted Types policy's rule: which script URLs a sink may load.
import { describe, expect, it } from 'vitest';
import { allowedScriptUrl } from './trusted-types';

const page = 'https://example.org/buddyscope/#/playground';

describe('allowedScriptUrl', () => {
  it('admits a bundled .js file of the site, absolute or relative', () => {
    const worker = 'https://example.org/buddyscope/assets/compile-worker-DBtIoa9f.js';
    expect(allowedScriptUrl(worker, page, '/buddyscope/')).toBe(worker);
    expect(allowedScriptUrl('/buddyscope/assets/w.js', page, '/buddyscope/')).toBe(
      'https://example.org/buddyscope/assets/w.js',
    );
  });

  it('refuses another origin, another path, other kinds of URL and non-scripts', () => {
    for (const url of [
      'https://evil.example/buddyscope/assets/w.js',
      '//evil.example/buddyscope/assets/w.js',
      'https://example.org/other/w.js',
      'https://example.org/buddyscope/../other/w.js',
      'data:text/javascript,alert(1)',
      'blob:https://example.org/0b6e4f2c',
      'javascript:alert(1)',
      'https://example.org/buddyscope/assets/w.js?x=1',
      'https://example.org/buddyscope/assets/w.json',
      'http://[::1',
    ])
      expect(allowedScriptUrl(url, page, '/buddyscope/'), url).toBeNull();
  });
});
