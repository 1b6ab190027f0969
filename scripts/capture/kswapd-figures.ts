/*
 * kswapd-figures.ts: the runner of kswapd-figures.mjs. One line per capture folder: the kernel's
 * kswapd wakes (mm_vmscan_kswapd_wake lines) and pgscan_kswapd (vmstat-after less vmstat-before)
 * beside the model's replay of it from its captured state.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { MAX_EVENT_CAPACITY } from '../../web/core/machine-config';
import { loadCore } from '../../web/core/module';
import type { Sim } from '../../web/core/sim';
import { captureReplay, modelCounts } from '../../web/workload/trace-compare';

/** A vm_events counter of the model. */
function vmEvent(sim: Sim, name: string): number {
  const entries = sim.core.layout.entries();
  const field = entries.find(([f]) => f === `vm_events.${name}`);
  const ev = entries.find(([f]) => f === 'sim.ev');
  if (!field || !ev) return NaN;
  return Number(sim.view().getBigUint64(sim.address + ev[1].offset + field[1].offset, true));
}

/** A /proc/vmstat counter of a file's text. */
function vmstat(text: string | undefined, key: string): number {
  const line = (text ?? '').split('\n').find((l) => l.startsWith(`${key} `));
  return Number(line?.split(' ')[1] ?? NaN);
}

export async function main(argv: string[]): Promise<number> {
  const useLru = !argv.includes('--no-lru-state');
  const dirs = argv.filter((a) => !a.startsWith('--'));
  if (!dirs.length) {
    process.stderr.write('usage: kswapd-figures.mjs [--no-lru-state] DIR...\n');
    return 2;
  }
  const core = await loadCore();
  process.stdout.write(
    'capture\tlru-state\twakes kernel\twakes model\tpgscan kernel\tpgscan model\tLRU pages placed/captured\n',
  );
  for (const dir of dirs) {
    const read = (f: string) =>
      existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : undefined;
    const trace = gunzipSync(readFileSync(join(dir, 'trace.gz'))).toString('utf8');
    const lruPath = join(dir, 'lru-state.gz');
    const lruState =
      useLru && existsSync(lruPath)
        ? gunzipSync(readFileSync(lruPath)).toString('utf8')
        : undefined;
    const opt = (k: string, v: string | undefined) => (v !== undefined ? { [k]: v } : {});
    const replay = captureReplay(
      {
        trace,
        zoneinfo: read('zoneinfo') ?? '',
        ...opt('buddyinfo', read('buddyinfo')),
        ...opt('pagetypeinfo', read('pagetypeinfo')),
        ...opt('sysctl', read('sysctl-vm')),
        ...opt('lruState', lruState),
      },
      Math.min(1 << 18, MAX_EVENT_CAPACITY),
    );
    if (!replay.ok) {
      process.stderr.write(
        `${dir}/${replay.file}:${replay.error.line}:${replay.error.col}: ${replay.error.message}\n`,
      );
      return 1;
    }
    // the LRU pages the captured state put on the lists, against the lru-state's (a folio no
    // captured block could hold is left out)
    const booted = core.createSim(replay.config);
    let placed = NaN;
    try {
      placed = ['nr_inactive_anon', 'nr_active_anon', 'nr_inactive_file', 'nr_active_file']
        .map((k) => vmstat(booted.proc('vmstat'), k))
        .reduce((a, b) => a + b, 0);
    } finally {
      booted.dispose();
    }
    const wanted = (lruState ?? '')
      .split('\n')
      .filter((l) => l.startsWith('folios '))
      .reduce((n, l) => n + Number(l.split(' ')[6]) * 2 ** Number(l.split(' ')[5]), 0);
    let scan = NaN;
    const model = modelCounts(core, replay.config, replay.ops, (sim) => {
      scan = vmEvent(sim, 'pgscan_kswapd');
    });
    const wakes = [...model.counts.kswapd.entries()]
      .filter(([k]) => k.endsWith('/kswapd_wake'))
      .reduce((n, [, v]) => n + v, 0);
    const wakesReal = (trace.match(/mm_vmscan_kswapd_wake:/g) ?? []).length;
    const scanReal =
      vmstat(read('vmstat-after'), 'pgscan_kswapd') -
      vmstat(read('vmstat-before'), 'pgscan_kswapd');
    process.stdout.write(
      `${dir}\t${lruState !== undefined ? 'yes' : 'no'}\t${wakesReal}\t${wakes}\t${scanReal}\t${scan}\t${placed}/${lruState !== undefined ? wanted : '-'}${model.summary.frozen ? `\tFROZEN: ${model.summary.frozen}` : ''}\n`,
    );
  }
  return 0;
}
