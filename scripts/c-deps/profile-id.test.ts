// No behaviour of the C core may ask which profile it runs: a difference between kernels is a
// switch of struct sim_profile (base/profiles.def), named for what it does. Only the profile
// table's own file (base/profile.c) may look at ids. The check is a precise grep over the C with
// comments and strings blanked; it is tested on small sources too, so it cannot pass by finding
// nothing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(__dirname, '../../wasm-core/src');

/** The one file allowed to read a profile's id: it builds and looks up the table. */
const TABLE_FILE = 'base/profile.c';

/** Every .c and .h under dir, relative with forward slashes. */
function cFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return cFiles(path);
      return /\.[ch]$/.test(name) ? [path] : [];
    });
}

/** C text with comments and string/char literals blanked (newlines kept, so lines still count). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (m) =>
    m.replace(/[^\n]/g, ' '),
  );
}

/**
 * Where a C file reads a profile's id for behaviour: `x.profile.id` / `x->profile.id`, `->id` of
 * a variable declared `struct sim_profile *`, `sim_profile_get(...)->id`, or a comparison or
 * case label against an enum profile_id constant (PROFILE_...; NR_PROFILES is a count, not an id).
 */
function profileIdReads(file: string, text: string): string[] {
  const c = code(text);
  const pointers = [...c.matchAll(/struct\s+sim_profile\s*\*\s*(?:const\s+)?([A-Za-z_]\w*)/g)].map(
    (m) => m[1],
  );
  const patterns: [RegExp, string][] = [
    [/\bprofile\s*(?:\.|->)\s*id\b/, 'reads profile.id'],
    [/\bsim_profile_get\s*\([^()]*\)\s*->\s*id\b/, 'reads sim_profile_get(...)->id'],
    [
      /(?:[!=<>]=|[<>])\s*\(?\s*PROFILE_[A-Z0-9_]+\b|\bPROFILE_[A-Z0-9_]+\s*\)?\s*(?:[!=<>]=|[<>])/,
      'compares with a profile id',
    ],
    [/\bcase\s+PROFILE_[A-Z0-9_]+\b/, 'switches on a profile id'],
    ...pointers.map((p): [RegExp, string] => [
      new RegExp(`\\b${p}\\s*->\\s*id\\b`),
      `reads ${p}->id`,
    ]),
  ];
  const out: string[] = [];
  c.split('\n').forEach((line, i) => {
    for (const [re, what] of patterns) if (re.test(line)) out.push(`${file}:${i + 1}: ${what}`);
  });
  return out;
}

describe('wasm-core/src asks switches, never a profile id', () => {
  it('has no profile id read outside the profile table', () => {
    const files = cFiles(src).map((path) => relative(src, path).split('\\').join('/'));
    expect(files).toContain(TABLE_FILE);
    const reads = files
      .filter((f) => f !== TABLE_FILE)
      .flatMap((f) => profileIdReads(f, readFileSync(join(src, f), 'utf8')));
    expect(reads).toEqual([]);
  });
});

describe('the profile id check', () => {
  it('finds each way of branching on a profile', () => {
    const text = [
      'if (s->profile.id == PROFILE_6_18)',
      'return s->profile.id;',
      'int hex = PROFILE_5_13 != cfg->profile;',
      'switch (id) { case PROFILE_2016_V5: break; }',
      'const struct sim_profile *p = sim_profile_get(id); if (p->id) x();',
      'y = sim_profile_get(cfg->profile)->id;',
      'if (cfg->profile == (PROFILE_6_6)) z();',
      'old = cfg->profile >= PROFILE_5_13;',
    ].join('\n');
    expect(profileIdReads('x.c', text)).toEqual([
      'x.c:1: reads profile.id',
      'x.c:1: compares with a profile id',
      'x.c:2: reads profile.id',
      'x.c:3: compares with a profile id',
      'x.c:4: switches on a profile id',
      'x.c:5: reads p->id',
      'x.c:6: reads sim_profile_get(...)->id',
      'x.c:7: compares with a profile id',
      'x.c:8: compares with a profile id',
    ]);
  });

  it('lets switches, counts, defaults, comments and strings through', () => {
    const text = [
      'if (s->profile.trace_pfn_hex) hex();',
      'for (int id = 0; id < NR_PROFILES; id++) n++;',
      'cfg->profile = PROFILE_6_18; /* the default, not a branch */',
      '/* s->profile.id == PROFILE_6_6 used to be here */',
      'tb_str(tb, "profile.id == PROFILE_5_13");',
      "struct zone *z = x; if (z->id) y(); // another struct's id",
    ].join('\n');
    expect(profileIdReads('y.c', text)).toEqual([]);
  });
});
