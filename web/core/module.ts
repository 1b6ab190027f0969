/*
 * module.ts: loading the wasm core once and the calls every Sim shares: the layout, C strings,
 * names of profiles, event kinds and kernel functions. In the browser the Emscripten module
 * fetches its .wasm itself; in Node (tests, the command-line runner) the ES6 output of
 * Emscripten 3.1.6 cannot, so the bytes are read from disk and handed over as wasmBinary.
 */
import type { BuddyscopeModule, BuddyscopeModuleOptions } from './generated/buddyscope.mjs';
import { readLayout, type Layout } from './layout';
import type { MachineConfig } from './machine-config';
import { Sim } from './sim';

/** The loaded module: one per page (or process); many Sims may live in it. */
export class Core {
  readonly layout: Layout;

  constructor(readonly mod: BuddyscopeModule) {
    this.layout = readLayout(mod);
  }

  /** Build a machine; throws an Error saying why the core refused it. */
  createSim(config: MachineConfig): Sim {
    return new Sim(this, config);
  }

  /** Run fn with s as a NUL-terminated string on the wasm heap. */
  withCString<T>(s: string, fn: (ptr: number) => T): T {
    const size = new TextEncoder().encode(s).length + 1;
    const ptr = this.mod._malloc(size);
    if (!ptr) throw new Error('wasm heap exhausted');
    try {
      this.mod.stringToUTF8(s, ptr, size);
      return fn(ptr);
    } finally {
      this.mod._free(ptr);
    }
  }

  /** The C string at ptr. */
  string(ptr: number, max?: number): string {
    return ptr ? this.mod.UTF8ToString(ptr, max) : '';
  }

  /** enum profile_id of a profile name, or -1 (sim_profile_by_name). */
  profileByName(name: string): number {
    return this.withCString(name, (p) => this.mod._bs_profile_by_name(p));
  }

  /** The name of profile id ("6.18"), "" out of range. */
  profileName(id: number): string {
    return this.string(this.mod._bs_profile_name(id));
  }

  /** The name of an enum ev_kind ("mm_page_alloc", "pcp_refill"). */
  eventKindName(kind: number): string {
    return this.string(this.mod._bs_ev_kind_name(kind));
  }

  /** The kernel function of an enum ev_fn ("__rmqueue_smallest"). */
  eventFnName(fn: number): string {
    return this.string(this.mod._bs_ev_fn_name(fn));
  }

  /** SIM_MODEL_VERSION of this build. */
  modelVersion(): number {
    return this.mod._bs_model_version();
  }
}

let loading: Promise<Core> | null = null;

function inNode(): boolean {
  return (
    typeof process !== 'undefined' &&
    typeof process.versions === 'object' &&
    !!process.versions.node
  );
}

/** The wasm bytes from disk, for Node. The specifier is a variable so bundlers leave node:fs out. */
async function wasmBinaryFromDisk(): Promise<Uint8Array> {
  const fsModule = 'node:fs';
  const fs = (await import(/* @vite-ignore */ fsModule)) as typeof import('node:fs');
  return fs.readFileSync(new URL('./generated/buddyscope.wasm', import.meta.url));
}

/** Load the core once per page or process. */
export function loadCore(): Promise<Core> {
  loading ??= (async () => {
    const factory = (await import('./generated/buddyscope.mjs')).default;
    const options: BuddyscopeModuleOptions = {};
    if (inNode()) options.wasmBinary = await wasmBinaryFromDisk();
    return new Core(await factory(options));
  })();
  loading.catch(() => {
    loading = null; // let a later call try again (a missing build, a failed fetch)
  });
  return loading;
}
