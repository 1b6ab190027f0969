/*
 * default-profile.ts: the profile a workload without a profile line runs, from the generated name
 * list alone, so a page that only runs the default (the home page) loads no profile rows.
 */
import { PROFILE_NAMES, type ProfileName } from './generated/profile-names';

/** Row 0 of profiles.def (sim_config_default's). */
export const DEFAULT_PROFILE: ProfileName = PROFILE_NAMES[0];
