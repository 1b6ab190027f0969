/*
 * seed-002.ts: Dennis Zhou's bitmap allocator for percpu memory (2017, merged for 4.14). The
 * area map before it kept an int per area and memmoved the array on every split and merge, so
 * freeing a million small objects in allocation order moved the whole map a million times. The
 * story and the cost model: docs/kernel/percpu.md (K.3, K.4, K.7).
 */
import type { ProfileName } from '../core/machine-config';
import type { Metric, Reproduction, RunRecord } from './types';

/** The sizes the seed measured and the orders it freed in. */
const SIZES = [4, 16, 64, 128, 1024] as const;
const ORDERS = ['in-order', 'alternating', 'reverse'] as const;
const N = 1_000_000;

/** 4.13 is the last area-map kernel; 4.14 the first bitmap one (the seed's two allocators). */
const PROFILES: readonly ProfileName[] = ['4.13', '4.14'];

/** The seed's table (ms; free: the worst of its three orders, which is in order for the area map). */
const SEED: Record<(typeof SIZES)[number], { alloc: [number, number]; free: [number, number] }> = {
  4: { alloc: [335, 725], free: [4960, 70] },
  16: { alloc: [485, 760], free: [1150, 70] },
  64: { alloc: [445, 855], free: [280, 80] },
  128: { alloc: [505, 910], free: [177, 90] },
  1024: { alloc: [3385, 3770], free: [140, 260] },
};

/** 1M areas of size bytes on the 4 GiB machine, then every one freed in order. */
function workload(size: number, order: (typeof ORDERS)[number]): string {
  return `# ${N} percpu areas of ${size} bytes, freed ${order}
machine bench1m
repeat ${N} {
  percpu alloc obj size=${size} align=4
}
percpu free obj * ${order}
`;
}

/** Virtual milliseconds of one phase's work (percpu/cost.c's weighted sum of the counts). */
function phaseMs(phase: 'alloc' | 'free'): (run: RunRecord) => number {
  return (run) => {
    const p = run.state.percpu;
    if (!p) throw new Error('the machine has no percpu allocator');
    return Math.round(p.work[phase].ns / 1e4) / 100;
  };
}

const metrics: Metric[] = [];
for (const size of SIZES) {
  const seed = SEED[size];
  metrics.push({
    key: `alloc_cost_${size}`,
    unit: 'virtual ms',
    label: `allocating ${N} percpu areas of ${size} bytes (align 4) on the 2-CPU, 1 MiB-unit machine`,
    workload: workload(size, 'in-order'),
    profiles: PROFILES,
    measure: phaseMs('alloc'),
    events: false,
    seed: { '4.13': seed.alloc[0], '4.14': seed.alloc[1] },
  });
  for (const order of ORDERS) {
    metrics.push({
      key: `free_cost_${size}_${order}`,
      unit: 'virtual ms',
      label: `freeing those ${N} areas of ${size} bytes ${order === 'in-order' ? 'in allocation order' : order === 'reverse' ? 'newest first' : 'every other one, then the rest'}`,
      workload: workload(size, order),
      profiles: PROFILES,
      measure: phaseMs('free'),
      events: false,
      ...(order === 'in-order' ? { seed: { '4.13': seed.free[0], '4.14': seed.free[1] } } : {}),
    });
  }
}

export const SEED_002: Reproduction = {
  name: 'seed-002',
  title:
    "The percpu allocator: chunks, the area map and Dennis Zhou's bitmap (2017; merged in 4.14)",
  source:
    'Dennis Zhou, "percpu: replace area map allocator with bitmap allocator" (linux-mm, July 2017, commit a80099a152 and the series around it), merged for 4.14: one bit per 4 bytes, a boundary bitmap, and per-page metadata blocks with contig hints instead of an int per area in a memmoved array.',
  notes:
    'Profiles: 4.13 is the area map (Dennis Zhou\'s "before"), 4.14 the first bitmap allocator ("after"). The model counts the kernel\'s work (map entries scanned, bytes memmoved and memcpy\'d, binary-search probes, bitmap words scanned, metadata blocks visited, hint refreshes, pages populated, chunks created) and turns the counts into virtual milliseconds with fixed weights (docs/kernel/percpu.md, "Cost model"); the seed measured milliseconds on its own machine, whose unit size it does not state. Compare shapes, not values: freeing 4 B objects in order costs the area map hundreds of times the bitmap, because every free merges at the front of a map of ~262,000 entries and memmoves the rest; the cost falls with the object size (fewer entries per 1 MiB chunk) while the bitmap stays flat; freeing in reverse merges at the end of the map and moves one entry; alternating frees move about half. Allocating costs more with the bitmap: each sequential allocation breaks the block and chunk contig hints, so a block rescan and a walk over the chunk\'s 256 metadata blocks follow. The seed gives one free figure per size, the worst of its three orders; it stands beside in-order, the worst order for the area map. At 1 KiB populating the pages (262,144 pages in each of 2 units) dominates both allocators, as in the seed.',
  metrics,
  commandLineOnly: true,
};
