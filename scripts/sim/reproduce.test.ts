/*
 * `npm run --silent sim -- --reproduce NAME [--json]` end to end: the JSON the issue asks for,
 * the readable table, and the list of known names (exit 2) when NAME is missing or unknown.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

function sim(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repo, 'scripts/sim.mjs'), ...args], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('--reproduce', () => {
  it('prints seed-000 as JSON: lock takes, Joonsoo Kim’s drain, the runaway count', () => {
    const r = sim('--reproduce', 'seed-000', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(['seed', 'title', 'rows', 'notes']);
    expect(json.seed).toBe('seed-000');
    expect(json.rows).toEqual([
      {
        metric: 'zone_lock_acquisitions',
        unit: 'acquisitions',
        model: { '5.13': 384, '2016-v5': 95, '5.14': 11, '6.18': 11 },
        seed: {},
      },
      {
        metric: 'joonsoo_drain_pages',
        unit: 'pages',
        model: { '2016-v5': 9 },
        seed: { '2016-v5': 9 },
      },
      {
        metric: 'pcp_count_out_of_sync',
        unit: '1 = runaway count detected',
        model: { '2016-prefix': 1, '2016-v5': 0 },
        seed: {},
      },
    ]);
  }, 60_000);

  it('prints seed-004 as JSON: fewer, larger refills on 6.18', () => {
    const r = sim('--reproduce', 'seed-004', '--json');
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as { seed: string; rows: unknown[] };
    expect(json.seed).toBe('seed-004');
    expect(json.rows).toEqual([
      {
        metric: 'zone_lock_acquisitions',
        unit: 'acquisitions',
        model: { '6.6': 64, '6.18': 7 },
        seed: {},
      },
      { metric: 'max_refill_pages', unit: 'pages', model: { '6.6': 63, '6.18': 2016 }, seed: {} },
    ]);
  }, 60_000);

  it('prints a readable table without --json', () => {
    const r = sim('--reproduce', 'seed-000');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^seed-000: High-order per-CPU page lists/);
    expect(r.stdout).toMatch(/^ {2}profile +model +seed$/m);
    expect(r.stdout).toMatch(/^ {2}5\.13 +384 +-$/m);
    expect(r.stdout).toMatch(/^ {2}2016-v5 +9 +9$/m);
    expect(r.stdout).toMatch(/^Notes:$/m);
  }, 60_000);

  it.each([[[]], [['nope']], [['nope', '--json']]])(
    'lists the known reproductions and exits 2 for --reproduce %j',
    (rest) => {
      const r = sim('--reproduce', ...rest);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^ {2}seed-000 +High-order per-CPU page lists/m);
      expect(r.stderr).toMatch(/^ {2}seed-004 +Batch scaling by alloc_factor/m);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
    60_000,
  );

  it.each([
    [['--json'], /--json goes with --reproduce/],
    [['--reproduce', 'seed-000', 'x.wl'], /--reproduce runs its own workloads/],
    [['--reproduce', 'seed-000', '--profile', '6.6'], /--reproduce runs its own workloads/],
  ])(
    'refuses %j with exit code 2',
    (args, message) => {
      const r = sim(...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message);
    },
    60_000,
  );
});
