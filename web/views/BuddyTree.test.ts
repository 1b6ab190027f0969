// The Buddy tree's list of max-order blocks, counted per zone rather than listed: index and head
// pfn both ways, across zones that do not start on a block boundary, and on a 1 TiB zone.
import { describe, expect, it } from 'vitest';
import { maxOrderBlocks } from './BuddyTree';

describe('maxOrderBlocks', () => {
  it('numbers the blocks of each zone in pfn order, both ways', () => {
    // DMA 256..4095 (blocks 0..3), Normal from 6000 for 3000 frames (blocks at 5120..8192)
    const b = maxOrderBlocks('256+3840 6000+3000', 1024);
    expect(b.length).toBe(4 + 4);
    expect([0, 3, 4, 7].map((i) => b.at(i))).toEqual([0, 3072, 5120, 8192]);
    expect(b.at(8)).toBeUndefined();
    expect(b.indexOf(5120)).toBe(4);
    expect(b.indexOf(8192)).toBe(7);
    expect(b.indexOf(4096)).toBe(-1); // between the zones
    expect(b.indexOf(5121)).toBe(-1); // not a head
  });

  it('counts a 1 TiB zone without listing it', () => {
    const b = maxOrderBlocks(`${6428251}+${262007205}`, 1024);
    expect(b.length).toBe(262144 - Math.floor(6428251 / 1024));
    expect(b.at(b.length - 1)).toBe(268435456 - 1024);
    expect(b.indexOf(268435456 - 1024)).toBe(b.length - 1);
  });
});
