// Views that teach in a lesson (issue 14, the rest of it): a step that ran can be shown again
// ("Show me again" replays its ops from the step's start; reduced motion shows the end at once),
// without taking the clicker's keys; presenting at 1920x1080 the memory map is larger; in lessons
// the map follows the event on a machine too big for a pixel per frame; and the Code view says
// the deciding kernel function in our pseudocode, the line that decided marked.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { failOnConsoleProblems } from './console.ts';
import { LessonPage } from './pages/LessonPage.ts';
import { PlaygroundPage } from './pages/PlaygroundPage.ts';

interface Position {
  op: number;
  event: number;
  playing: boolean;
}

/** Where the lesson's first machine stands on its timeline. */
function position(page: Page): Promise<Position | null> {
  return page.evaluate(() => window.__buddyscopeLesson?.position() ?? null);
}

/** Lesson 2, step 2 (an order-4 request split twice), answered (which runs it) in the reader. */
async function splittingRan(page: Page): Promise<LessonPage> {
  const l = new LessonPage(page);
  await l.goto('buddy-allocator', 2);
  // the question is revealed by the step: checking the answer runs it
  await l.answer(1, '2');
  await expect(page.getByRole('button', { name: 'Show me again' })).toBeVisible();
  return l;
}

test.describe('views that teach in a lesson', () => {
  test.describe.configure({ timeout: 60_000 });
  failOnConsoleProblems();

  test('Show me again replays the step from its start, by keyboard, and ends where it ran', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const l = await splittingRan(page);
    const end = await position(page);
    expect(end?.playing).toBe(false);
    const ops = (await l.model()).ops;
    expect(end?.op).toBe(ops);
    // Only the step whose ops the views show offers it; keyboard reachable like any button.
    const again = page.getByRole('button', { name: 'Show me again' });
    await expect(again).toHaveCount(1);
    await again.focus();
    await page.keyboard.press('Enter');
    // Back to the state before the step's op, then played event by event through the splits
    // the map and the free lists animate, and it stops where the step ran.
    const seen: Position[] = [];
    const kinds = new Set<string>();
    await expect
      .poll(
        async () => {
          const p = await position(page);
          if (p) seen.push(p);
          kinds.add(
            (await page
              .locator('.lesson-stage section.memory-map')
              .getAttribute('data-event-kind')) ?? '',
          );
          return JSON.stringify(p);
        },
        { timeout: 20_000, intervals: [100] },
      )
      .toBe(JSON.stringify(end));
    expect(seen.some((p) => p.playing)).toBe(true);
    expect(Math.min(...seen.map((p) => p.op))).toBeLessThan(ops);
    expect(kinds.has('11')).toBe(true); // a buddy_split was drawn on the way
    expect((await l.model()).section).toBe(1);
  });

  test('with reduced motion, Show me again shows the end state at once', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 1440, height: 900 });
    const l = await splittingRan(page);
    // the end the step ran to: the run has settled there (not playing, at its last op)
    const ops = (await l.model()).ops;
    await expect
      .poll(async () => {
        const p = await position(page);
        return p !== null && !p.playing && p.op === ops;
      })
      .toBe(true);
    const end = await position(page);
    // step the timeline back first, so "the end" is somewhere to go
    await page.getByRole('button', { name: 'To the start' }).click();
    await expect.poll(async () => (await position(page))?.op).toBe(0);
    await page.getByRole('button', { name: 'Show me again' }).click();
    // The click's render may land a frame after it returns (it did on a loaded CI machine), so
    // the position is polled; "at once" is that it never plays on the way there.
    const seen: Position[] = [];
    await expect
      .poll(async () => {
        const p = await position(page);
        if (p) seen.push(p);
        return JSON.stringify(p);
      })
      .toBe(JSON.stringify(end));
    expect(seen.some((p) => p.playing)).toBe(false);
    expect(seen.every((p) => p.op === 0 || p.op === end?.op)).toBe(true);
  });

  test('presenting, Show me again leaves the clicker keys to the clicker', async ({ page }) => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    const l = new LessonPage(page);
    await l.goto('buddy-allocator', 2, 'present');
    // the clicker walks the step: reveal the question, run the step
    for (
      let i = 0;
      i < 4 && !(await page.getByRole('button', { name: 'Show me again' }).count());
      i++
    ) {
      await page.keyboard.press('PageDown');
      await page.waitForTimeout(100);
    }
    const again = page.getByRole('button', { name: 'Show me again' });
    await expect(again).toBeVisible();
    await again.click();
    await expect.poll(async () => (await position(page))?.playing).toBe(true);
    const before = await l.model();
    // focus sits on the button: Space and PageDown still advance the lesson, not press it again
    await page.keyboard.press('PageDown');
    await expect.poll(async () => JSON.stringify(await l.model())).not.toBe(JSON.stringify(before));
  });

  test('presenting, a step that rings another view shows it whole, and the map whole above it', async ({
    page,
  }) => {
    // lesson 2 step 2 rings the free-areas view; the 640 px presenting map pushed it below the
    // fold and the stage scrolled the map's top (where the split happens) off the screen
    await page.setViewportSize({ width: 1920, height: 1080 });
    const l = new LessonPage(page);
    await l.goto('buddy-allocator', 2, 'present');
    await page.getByRole('button', { name: 'Run these ops' }).click();
    const ringed = page.locator('.lesson-view.pointed');
    await expect(ringed).toHaveAttribute('data-lesson-view', 'free-areas');
    await expect(page.locator('.pointer-ring')).toBeVisible();
    await page.waitForTimeout(300); // the scroll that brings the ringed view into sight
    const whole = async (what: string, box: { y: number; height: number } | null) => {
      expect(box, what).not.toBeNull();
      expect(box!.y, `${what} top`).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height, `${what} bottom`).toBeLessThanOrEqual(1080);
    };
    await whole('the ringed view', await ringed.boundingBox());
    await whole('its label', await page.locator('.pointer-label').boundingBox());
    await whole(
      'the memory map',
      await page
        .locator('.lesson-view[data-lesson-view="memory-map"] canvas')
        .first()
        .boundingBox(),
    );
    await whole('the caption', await page.locator('.views-caption').boundingBox());
  });

  test('presenting at 1920x1080 the memory map is larger than on screen', async ({ page }) => {
    const l = new LessonPage(page);
    const mapBox = async () => {
      const overlay = page
        .locator('.lesson-stage section.memory-map canvas[data-layer="overlay"]')
        .first();
      const box = await overlay.boundingBox();
      const label = (await overlay.getAttribute('aria-label')) ?? '';
      const cols = Number(/(\d+) frames per row/.exec(label)?.[1]);
      if (!box || !cols) throw new Error(`no memory map of frames: ${label}`);
      return { ...box, cell: box.width / cols };
    };
    await page.setViewportSize({ width: 1920, height: 1080 });
    await l.goto('buddy-allocator', 1);
    const reading = await mapBox();
    await l.goto('buddy-allocator', 1, 'present');
    const presenting = await mapBox();
    const size = (b: { width: number; height: number; cell: number }) =>
      `${Math.round(b.width)}x${Math.round(b.height)} px, frames ${b.cell.toFixed(2)} px`;
    console.log(
      `memory map at 1920x1080: reading ${size(reading)}; presenting ${size(presenting)}`,
    );
    // on screen the map is at most 320 px tall; presenting, twice that, with larger frames
    expect(reading.height).toBeLessThanOrEqual(320);
    expect(presenting.height).toBeGreaterThanOrEqual(600);
    expect(presenting.cell).toBeGreaterThanOrEqual(1.3 * reading.cell);
    expect(presenting.width * presenting.height).toBeGreaterThan(
      1.5 * reading.width * reading.height,
    );
    // and still fits the screen's width
    expect(presenting.x + presenting.width).toBeLessThanOrEqual(1920);
  });

  test('in a lesson the map follows the event on a 16 GiB machine; the playground does not', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const l = new LessonPage(page);
    // lesson 6, step 2: one free on the laptop machine (4M frames), both kernels side by side
    await l.goto('batch-scaling', 2, 'present');
    for (
      let i = 0;
      i < 4 && !(await page.locator('.lesson-stage section.memory-map').count());
      i++
    ) {
      await page.keyboard.press('PageDown');
      await page.waitForTimeout(100);
    }
    const maps = page.locator('.lesson-stage section.memory-map');
    await expect(maps).toHaveCount(2);
    for (const m of await maps.all()) {
      await expect(m.getByRole('checkbox', { name: 'Follow the event' })).toBeChecked();
      // following: blocks around the event, not the whole machine's overview
      await expect(m).toHaveAttribute('data-mode', 'blocks');
      const start = Number(
        await m.locator('canvas[data-layer="frames"]').getAttribute('data-start'),
      );
      const pfn = Number(await m.getAttribute('data-highlight-pfn'));
      expect(pfn).toBeGreaterThan(0);
      expect(Math.abs(pfn - start)).toBeLessThan(4096);
    }
    // the reader may turn it off: the whole machine, as an overview
    const first = maps.first();
    await first.getByRole('checkbox', { name: 'Follow the event' }).uncheck();
    await expect(first).toHaveAttribute('data-mode', 'overview');
    const axe = await new AxeBuilder({ page })
      .include('.lesson-stage section.memory-map')
      .analyze();
    expect(
      axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);

    // the playground keeps the whole machine until asked
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run('machine laptop\ncpu 0 alloc a\n');
    const m = page.locator('.views section.memory-map');
    await expect(m.getByRole('checkbox', { name: 'Follow the event' })).not.toBeChecked();
    await expect(m).toHaveAttribute('data-mode', 'overview');
  });

  test('the Code view says the deciding kernel function in pseudocode, the deciding line marked', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run('machine tiny\nprofile 6.18\ncpu 0 alloc a GFP_HIGHUSER_MOVABLE\n');
    await pg.key('Home');
    const code = page.locator('section.code-view');
    // step by event to the refill
    for (let i = 0; i < 40; i++) {
      if ((await code.getAttribute('data-event-kind')) === '7') break;
      await pg.key('Shift+ArrowRight');
    }
    await expect(code).toHaveAttribute('data-event-kind', '7');
    const plain = code.locator('.pseudo');
    await expect(plain).toHaveAttribute('data-pseudo-path', 'rmqueue_pcplist > __rmqueue_pcplist');
    await expect(plain.locator('[data-decided]')).toHaveCount(1);
    await expect(plain.locator('[data-decided]')).toContainText(
      'rmqueue_bulk(zone, order, n, list)',
    );
    // the next event, the refill's pulls under the lock, walks into rmqueue_bulk
    await pg.key('Shift+ArrowLeft');
    await expect(code).toHaveAttribute('data-event-kind', '3');
    await expect(plain).toHaveAttribute(
      'data-pseudo-path',
      'rmqueue_pcplist > __rmqueue_pcplist > rmqueue_bulk',
    );
    await expect(plain.locator('[data-decided]')).toContainText('percpu_refill=1');
    const axe = await new AxeBuilder({ page }).include('section.code-view').analyze();
    expect(
      axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  });
});
