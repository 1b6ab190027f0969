/*
 * presets.ts: the machines and kernel profiles the playground offers, with a line about each.
 */
import { PRESETS, type PresetName, type ProfileName } from '../core/machine-config';

/** The machines the playground offers, with their machine.def labels. */
export const MACHINES: { name: PresetName; label: string }[] = (
  Object.keys(PRESETS) as PresetName[]
)
  .filter((name) => PRESETS[name].offered)
  .map((name) => ({ name, label: PRESETS[name].label }));

export const PROFILES: { name: ProfileName; label: string }[] = [
  { name: '6.18', label: '6.18 (default)' },
  { name: '6.6', label: '6.6' },
  { name: '5.14', label: '5.14 (first high-order pcp lists)' },
  { name: '5.13', label: '5.13 (order-0 pcp lists only)' },
  { name: '2016-v5', label: '2016 v5 (posted high-order pcp)' },
  { name: '2016-prefix', label: '2016 before the pcp-count fix' },
];

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
