// The NUMA views in the playground (issue 15): a two-node machine's memory is one map per node,
// side by side on a wide screen and stacked on a phone, each headed with its CPUs, the current
// event outlined on the map of the node whose memory it touched; the node counters show each
// node's numastat lines, say what a step changed, and in compare mode both values and the
// difference. No page error, axe clean, nothing sideways at 360 px.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { failOnConsoleProblems } from './console.ts';
import { PlaygroundPage } from './pages/PlaygroundPage.ts';
import { sideways } from './sideways.ts';

/** Two nodes of 1024 pages, two CPUs each: CPU 0 allocates until its pages spill onto node 1. */
const SPILL = [
  'machine nodes=2 cpus=2 normal=1024',
  'profile 3.0',
  'repeat 1100 {',
  '  cpu 0 alloc a order=0',
  '}',
  '',
].join('\n');

test.describe('NUMA views', () => {
  test.describe.configure({ timeout: 120_000 });
  failOnConsoleProblems();

  test("each node's map caption names that node's frames, not the power-of-two window", async ({
    page,
  }) => {
    // xeon2011's node 0 holds DMA, DMA32 and Normal: its map's window (a power of two) runs on
    // into node 1's frames, which the canvas covers as holes and the caption leaves out.
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run('machine xeon2011\nprofile 3.0\ncpu 0 alloc a order=0\n');
    const info = page.locator('.views .node-maps section.memory-map [data-testid="map-info"]');
    await expect(info).toHaveCount(2);
    const range = async (i: number) => {
      const m = /pfn (\d+)–(\d+) · ([\d,]+) frames/.exec(await info.nth(i).innerText());
      expect(m, `caption ${i}`).not.toBeNull();
      const lo = Number(m?.[1]);
      const hi = Number(m?.[2]);
      expect(Number(m?.[3]?.replaceAll(',', ''))).toBe(hi - lo + 1);
      return { lo, hi };
    };
    const [node0, node1] = [await range(0), await range(1)];
    expect(node0.hi).toBeLessThan(node1.lo);
  });

  test('one map per node, the event on its own node, node counters that say the step, compare', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run(SPILL);
    await pg.key('End');
    const maps = page.locator('.views .node-maps section.memory-map');
    await expect(maps).toHaveCount(2);
    await expect(maps.nth(0).locator('h3')).toHaveText('Node 0 · CPUs 0-1');
    await expect(maps.nth(1).locator('h3')).toHaveText('Node 1 · CPUs 2-3');
    // side by side: the second map starts to the right of the first, on the same row
    const a = await maps.nth(0).boundingBox();
    const b = await maps.nth(1).boundingBox();
    expect(a && b && b.x >= a.x + a.width - 1 && Math.abs(b.y - a.y) < 2).toBe(true);
    // the last allocation came from node 1: outlined there, not on node 0's map
    await expect(maps.nth(1)).toHaveAttribute('data-event-here', 'true');
    await expect(maps.nth(0)).toHaveAttribute('data-event-here', 'false');
    await expect
      .poll(() => page.evaluate(() => window.__buddyscope?.mapMismatch() ?? 'no test API'))
      .toBeNull();

    const counters = page.locator('.views section.node-counters');
    await expect(counters).toHaveCount(1);
    const miss = counters.locator('[data-node="1"] tr[data-counter="numa_miss"] td');
    await expect(miss).not.toHaveText('0');
    // one op back and forward again: the step's change is said, and its cells marked
    await pg.key('ArrowLeft');
    await pg.key('ArrowRight');
    await expect(counters.getByTestId('node-change')).toHaveText(
      'This step: node 0: numa_foreign +1; node 1: numa_miss +1, other_node +1.',
    );
    await expect(counters.locator('tr[data-changed]')).toHaveCount(3);

    // compare 3.0 with 6.18: both machines' maps per node, and the counters' differences
    await page.getByLabel('Compare with').check();
    await page.getByLabel('Profile to compare with').selectOption('6.18');
    const cmp = page.getByRole('region', { name: /3\.0 against 6\.18/ });
    await expect(cmp).toBeVisible();
    await expect(cmp.locator('section.memory-map')).toHaveCount(4);
    await expect(cmp.locator('section.node-counters')).toHaveCount(2);
    await expect(cmp.locator('section.node-counters .diff').first()).toBeVisible();

    const scan = await new AxeBuilder({ page }).analyze();
    expect(scan.violations).toEqual([]);
  });

  test('the xeon2011 preset: 2 x 12 CPUs; on a phone the maps stack and nothing goes sideways', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    const pg = new PlaygroundPage(page);
    await pg.goto();
    await pg.run('machine xeon2011\nprofile 3.0\ncpu 0 alloc a order=0\ncpu 12 alloc b order=0\n');
    await pg.key('End');
    const maps = page.locator('.views .node-maps section.memory-map');
    await expect(maps).toHaveCount(2);
    await expect(maps.nth(0).locator('h3')).toHaveText('Node 0 · CPUs 0-11');
    await expect(maps.nth(1).locator('h3')).toHaveText('Node 1 · CPUs 12-23');
    // CPU 12 is node 1's: its page is local there
    await expect(maps.nth(1)).toHaveAttribute('data-event-here', 'true');
    await expect(
      page.locator('.views section.node-counters [data-node="1"] tr[data-counter="local_node"] td'),
    ).toHaveText('1');
    const a = await maps.nth(0).boundingBox();
    const b = await maps.nth(1).boundingBox();
    expect(a && b && b.y >= a.y + a.height - 1).toBe(true);
    expect(await sideways(page)).toEqual([]);
    const scan = await new AxeBuilder({ page }).analyze();
    expect(scan.violations).toEqual([]);
  });
});
