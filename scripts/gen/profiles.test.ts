// The profiles generator: profiles.def read into rows, its mistakes named by line, and the
// places outside the code that list the profiles (README's table, the generated module) agreeing
// with it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROFILES, PROFILE_NAMES, PROFILE_SWITCHES } from '../../web/core/generated/profiles';
import { generate, parseProfilesDef } from './profiles.mjs';

const repo = join(__dirname, '../..');
const read = (path: string) => readFileSync(join(repo, path), 'utf8');
const def = read('wasm-core/src/base/profiles.def');

const SWITCHES = `PROFILE_SWITCH(pcp_layout, pcp_layout, "lists")
PROFILE_SWITCH(fast, flag, "6.7+: faster")
PROFILE_SWITCH(shift, number, "a shift")
`;

describe('parseProfilesDef', () => {
  it('reads switches and rows, flags as booleans and enum values by name', () => {
    const parsed = parseProfilesDef(`${SWITCHES}
PROFILE(PROFILE_A, "a", "the first", "1.0 to 1.2",
	/* pcp_layout */ PCP_LAYOUT_X, 1, 20)
PROFILE(PROFILE_B, "b", "the " "second", "0.9", PCP_LAYOUT_Y, 0, 19)`);
    expect(parsed.switches.map((s) => s.field)).toEqual(['pcp_layout', 'fast', 'shift']);
    expect(parsed.profiles).toEqual([
      {
        id: 0,
        key: 'PROFILE_A',
        name: 'a',
        what: 'the first',
        kernels: '1.0 to 1.2',
        switches: { pcp_layout: 'PCP_LAYOUT_X', fast: true, shift: 20 },
      },
      {
        id: 1,
        key: 'PROFILE_B',
        name: 'b',
        what: 'the second',
        kernels: '0.9',
        switches: { pcp_layout: 'PCP_LAYOUT_Y', fast: false, shift: 19 },
      },
    ]);
  });

  it('names the line of a short row, a bad flag, a repeated name', () => {
    expect(() =>
      parseProfilesDef(`${SWITCHES}PROFILE(PROFILE_A, "a", "w", "k", PCP_LAYOUT_X, 1)`),
    ).toThrow(
      'profiles.def:4: PROFILE takes (ID, name, what, kernels) and 3 switches, got 6 arguments',
    );
    expect(() =>
      parseProfilesDef(`${SWITCHES}PROFILE(PROFILE_A, "a", "w", "k", PCP_LAYOUT_X, 2, 0)`),
    ).toThrow('profiles.def:4: fast of a is a flag: 0 or 1');
    expect(() =>
      parseProfilesDef(
        `${SWITCHES}PROFILE(PROFILE_A, "a", "w", "k", PCP_LAYOUT_X, 1, 0)\nPROFILE(PROFILE_B, "a", "w", "k", PCP_LAYOUT_X, 1, 0)`,
      ),
    ).toThrow('profiles.def:5: profile a defined twice');
    expect(() =>
      parseProfilesDef(`${SWITCHES}PROFILE(PROFILE_A, a, "w", "k", PCP_LAYOUT_X, 1, 0)`),
    ).toThrow('profiles.def:4: the name must be a string literal');
  });

  it('wants pcp_layout first, since the C counts the lists from it', () => {
    expect(() =>
      parseProfilesDef('PROFILE_SWITCH(fast, flag, "x")\nPROFILE(P, "a", "w", "k", 1)'),
    ).toThrow('the first switch must be pcp_layout');
  });
});

describe('profiles.def', () => {
  const { switches, profiles } = parseProfilesDef(def);

  it('is what web/core/generated/profiles.ts holds (run node scripts/gen-vocab.mjs if not)', () => {
    const [file] = generate(read);
    expect(file?.path).toBe('web/core/generated/profiles.ts');
    expect(file?.content).toBe(read('web/core/generated/profiles.ts'));
    expect(PROFILES.map((p) => p.name)).toEqual(profiles.map((p) => p.name));
    expect(PROFILE_NAMES).toEqual(profiles.map((p) => p.name));
    expect(PROFILE_SWITCHES.map((s) => s.field)).toEqual(switches.map((s) => s.field));
  });

  it('names the default first and documents every switch with the kernels that have it', () => {
    expect(profiles[0]?.name).toBe('6.18');
    for (const s of switches)
      if (s.kind === 'flag') expect(s.doc, s.field).toMatch(/^(~|after )?\d+\.\d+/);
    for (const p of profiles) expect(p.kernels, p.name).toMatch(/\d+\.\d+/);
  });

  it("is what README's profile table lists: each name, what it is and its kernels, in id order", () => {
    const readme = read('README.md');
    const start = readme.indexOf('## Kernel profiles');
    const end = readme.indexOf('\n## ', start + 1);
    const section = readme.slice(start, end < 0 ? undefined : end);
    const rows = section
      .split('\n')
      .filter((l) => /^\| `/.test(l))
      .map((l) => l.split('|').map((c) => c.trim()));
    expect(rows.map((r) => r[1])).toEqual(
      profiles.map((p, i) => `\`${p.name}\`${i === 0 ? ' (default)' : ''}`),
    );
    expect(rows.map((r) => r[2])).toEqual(profiles.map((p) => p.what));
    expect(rows.map((r) => r[3])).toEqual(profiles.map((p) => p.kernels));
  });

  it('is the list of names the docs give for the profile line', () => {
    const names = profiles.map((p) => p.name);
    const line = read('docs/workload-language.md')
      .split('\n')
      .find((l) => l.startsWith('profile '));
    expect(
      line
        ?.split('#')[1]
        ?.split('|')
        .map((w) => w.replace('(default)', '').trim()),
    ).toEqual(names);
    const row = read('lessons/README.md')
      .split('\n')
      .find((l) => l.startsWith('| `profile`'));
    expect([...(row ?? '').matchAll(/`([^`]+)`/g)].slice(1).map((m) => m[1])).toEqual(names);
  });
});
