// Vitest runs the unit, binding and lesson tests in Node, from the repository root so tests can
// live beside what they test (web/, lessons/, scripts/, docs/). End-to-end tests (e2e/) belong to Playwright.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: '.',
    environment: 'node',
    include: ['{web,lessons,scripts,tests,docs}/**/*.test.{ts,tsx,mjs}'],
    exclude: ['**/node_modules/**', 'dist/**', 'e2e/**'],
    passWithNoTests: true,
  },
});
