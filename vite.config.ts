// Vite builds the static site from web/. The wasm module is generated into web/core/generated/
// (by `make -C wasm-core wasm`), inside the source tree, so Vite sees its
// `new URL('buddyscope.wasm', import.meta.url)` and emits a hashed .wasm next to the JS.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { reactOnPreact } from './web/compat/react-alias';
import { lessonSchemaPlugin } from './web/lessons/vite-plugin';
import { markdownTreePlugin } from './web/markdown/vite-plugin';
import { workloadProgramPlugin } from './web/workload/vite-plugin';
import { contentSecurityPolicy } from './web/security/vite-plugin';

const repo = fileURLToPath(new URL('.', import.meta.url));

// Where the site is hosted: '/' locally, '/<repo>/' on GitHub Pages, '/buddyscope/' in the e2e run.
function basePath(): string {
  const base = process.env.BUDDYSCOPE_BASE ?? '/';
  return base.endsWith('/') ? base : `${base}/`;
}

export default defineConfig({
  root: `${repo}web`,
  base: basePath(),
  publicDir: `${repo}public`,
  // React's modules resolve to preact/compat (web/compat/react-alias.ts): the same components,
  // 58 KiB less JS gzip on the first load. Fast Refresh is off (refreshExclude): its runtime
  // patches React's renderer, which is not there; an edited module reloads the page in dev.
  resolve: { alias: reactOnPreact },
  plugins: [
    react({ refreshExclude: /./ }),
    lessonSchemaPlugin(repo),
    markdownTreePlugin(),
    workloadProgramPlugin(),
    contentSecurityPolicy(),
  ],
  build: {
    outDir: `${repo}dist`,
    emptyOutDir: true,
  },
  server: {
    // Lessons and shared fixtures live beside web/, outside Vite's root.
    fs: { allow: [repo] },
  },
});
