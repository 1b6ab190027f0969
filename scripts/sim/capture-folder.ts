/*
 * capture-folder.ts: a capture folder as scripts/capture writes it (trace.gz and the /proc files
 * taken around it), read one way for every replayer of it: `sim --compare-trace DIR`, the
 * fidelity test (tests/fidelity/captured.test.ts) and scripts/capture/kswapd-figures.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CaptureTexts } from '../../web/workload/trace-compare';
import { InputError, readText } from './input';

/** Where each of a capture's files is; null: this capture has none. */
export interface CapturePaths {
  trace: string;
  zoneinfo: string;
  buddyinfo: string | null;
  pagetypeinfo: string | null;
  sysctl: string | null; // `sysctl vm` output
  lruState: string | null; // the LRU's memcgs, lists and folio orders (gzip)
  vmstatBefore: string | null;
  vmstatAfter: string | null;
}

/** Whether dir holds a capture: its trace and the zoneinfo read before it. */
export function isCaptureFolder(dir: string): boolean {
  return existsSync(join(dir, 'trace.gz')) && existsSync(join(dir, 'zoneinfo'));
}

/** The paths of dir's capture files; a folder without trace.gz or zoneinfo is an input error. */
export function captureFolderPaths(dir: string): CapturePaths {
  const optional = (name: string) => (existsSync(join(dir, name)) ? join(dir, name) : null);
  for (const needed of ['trace.gz', 'zoneinfo'])
    if (!optional(needed))
      throw new InputError(`${dir}: a capture folder holds ${needed} (scripts/capture)`);
  return {
    trace: join(dir, 'trace.gz'),
    zoneinfo: join(dir, 'zoneinfo'),
    buddyinfo: optional('buddyinfo'),
    pagetypeinfo: optional('pagetypeinfo'),
    sysctl: optional('sysctl-vm'),
    lruState: optional('lru-state.gz'),
    vmstatBefore: optional('vmstat-before'),
    vmstatAfter: optional('vmstat-after'),
  };
}

/** The texts captureReplay takes, from the capture's files (without the lru-state if told). */
export function readCapture(paths: CapturePaths, { lruState = true } = {}): CaptureTexts {
  const texts: CaptureTexts = { trace: readText(paths.trace), zoneinfo: readText(paths.zoneinfo) };
  for (const k of ['buddyinfo', 'pagetypeinfo', 'sysctl', 'lruState'] as const) {
    const p = paths[k];
    if (p && (k !== 'lruState' || lruState)) texts[k] = readText(p);
  }
  return texts;
}

/** The path of the file a captureReplay error names ('trace', 'zoneinfo', 'lru-state', ...). */
export function capturePathOf(paths: CapturePaths, file: string): string {
  const key = file === 'lru-state' ? 'lruState' : file;
  const p = key in paths ? paths[key as keyof CapturePaths] : null;
  return p ?? file;
}

/** A /proc/vmstat counter of a file's text ("name value" lines); NaN when it lacks it. */
export function vmstatCounter(text: string | undefined, name: string): number {
  const line = (text ?? '').split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.slice(name.length + 1).trim() ?? NaN);
}

/** What /proc/vmstat counted between the files taken around the trace; NaN without them. */
export function vmstatDelta(paths: CapturePaths, name: string): number {
  if (!paths.vmstatBefore || !paths.vmstatAfter) return NaN;
  return (
    vmstatCounter(readText(paths.vmstatAfter), name) -
    vmstatCounter(readText(paths.vmstatBefore), name)
  );
}
