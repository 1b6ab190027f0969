import { describe, expect, it } from 'vitest';

import { compareKswapdTable, kernelCounts, kswapdKey } from './trace-compare';

// three kernel lines as 6.18 prints them: a slow-path wake, a boosted-watermark wake (gfp 0,
// printed "none"), balance_pgdat starting twice on kswapd's CPU and one sleep
const TRACE = [
  '           touch-25738   [001] ..... 10627.779016: mm_vmscan_wakeup_kswapd: nid=0 order=0 gfp_flags=GFP_HIGHUSER_MOVABLE|__GFP_ZERO|__GFP_COMP',
  '         kswapd0-45      [001] ..... 10627.779030: mm_vmscan_kswapd_wake: nid=0 order=0',
  '           touch-25738   [000] ..... 10627.802214: mm_vmscan_wakeup_kswapd: nid=0 order=0 gfp_flags=none',
  '         kswapd0-45      [001] ..... 10627.802270: mm_vmscan_kswapd_wake: nid=0 order=0',
  '         kswapd0-45      [001] ..... 10627.902270: mm_vmscan_kswapd_sleep: nid=0',
].join('\n');

describe('kswapd in a trace compared', () => {
  it('counts wakeups by cause on the waking CPU, runs and sleeps on kswapd’s', () => {
    const k = kernelCounts(TRACE);
    expect(Object.fromEntries(k.kswapd)).toEqual({
      [kswapdKey(1, 'wakeup (slow path)')]: 1,
      [kswapdKey(0, 'wakeup (boost)')]: 1,
      [kswapdKey(1, 'kswapd_wake')]: 2,
      [kswapdKey(1, 'kswapd_sleep')]: 1,
    });
  });

  it('prints kernel beside model per CPU, leaving out rows both lack', () => {
    const k = kernelCounts(TRACE);
    const m = { ...k, kswapd: new Map([[kswapdKey(1, 'kswapd_wake'), 3]]) };
    const table = compareKswapdTable(k, m);
    expect(table).toMatch(/^\s+0 wakeup \(boost\)\s+1\s+0$/m);
    expect(table).toMatch(/^\s+1 kswapd_wake\s+2\s+3$/m);
    expect(table).not.toMatch(/^\s+0 kswapd_wake/m);
    expect(compareKswapdTable(m, { ...m, kswapd: new Map() })).toMatch(/kswapd_wake\s+3\s+0/);
  });
});
