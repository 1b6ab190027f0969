// The playground as a test sees it: actions a reader takes, and the model behind the views read
// through window.__buddyscope (present in builds made with VITE_TEST_API=1).
import { expect, type Locator, type Page } from '@playwright/test';

export interface ModelView {
  op: number;
  event: number;
  globalEvent: number;
  length: number;
  totalEvents: number;
  seq: number; // current event's seq, -1 at none
  kind: number;
  profile: string;
  branches: number;
  compareOp: number | null;
}

/** The views the playground draws for a page-allocator workload (percpu views wait for percpu requests). */
export const PLAYGROUND_VIEWS = 11;

export class PlaygroundPage {
  readonly editor: Locator;
  readonly transport: Locator;
  readonly scrubber: Locator;

  constructor(readonly page: Page) {
    this.editor = page.getByRole('textbox', { name: /^Workload/ });
    this.transport = page.getByRole('group', { name: 'Timeline' });
    this.scrubber = page.getByRole('slider', { name: 'Scrub through events' });
  }

  async goto(): Promise<void> {
    await this.page.goto('./#/playground');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Playground' })).toBeVisible();
    await expect(this.transport).toBeVisible();
    await this.page.waitForFunction(() => !!window.__buddyscope);
    // The CodeMirror editor replaces the plain textarea once its chunk has loaded.
    await expect(this.page.locator('.cm-content')).toBeVisible();
  }

  /**
   * Replace the workload text as a reader pasting it would: select all, then a paste event that
   * CodeMirror handles. Not fill(): Chromium's own editing command for a multi-line insert writes
   * style attributes into the new lines, which the site's CSP refuses (and logs as an error).
   */
  async setText(text: string): Promise<void> {
    await this.editor.click();
    await this.page.keyboard.press('ControlOrMeta+a');
    const unhandled = await this.editor.evaluate((el, t) => {
      const data = new DataTransfer();
      data.setData('text/plain', t);
      return el.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, text);
    expect(unhandled, 'the editor took the paste').toBe(false);
  }

  /**
   * Let the sticky transport scroll away, so it does not cover the top of element screenshots.
   * Through the CSSOM: an injected <style> element would be refused by the site's CSP.
   */
  async unstickTransport(): Promise<void> {
    await this.page
      .locator('.transport')
      .evaluateAll((els) =>
        els.forEach((el) =>
          (el as HTMLElement).style.setProperty('position', 'static', 'important'),
        ),
      );
  }

  /** Replace the workload text and run it. */
  async run(text: string): Promise<void> {
    await this.setText(text);
    await this.page.getByRole('button', { name: 'Run workload' }).click();
    await expect(this.page.locator('#workload-error')).toHaveCount(0);
  }

  /** Press a timeline key with focus away from any field (keys in fields type, they do not step). */
  async key(chord: string, times = 1): Promise<void> {
    await this.page.locator('h1').click();
    for (let i = 0; i < times; i++) await this.page.keyboard.press(chord);
  }

  async model(): Promise<ModelView> {
    return this.page.evaluate(() => {
      const api = window.__buddyscope;
      if (!api) throw new Error('no test API: build with VITE_TEST_API=1');
      const p = api.player;
      const e = api.currentEvent();
      return {
        op: p.position.op,
        event: p.position.event,
        globalEvent: p.eventIndex,
        length: p.length,
        totalEvents: p.totalEvents,
        seq: e ? e.seq : -1,
        kind: e ? e.kind : 0,
        profile: api.state().profile,
        branches: p.branchList.length,
        compareOp: api.compare ? api.compare.position.op : null,
      };
    });
  }

  /** Every view on the page highlights the core's current event, and the transport shows its position. */
  async expectViewsInSync(): Promise<ModelView> {
    const m = await this.model();
    const views = this.page.locator('.views section.view[data-event-seq]');
    await expect(views).toHaveCount(PLAYGROUND_VIEWS);
    const seqs = await views.evaluateAll((els) =>
      els.map((el) => Number(el.getAttribute('data-event-seq'))),
    );
    expect(seqs).toEqual(seqs.map(() => m.seq));
    await expect(this.transport).toHaveAttribute('data-op', String(m.op));
    await expect(this.transport).toHaveAttribute('data-event', String(m.event));
    // The event log marks exactly the current event.
    const lit = this.page.locator('.event-log li[aria-current="step"]');
    if (m.seq >= 0) await expect(lit).toHaveAttribute('data-seq', String(m.seq));
    else await expect(lit).toHaveCount(0);
    // The live region narrates the same event.
    const narration = this.page.getByTestId('narration');
    if (m.seq >= 0) await expect(narration).toContainText(`Event ${m.event + 1} of `);
    else if (m.op === 0) await expect(narration).toHaveText('The machine as booted.');
    // The memory map shows the model's frames (it repaints only blocks that changed).
    await expect
      .poll(() => this.page.evaluate(() => window.__buddyscope?.mapMismatch() ?? 'no test API'))
      .toBeNull();
    return m;
  }

  view(name: string): Locator {
    return this.page
      .locator('.views section.view')
      .filter({ has: this.page.getByRole('heading', { level: 3, name, exact: true }) });
  }
}
