// Vitest runs the unit, binding and lesson tests in Node, from the repository root so tests can
// live beside what they test (web/, lessons/, scripts/, docs/). End-to-end tests (e2e/) belong to Playwright.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { reactOnPreact } from './web/compat/react-alias';
import { lessonSchemaPlugin } from './web/lessons/vite-plugin';
import { markdownTreePlugin } from './web/markdown/vite-plugin';
import { workloadProgramPlugin } from './web/workload/vite-plugin';

const repo = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  // The same build-time compilation as the site: lessons (?lesson), Markdown trees (?md) and
  // workloads (?program).
  plugins: [lessonSchemaPlugin(repo), markdownTreePlugin(), workloadProgramPlugin()],
  // Components render as they ship: on preact/compat (web/compat/react-alias.ts).
  resolve: { alias: reactOnPreact },
  test: {
    root: '.',
    environment: 'node',
    include: ['{web,lessons,scripts,tests,docs}/**/*.test.{ts,tsx,mjs}'],
    exclude: ['**/node_modules/**', 'dist/**', 'e2e/**'],
    passWithNoTests: true,
  },
});
