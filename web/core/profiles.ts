/*
 * profiles.ts: the kernel profiles as the core defines them (wasm-core/src/base/profiles.def,
 * generated into ./generated/profiles.ts), and what a profile's pcp list indexes mean. Nothing
 * here restates a profile: names, descriptions and switches all come from the generated rows.
 */
import { PROFILES, type ProfileRow } from './generated/profiles';
import { DEFAULT_PROFILE } from './default-profile';

export { pcpListOf } from './pcp-index';

export {
  PROFILE_NAMES,
  PROFILES,
  type PcpLayout,
  type ProfileName,
  type ProfileRow,
} from './generated/profiles';

export { DEFAULT_PROFILE };

/** The row of enum profile_id id; the default row for an id the core does not have (as sim_profile_get). */
export function profileRow(id: number): ProfileRow {
  const row = PROFILES[id] ?? PROFILES[0];
  if (!row) throw new Error('profiles.def defines no profile');
  return row;
}
