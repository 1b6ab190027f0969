// The types of profiles.mjs for its tests.

/** One PROFILE_SWITCH row: a field of struct sim_profile, its kind (flag, number or an enum), its doc. */
export interface ProfileSwitchDef {
  field: string;
  kind: string;
  doc: string;
}

/** One PROFILE row, its switches by field (flags as booleans, enum values as their C names). */
export interface ProfileDef {
  id: number;
  key: string;
  name: string;
  what: string;
  kernels: string;
  switches: Record<string, boolean | number | string>;
}

export declare function parseProfilesDef(text: string): {
  switches: ProfileSwitchDef[];
  profiles: ProfileDef[];
};

export declare function renderProfilesTs(parsed: {
  switches: ProfileSwitchDef[];
  profiles: ProfileDef[];
}): string;

export declare function generate(
  read: (path: string) => string,
): { path: string; content: string }[];

export declare function renderProfileNamesTs(parsed: { profiles: ProfileDef[] }): string;
