// console.ts: the one way the specs fail a test whose page logged an error (or a warning) or threw.
import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';

/** The console message types a spec refuses by default. */
const REFUSED: readonly string[] = ['error', 'warning'];

/** Collect into problems every refused console message and every uncaught error of page. */
export function watchConsole(page: Page, problems: string[], kinds = REFUSED): void {
  page.on('console', (msg: ConsoleMessage) => {
    if (kinds.includes(msg.type())) problems.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
}

/**
 * In the enclosing describe, fail each test whose page logged a refused message or threw. Returns
 * a function that watches another page of the test (a popup) into the same list.
 */
export function failOnConsoleProblems(kinds = REFUSED): (page: Page) => void {
  let problems: string[] = [];
  test.beforeEach(({ page }) => {
    problems = [];
    watchConsole(page, problems, kinds);
  });
  test.afterEach(() => {
    expect(problems).toEqual([]);
  });
  return (page) => watchConsole(page, problems, kinds);
}
