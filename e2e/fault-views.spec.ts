// The page-fault views on the built site (issue 17): in the playground, threads fault their
// regions while CPU 0 maps and unmaps a buffer (seed-003 in small); the CPU lanes show faults
// waiting for mmap_lock under 4.16 and none under 6.18 once every VMA has its anon_vma, the VMA
// list shows the VMAs, and axe finds nothing; on a 390 px phone nothing scrolls sideways; in
// lesson 11's presenter mode, with the lanes drawn, no text is under 18 px.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { failOnConsoleProblems } from './console.ts';
import { LessonPage } from './pages/LessonPage.ts';
import { PlaygroundPage } from './pages/PlaygroundPage.ts';
import { sideways } from './sideways.ts';
import { textSizes } from './text-sizes.ts';

/** Three threads fault 4 pages at a time while CPU 0 maps and unmaps a 32-page buffer. */
function workload(profile: string): string {
  const lines = [
    'machine nodes=1 cpus=4 normal=65536',
    `profile ${profile}`,
    ...[0, 1, 2, 3].map((c) => `cpu ${c} thread mm=0`),
    // each region mapped and its first fault taken (its anon_vma and PTE table) before the next
    // is mapped, so no first fault meets another thread's mmap: the churn is what they meet
    ...[1, 2, 3].flatMap((c) => [
      `cpu ${c} mmap mm=0 at=${c * 1024} pages=256 prot=rw`,
      `cpu ${c} touch mm=0 at=${c * 1024} pages=1 write`,
    ]),
  ];
  for (let step = 0; step < 8; step++) {
    lines.push(
      `cpu 0 ${step % 2 ? 'munmap' : 'mmap'} mm=0 at=0 pages=32${step % 2 ? '' : ' prot=rw'}`,
    );
    for (const c of [1, 2, 3])
      lines.push(`cpu ${c} touch mm=0 at=${c * 1024 + 1 + step * 4} pages=4 write`);
  }
  return lines.join('\n') + '\n';
}

/** Lane segments of one state in the CPU lanes view. */
function segments(page: Page, state: string) {
  return new PlaygroundPage(page).view('CPU lanes').locator(`.seg[data-state="${state}"]`);
}

async function runToEnd(pg: PlaygroundPage, profile: string): Promise<void> {
  await pg.run(workload(profile));
  await pg.key('End');
  await expect(pg.view('CPU lanes')).toBeVisible();
}

test.describe('page-fault views', () => {
  test.describe.configure({ timeout: 120_000 });
  failOnConsoleProblems();

  test('the lanes show faults waiting for mmap_lock under 4.16 and not under 6.18; the VMA list; axe', async ({
    page,
  }) => {
    const pg = new PlaygroundPage(page);
    await pg.goto();
    // a page-allocator workload: the fault views stay out of the playground
    await expect(pg.view('CPU lanes')).toHaveCount(0);
    await runToEnd(pg, '4.16');
    const lanes = pg.view('CPU lanes');
    await expect(lanes.locator('.lane[data-cpu]')).toHaveCount(4);
    const classicWaits = await segments(page, 'WAIT_MMAP_READ').count();
    expect(classicWaits).toBeGreaterThan(0);
    expect(await segments(page, 'FAULT_MMAP').count()).toBeGreaterThan(20);
    await expect(
      lanes.getByRole('img', {
        name: /^CPU 1, a thread of mm 0: .*waiting for mmap_lock \(read\)/,
      }),
    ).toBeVisible();
    // the VMA list: the three regions, and the buffer that is unmapped at the end is gone
    const vmas = pg.view('VMAs and mmap_lock');
    await expect(vmas.locator('tr[data-vma]')).toHaveCount(3);
    await expect(vmas.locator('tr[data-vma] th')).toHaveText([
      '1024–1279 (256)',
      '2048–2303 (256)',
      '3072–3327 (256)',
    ]);
    await expect(vmas.locator('[data-mmap-lock="0"]')).toContainText(
      /read \d+ taken, [1-9]\d* waited/,
    );
    // the current event's segment is outlined once the cursor stands on an event
    // into the last op (CPU 3's touch): its first event, CPU 3's first page_fault_user
    await pg.key('ArrowLeft');
    await pg.key('Shift+ArrowRight');
    expect((await pg.model()).seq).toBeGreaterThan(0);
    await expect(lanes.locator('.seg[data-highlighted="true"]')).toHaveCount(1);
    await expect(lanes.locator('.lanes-now')).toContainText('Current event: CPU 3');
    const scan = await new AxeBuilder({ page }).include('.views').analyze();
    expect(scan.violations).toEqual([]);

    await runToEnd(pg, '6.18');
    await expect(segments(page, 'FAULT_VMA').first()).toBeVisible();
    expect(await segments(page, 'WAIT_MMAP_READ').count()).toBe(0);
    expect(await segments(page, 'FAULT_MMAP').count()).toBe(0);
    await expect(pg.view('VMAs and mmap_lock')).toContainText('vm_refcnt 1 (attached, no reader)');
    // the fault counters: every fault under its VMA lock
    await expect(pg.view('Counters').locator('table', { hasText: 'Page faults' })).toContainText(
      'vma_lock_success',
    );
    const scan2 = await new AxeBuilder({ page }).include('.views').analyze();
    expect(scan2.violations).toEqual([]);
  });

  test('on a 390 px phone nothing scrolls sideways; the lanes scroll inside themselves', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await runToEnd(pg, '4.16');
    await pg.view('CPU lanes').scrollIntoViewIfNeeded();
    expect(await sideways(page)).toEqual([]);
    const scroller = pg
      .view('CPU lanes')
      .getByRole('group', { name: 'CPU lanes (scrolls sideways)' });
    await expect(scroller).toBeVisible();
    // the scroller takes keyboard focus (axe: scrollable-region-focusable)
    await scroller.focus();
    await expect(scroller).toBeFocused();
  });

  test("lesson 11 in presenter mode: the lanes of 'Who waits for whom', nothing under 18 px", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    const l = new LessonPage(page);
    await l.goto('page-faults', 2, 'present');
    await expect(l.stepTitle()).toHaveText('Who waits for whom');
    await page.getByRole('button', { name: 'Run these ops' }).first().click();
    const lanes = page.locator('section.fault-lanes');
    await expect(lanes).toHaveCount(2); // 4.16 and 6.18 side by side
    await expect(lanes.first().locator('.lane[data-cpu]')).toHaveCount(3);
    await lanes.first().scrollIntoViewIfNeeded();
    const small = (await textSizes(page, 'main')).filter((t) => t.px < 18);
    expect(small).toEqual([]);
  });
});
