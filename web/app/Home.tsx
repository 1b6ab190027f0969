// The home page: introduces Buddyscope and shows a machine the wasm core simulates, by printing
// its /proc/buddyinfo as the kernel would. The proper binding lives in web/core/; this page talks
// to the module directly only until the app is built on that binding.
import { useEffect, useState } from 'react';
import createBuddyscope, { type BuddyscopeModule } from '../core/generated/buddyscope.mjs';

const PROC_BUDDYINFO = 0; // enum proc_file in wasm-core/src/sim.h

/** Copy a JS string into a fresh NUL-terminated buffer on the wasm heap (free with _free). */
function cString(mod: BuddyscopeModule, text: string): number {
  const size = new TextEncoder().encode(text).length + 1;
  const ptr = mod._malloc(size);
  mod.stringToUTF8(text, ptr, size);
  return ptr;
}

/** Build the named preset machine and render one of its /proc files. */
export function renderProc(mod: BuddyscopeModule, preset: string, which: number): string {
  const cfg = mod._bs_config_new();
  if (!cfg) throw new Error('bs_config_new: out of memory');
  let sim = 0;
  try {
    const name = cString(mod, preset);
    const rc = mod._bs_config_preset(cfg, name);
    mod._free(name);
    if (rc !== 0) throw new Error(`no machine preset called "${preset}" (error ${rc})`);
    sim = mod._bs_create(cfg);
    if (!sim) throw new Error(`bs_create failed (error ${mod._bs_last_error()})`);
    let cap = 4096;
    for (;;) {
      const buf = mod._malloc(cap);
      try {
        const needed = mod._bs_proc_render(sim, which, buf, cap);
        if (needed < cap) return mod.UTF8ToString(buf, needed);
        cap = needed + 1;
      } finally {
        mod._free(buf);
      }
    }
  } finally {
    if (sim) mod._bs_free(sim);
    mod._bs_free(cfg);
  }
}

type Machine =
  { state: 'loading' } | { state: 'ready'; buddyinfo: string } | { state: 'failed'; error: string };

export function Home() {
  const [machine, setMachine] = useState<Machine>({ state: 'loading' });

  useEffect(() => {
    let live = true;
    createBuddyscope()
      .then((mod) => {
        if (live)
          setMachine({ state: 'ready', buddyinfo: renderProc(mod, 'tiny', PROC_BUDDYINFO) });
      })
      .catch((err: unknown) => {
        if (live) setMachine({ state: 'failed', error: String(err) });
      });
    return () => {
      live = false;
    };
  }, []);

  return (
    <main>
      <h1>Buddyscope</h1>
      <p className="lede">
        How Linux hands out memory. A model of the kernel&apos;s page allocator runs here, in your
        browser, and shows every decision it makes: per-CPU lists filling and draining, buddy blocks
        splitting and merging, watermarks being crossed.
      </p>

      <section aria-labelledby="machine-heading">
        <h2 id="machine-heading">Your simulated machine</h2>
        <p>
          A tiny machine, just booted, with all of its memory free. This is its{' '}
          <code>/proc/buddyinfo</code>: for each zone, how many free blocks of 1, 2, 4, 8, … pages
          the buddy allocator holds, computed just now by the simulation core.
        </p>
        {machine.state === 'loading' && <p role="status">Starting the simulation…</p>}
        {machine.state === 'failed' && (
          <p role="alert" className="error">
            The simulation could not start: {machine.error}
          </p>
        )}
        {machine.state === 'ready' && (
          <pre className="proc" tabIndex={0} aria-label="/proc/buddyinfo of the simulated machine">
            {machine.buddyinfo}
          </pre>
        )}
      </section>
    </main>
  );
}
