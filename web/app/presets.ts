/*
 * presets.ts: the machines and kernel profiles the playground offers, with a line about each.
 */
import { PRESETS, type PresetName } from '../core/machine-config';
import { PROFILES as PROFILE_ROWS, type ProfileName } from '../core/profiles';

/** The machines the playground offers, with their machine.def labels. */
export const MACHINES: { name: PresetName; label: string }[] = (
  Object.keys(PRESETS) as PresetName[]
)
  .filter((name) => PRESETS[name].offered)
  .map((name) => ({ name, label: PRESETS[name].label }));

/** The core's profiles (base/profiles.def), each labelled with what it is; the first is the default. */
export const PROFILES: { name: ProfileName; label: string }[] = PROFILE_ROWS.map((p, i) => ({
  name: p.name,
  label: `${p.name}${i === 0 ? ' (default)' : ''}: ${p.what}`,
}));

export const DEFAULT_WORKLOAD = `# Two CPUs allocate and free, order 0 and order 3, then drain.
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
