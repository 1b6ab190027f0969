/*
 * Playground.tsx: run any workload on any machine and kernel profile, step through what the
 * allocator did, add ops by hand, and compare two profiles on the same workload. This is the
 * route: it resolves what to open (a share link, a scenario, the saved draft or the default:
 * workload-source.ts) and hands it to the page (playground/PlaygroundBody.tsx).
 */
import { useEffect, useState } from 'react';
import { WorkloadStore } from '../saved/store';
import type { Theme } from '../views/palette';
import { PlaygroundBody } from './playground/PlaygroundBody';
import { useCore } from './useCore';
import { resolveSource, type WorkloadSource } from './workload-source';

/** Resolve what to open (a link is decoded asynchronously), then show the playground. */
export default function Playground({ theme }: { theme: Theme }) {
  const core = useCore();
  // Each resolved source gets a number: a new one remounts the body with its initial state.
  const [source, setSource] = useState<{ s: WorkloadSource; n: number } | null>(null);
  const [store] = useState(() => WorkloadStore.ofWindow());
  // A link followed while the playground is open changes only the hash: open it too.
  const [opened, setOpened] = useState(0);
  useEffect(() => {
    const onHash = () => {
      if (window.location.hash.includes('?')) setOpened((n) => n + 1);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    if (core.state !== 'ready') return;
    let live = true;
    void resolveSource(window.location.hash, store, core.core.modelVersion()).then((s) => {
      if (!live) return;
      // The link has been read: a reload should show the reader's edits, not the link again.
      if (s.from === 'link' || s.from === 'scenario' || s.error)
        window.history.replaceState(null, '', '#/playground');
      setSource((prev) => ({ s, n: (prev?.n ?? 0) + 1 }));
    });
    return () => {
      live = false;
    };
  }, [core, store, opened]);
  if (core.state === 'failed') {
    return (
      <main id="main" className="playground">
        <h1>Playground</h1>
        <p role="alert" className="error">
          The simulation could not start: {core.error}
        </p>
      </main>
    );
  }
  if (core.state !== 'ready' || !source) {
    return (
      <main id="main" className="playground">
        <h1>Playground</h1>
        <p role="status">Starting the simulation…</p>
      </main>
    );
  }
  return (
    <PlaygroundBody key={source.n} theme={theme} source={source.s} store={store} core={core.core} />
  );
}
