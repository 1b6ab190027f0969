// react-alias.ts: the site renders with Preact's React-compatible layer (preact/compat), not
// React, to keep the first load under the 200 KiB gzip budget (react-dom alone is ~60 KiB gzip,
// preact/compat ~4). The code is written against React's API and typed by @types/react; the
// build (vite.config.ts) and the unit tests (vitest.config.ts) resolve React's modules to Preact's.
import type { Alias } from 'vite';

export const reactOnPreact: Alias[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];
