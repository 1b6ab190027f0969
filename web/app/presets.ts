/*
 * presets.ts: the machines and kernel profiles the playground offers, with a line about each.
 */
import type { PresetName } from '../core/machine-config';
import { PROFILES as PROFILE_ROWS, type ProfileName } from '../core/profiles';

export const MACHINES: { name: PresetName; label: string }[] = [
  { name: 'tiny', label: 'tiny: 256 pages, 2 CPUs (every frame visible)' },
  { name: 'classroom', label: 'classroom: 128 MiB, 2 CPUs (batch 7)' },
  { name: 'small', label: 'small: 64 MiB, DMA32 + Normal, 2 CPUs' },
  { name: 'laptop', label: 'laptop: 16 GiB, 8 CPUs' },
  { name: 'server2', label: 'server2: 2 nodes × 8 GiB, 16 CPUs' },
];

/** The core's profiles (base/profiles.def), each labelled with what it is; the first is the default. */
export const PROFILES: { name: ProfileName; label: string }[] = PROFILE_ROWS.map((p, i) => ({
  name: p.name,
  label: `${p.name}${i === 0 ? ' (default)' : ''}: ${p.what}`,
}));

export const DEFAULT_WORKLOAD = `# Two CPUs allocate and free on the tiny machine.
machine tiny
profile 6.18
seed 42

repeat 4 {
  cpu 0 alloc a order=0 GFP_KERNEL
  cpu 1 alloc b order=0 GFP_HIGHUSER_MOVABLE
}
cpu 0 alloc big order=3 GFP_KERNEL
cpu 1 free b *
cpu 0 free a *
drain all
cpu 1 alloc c order=2 GFP_KERNEL
tick 1
`;
