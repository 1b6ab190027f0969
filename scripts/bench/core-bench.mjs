// The core benchmark: the same seeded random alloc/free workload on the 1M-page machine, run by
// the native runner and by the wasm module in Node, printed side by side. Events are on in both
// (recorded into the state's buffer, cleared after every op).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const OP_FREE = 2;
const OP_RANDOM = 11;
const OP_SEED = 12;
const OP_LRU_ALLOC = 15;
const PURPOSE_FILE = 2;
const GFP_KERNEL = 0x400 | 0x800 | 0x40 | 0x80;
const GFP_HIGHUSER_MOVABLE = GFP_KERNEL | 0x100000 | 0x2 | 0x8;
export const OP_BYTES = 16;

/** Packed ops: a seed, then `steps` steps of one random stream of `capacity` live blocks. */
export function randomStreamOps({ steps, capacity, freePercent, maxOrder, cpus, seed }) {
  const buf = new ArrayBuffer((steps + 1) * OP_BYTES);
  const view = new DataView(buf);
  view.setUint8(0, OP_SEED);
  view.setInt32(12, seed, true);
  for (let i = 1; i <= steps; i++) {
    const at = i * OP_BYTES;
    const cpu = i % cpus;
    view.setUint8(at, OP_RANDOM);
    view.setUint8(at + 1, maxOrder);
    view.setUint16(at + 2, cpu, true);
    view.setUint32(at + 4, GFP_KERNEL, true);
    // one stream per CPU, each owning capacity + 1 handles
    view.setUint32(at + 8, cpu * (capacity + 1), true);
    view.setInt32(at + 12, freePercent | (capacity << 7), true);
  }
  return new Uint8Array(buf);
}

/**
 * Packed ops of a reclaim-heavy workload: `steps` order-0 page cache reads (OP_LRU_ALLOC for=file)
 * into `handles` handles in turn, CPUs interleaved. More handles than the machine has pages, so
 * the page cache outgrows memory and kswapd (and direct reclaim) keep freeing the oldest; once the
 * handles wrap, each read first frees the handle's previous block (a no-op when reclaim took it).
 */
export function lruStreamOps({ steps, handles, cpus }) {
  const buf = new ArrayBuffer(steps * OP_BYTES);
  const view = new DataView(buf);
  let n = 0;
  for (let i = 0; n < steps; i++) {
    const h = i % handles;
    const cpu = i % cpus;
    if (i >= handles) {
      const at = n++ * OP_BYTES;
      view.setUint8(at, OP_FREE);
      view.setUint16(at + 2, cpu, true);
      view.setUint32(at + 8, h, true);
      if (n >= steps) break;
    }
    const at = n++ * OP_BYTES;
    view.setUint8(at, OP_LRU_ALLOC);
    view.setUint16(at + 2, cpu, true);
    view.setUint32(at + 4, GFP_HIGHUSER_MOVABLE, true);
    view.setUint32(at + 8, h, true);
    view.setInt32(at + 12, PURPOSE_FILE, true);
  }
  return new Uint8Array(buf);
}

const OP_PERCPU_ALLOC = 30;
const OP_PERCPU_FREE = 31;

/** Packed ops: n percpu areas of size bytes (align 4) into handles 0..n-1, then freed in order. */
export function percpuOps({ n, size }) {
  const buf = new ArrayBuffer(2 * n * OP_BYTES);
  const view = new DataView(buf);
  for (let i = 0; i < n; i++) {
    const a = i * OP_BYTES;
    view.setUint8(a, OP_PERCPU_ALLOC);
    view.setUint32(a + 4, GFP_KERNEL, true);
    view.setUint32(a + 8, i, true);
    view.setInt32(a + 12, size | (4 << 16), true);
    const f = (n + i) * OP_BYTES;
    view.setUint8(f, OP_PERCPU_FREE);
    view.setUint32(f + 8, i, true);
  }
  return new Uint8Array(buf);
}

/**
 * Run ops natively; returns { ops, events, seconds, state_bytes }. With `what` '--layout' it applies
 * nothing and returns the booted arena's bytes by region instead (the runner's --layout).
 */
export function runNative(
  root,
  preset,
  opsFile,
  handles,
  percpuPeakKib = 0,
  percpuHandles = 0,
  what = '--time',
) {
  const out = execFileSync(
    join(root, 'wasm-core/build/sim-native'),
    [
      preset,
      opsFile,
      '--handles',
      String(handles),
      '--percpu-peak-kib',
      String(percpuPeakKib),
      '--percpu-handles',
      String(percpuHandles),
      what,
    ],
    {
      encoding: 'utf8',
    },
  );
  return JSON.parse(out);
}

/** The wasm module, compiled and instantiated once: native code is not recompiled per run either. */
export async function loadWasm(root) {
  const dir = join(root, 'web/core/generated');
  const { default: createBuddyscope } = await import(join(dir, 'buddyscope.mjs'));
  return createBuddyscope({ wasmBinary: readFileSync(join(dir, 'buddyscope.wasm')) });
}

/** Run the first `count` of ops on a fresh machine in the wasm module m; same shape as runNative. */
export function runWasm(
  m,
  preset,
  ops,
  handles,
  count = ops.length / OP_BYTES,
  percpuPeakKib = 0,
  percpuHandles = 0,
) {
  const cfg = m._bs_config_new();
  const name = m._malloc(32);
  m.stringToUTF8(preset, name, 32);
  if (m._bs_config_preset(cfg, name)) throw new Error(`unknown preset ${preset}`);
  m._free(name);
  const handlesOffset = layoutOffset(m, 'sim_config', 'max_handles');
  m.HEAPU32[(cfg + handlesOffset) >> 2] = handles;
  m.HEAPU32[(cfg + layoutOffset(m, 'sim_config', 'percpu_peak_kib')) >> 2] = percpuPeakKib;
  // the percpu handle table: as many entries as the run names percpu handles (0: none)
  m.HEAPU32[(cfg + layoutOffset(m, 'sim_config', 'percpu_handles')) >> 2] = percpuHandles;
  const sim = m._bs_create(cfg);
  if (!sim) throw new Error(`bs_create failed: ${m._bs_last_error()}`);
  const stateBytes = m._bs_arena_size(sim);
  const opsPtr = m._malloc(ops.length);
  m.HEAPU8.set(ops, opsPtr);
  const start = process.hrtime.bigint();
  const events = m._bs_run_ops(sim, opsPtr, count);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  m._free(opsPtr);
  m._bs_free(sim);
  m._bs_free(cfg);
  return { ops: count, events, seconds, state_bytes: stateBytes };
}

/** The fields of layout.def, in order. */
function layoutFields() {
  const def = readFileSync(new URL('../../wasm-core/src/layout.def', import.meta.url), 'utf8');
  return [...def.matchAll(/^LAYOUT\((\w+), (\w+)\)/gm)].map((x) => `${x[1]}.${x[2]}`);
}

/** Offset of struct.field from the wasm's layout table (layout.def order). */
function layoutOffset(m, struct, field) {
  const index = layoutFields().indexOf(`${struct}.${field}`);
  if (index < 0) throw new Error(`${struct}.${field} is not in layout.def`);
  return m.HEAPU32[(m._bs_layout_offsets() >> 2) + index];
}

/**
 * Bytes of one struct sim_event (the end of its last field, to 4-byte alignment), and of those
 * the emitting site's (src_file and src_line): what every buffered event costs.
 */
function eventRecordBytes(m) {
  let end = 0;
  let site = 0;
  layoutFields().forEach((f, i) => {
    if (!f.startsWith('sim_event.')) return;
    const off = m.HEAPU32[(m._bs_layout_offsets() >> 2) + i];
    const size = m.HEAPU32[(m._bs_layout_sizes() >> 2) + i];
    end = Math.max(end, off + size);
    if (f === 'sim_event.src_file' || f === 'sim_event.src_line') site += size;
  });
  return { bytes: Math.ceil(end / 4) * 4, site };
}

/**
 * One core benchmark: the same ops natively and in wasm, RUNS rounds, alternating sides. Returns
 * the fastest run of each side and the wasm/native speed ratio of every round. The ratio of one
 * round compares two runs a fraction of a second apart, so load that comes and goes on this
 * shared machine mostly hits both; its median is the steadier figure. The best runs show each
 * side unloaded, but on different rounds.
 */
export async function coreBench(
  root,
  { preset, cpus, steps, capacity, maxOrder, lruHandles, percpu },
) {
  // lruHandles: the reclaim-heavy page cache stream; percpu: n areas allocated then freed
  const ops = percpu
    ? percpuOps(percpu)
    : lruHandles
      ? lruStreamOps({ steps, handles: lruHandles, cpus })
      : randomStreamOps({ steps, capacity, freePercent: 50, maxOrder, cpus, seed: 42 });
  const peak = percpu ? Math.ceil((percpu.n * percpu.size) / 1024) : 0;
  const dir = mkdtempSync(join(tmpdir(), 'buddyscope-bench-'));
  const opsFile = join(dir, 'ops.bin');
  writeFileSync(opsFile, ops);
  const handles = percpu ? percpu.n : (lruHandles ?? cpus * (capacity + 1));
  const percpuHandles = percpu ? percpu.n : 0;
  const RUNS = 15;
  const fastest = (a, b) => (!a || b.seconds < a.seconds ? b : a);
  const m = await loadWasm(root);
  let native = null;
  let wasm = null;
  const ratios = [];
  try {
    // one untimed wasm run first: V8 tiers hot functions up while they run
    runWasm(m, preset, ops, handles, undefined, peak, percpuHandles);
    for (let i = 0; i < RUNS; i++) {
      const n = runNative(root, preset, opsFile, handles, peak, percpuHandles);
      const w = runWasm(m, preset, ops, handles, undefined, peak, percpuHandles);
      native = fastest(native, n);
      wasm = fastest(wasm, w);
      ratios.push(n.seconds / w.seconds);
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    return {
      native,
      wasm,
      eventRecord: eventRecordBytes(m),
      regions: runNative(root, preset, opsFile, handles, peak, percpuHandles, '--layout'),
      ratio: { median: sorted[RUNS >> 1], low: sorted[0], high: sorted.at(-1), runs: RUNS },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
