// react-alias.ts: the site renders with Preact's React-compatible layer (preact/compat), not
// React, to keep the first load under its 200 KiB gzip budget (the home page's JS is 67 KiB gzip
// on Preact, 125 on React and react-dom). The code is written against React's API and typed by
// @types/react; the build (vite.config.ts) and the unit tests (vitest.config.ts) resolve React's
// modules to Preact's. What differs in use is in docs/architecture.md ("Rendering").
import type { Alias } from 'vite';

export const reactOnPreact: Alias[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];
