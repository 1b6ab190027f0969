// The count of a pageset whose high is auto-tuned, found from the trace's first drains by
// replaying: on traces/captured/pagecache-2 CPU 1's order-0 drains (487, then 974 pages) come
// only from one count, 696 pages below the one zoneinfo read a moment before tracing began.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { captureFolderPaths, readCapture } from '../../scripts/sim/capture-folder';
import { loadCore } from '../core/module';
import { captureReplayCounted, type FoundCount } from './pcp-count-replay';
import { captureReplay, kernelCounts, modelCounts, type CaptureTexts } from './trace-compare';
import { describeRuns } from './trace-runs';

const dir = fileURLToPath(new URL('../../traces/captured/pagecache-2/', import.meta.url));
const texts = readCapture(captureFolderPaths(dir));
const CAPACITY = 1 << 18;
const KERNEL_DRAINS = '974×1 487×1'; // CPU 1's order-0 drain runs in the trace

/** zoneinfo with CPU 1's Normal pageset counting `count` pages. */
function withCount(count: number): CaptureTexts {
  const read = /count:(\s+)28884\n/;
  expect(texts.zoneinfo).toMatch(read);
  return { ...texts, zoneinfo: texts.zoneinfo.replace(read, `count:$1${count}\n`) };
}

/** CPU 1's order-0 drain runs of a replay, as describeRuns writes them. */
function order0Drains(replay: ReturnType<typeof captureReplay>): string {
  if (!replay.ok) throw new Error(replay.error.message);
  return describeRuns(modelCounts(core, replay.config, replay.ops).counts.runs.drain.get('1/0'))
    .lengths;
}

const core = await loadCore();

describe('captureReplayCounted', () => {
  it('the trace shows the runs the test expects', () => {
    expect(describeRuns(kernelCounts(texts.trace).runs.drain.get('1/0')).lengths).toBe(
      KERNEL_DRAINS,
    );
  });

  it("zoneinfo's count, read a moment before tracing, drains at other frees", () => {
    expect(order0Drains(captureReplay(texts, CAPACITY))).not.toBe(KERNEL_DRAINS);
  });

  it.each([28884, 28500, 27500])(
    'finds the count the drains show from a zoneinfo count of %i',
    (read) => {
      const found: FoundCount[] = [];
      const replay = captureReplayCounted(core, withCount(read), CAPACITY, found);
      // CPU 1's pageset of node 0's Normal zone (zone_type 2), and no other
      expect(found).toEqual([{ cpu: 1, node: 0, zone: 2, count: 28188 }]);
      expect(order0Drains(replay)).toBe(KERNEL_DRAINS);
    },
    120_000,
  );

  it('keeps a count the first drains already agree with, and reports nothing', () => {
    const found: FoundCount[] = [];
    const replay = captureReplayCounted(core, withCount(28188), CAPACITY, found);
    expect(found).toEqual([]);
    expect(order0Drains(replay)).toBe(KERNEL_DRAINS);
  }, 120_000);
});
