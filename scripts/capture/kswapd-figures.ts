/*
 * kswapd-figures.ts: the runner of kswapd-figures.mjs. One line per capture folder: the kernel's
 * kswapd wakes (mm_vmscan_kswapd_wake lines) and pgscan_kswapd (vmstat-after less vmstat-before)
 * beside the model's replay of it from its captured state.
 */
import { MAX_EVENT_CAPACITY } from '../../web/core/machine-config';
import { loadCore } from '../../web/core/module';
import { captureReplayCounted } from '../../web/workload/pcp-count-replay';
import { modelCounts } from '../../web/workload/trace-compare';
import { captureFolderPaths, readCapture, vmstatCounter, vmstatDelta } from '../sim/capture-folder';

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
    const paths = captureFolderPaths(dir);
    const texts = readCapture(paths, { lruState: useLru });
    const { trace, lruState } = texts;
    const replay = captureReplayCounted(core, texts, Math.min(1 << 18, MAX_EVENT_CAPACITY));
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
        .map((k) => vmstatCounter(booted.proc('vmstat'), k))
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
      scan = sim.state().vm.pgscanKswapd;
    });
    const wakes = [...model.counts.kswapd.entries()]
      .filter(([k]) => k.endsWith('/kswapd_wake'))
      .reduce((n, [, v]) => n + v, 0);
    const wakesReal = (trace.match(/mm_vmscan_kswapd_wake:/g) ?? []).length;
    const scanReal = vmstatDelta(paths, 'pgscan_kswapd');
    process.stdout.write(
      `${dir}\t${lruState !== undefined ? 'yes' : 'no'}\t${wakesReal}\t${wakes}\t${scanReal}\t${scan}\t${placed}/${lruState !== undefined ? wanted : '-'}${model.summary.frozen ? `\tFROZEN: ${model.summary.frozen}` : ''}\n`,
    );
  }
  return 0;
}
