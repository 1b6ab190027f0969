/*
 * Home.tsx: what Buddyscope is, a live miniature of it (the tiny machine running a short
 * workload, its memory map and /proc/buddyinfo changing as it goes), and the ways in.
 */
import { lazy, Suspense, useEffect } from 'react';
import { unpackProgram } from '../workload/program';
import miniature from './home-miniature.workload?program';
import { useResource } from './useResource';
import { narrate } from '../views/narrate';
import type { Theme } from '../views/palette';
import { routeHref } from './router';
import { Session } from './session';
import { useReducedMotion } from './theme';
import { useCore } from './useCore';
import { usePlayerVersion } from './usePlayer';

const MemoryMap = lazy(() => import('../views/MemoryMap').then((m) => ({ default: m.MemoryMap })));

// The miniature's workload, compiled at build time (web/workload/vite-plugin.ts): the home page
// ships no parser or compiler.
const MINI = unpackProgram(miniature);

function Miniature({ theme }: { theme: Theme }) {
  const core = useCore();
  const reduced = useReducedMotion();
  const session = useResource(
    () => {
      if (core.state !== 'ready') return null;
      const s = new Session(core.core, MINI);
      s.clock.setSpeed(3);
      s.clock.setGrain('op');
      return s;
    },
    (s) => s.dispose(),
    [core],
  );
  useEffect(() => {
    if (!session) return;
    if (reduced) session.player.end();
    else session.clock.play();
  }, [session, reduced]);
  usePlayerVersion(session?.player ?? null);

  if (core.state === 'failed') {
    return (
      <p role="alert" className="error">
        The simulation could not start: {core.error}
      </p>
    );
  }
  if (!session) return <p role="status">Starting the simulation…</p>;
  const state = session.state();
  const event = session.player.currentEvent;
  return (
    <div className="miniature">
      <Suspense fallback={<p className="muted">Loading the memory map…</p>}>
        <MemoryMap
          state={state}
          event={event}
          opEvents={session.player.currentOpEvents}
          options={{ theme, reducedMotion: reduced }}
        />
      </Suspense>
      <div className="mini-side">
        <p className="small mini-narration">
          {event ? narrate(event).text : 'The machine as booted: all memory free.'}
        </p>
        <button
          type="button"
          onClick={() => {
            if (session.clock.playing) session.clock.pause();
            else session.clock.play();
          }}
        >
          {session.clock.playing ? 'Pause' : 'Play again'}
        </button>
      </div>
      <pre
        className="proc mini-proc"
        tabIndex={0}
        aria-label="/proc/buddyinfo of the simulated machine"
      >
        {session.proc('buddyinfo')}
      </pre>
    </div>
  );
}

export function Home({ theme }: { theme: Theme }) {
  return (
    <main id="main" tabIndex={-1}>
      <h1>Buddyscope</h1>
      <p className="lede">
        How Linux hands out memory. A model of the kernel&apos;s page allocator runs here, in your
        browser, and shows every decision it makes: per-CPU lists filling and draining, buddy blocks
        splitting and merging, watermarks being crossed.
      </p>

      <section aria-labelledby="machine-heading">
        <h2 id="machine-heading">Your simulated machine</h2>
        <p>
          A tiny machine with 256 pages and two CPUs, running a short workload. Each cell is a page
          frame; colours say who holds it, and <code>/proc/buddyinfo</code> counts the free blocks
          of 1, 2, 4, 8, … pages, computed by the simulation core as it goes.
        </p>
        <Miniature theme={theme} />
      </section>

      <section aria-labelledby="ways-heading" className="ways">
        <h2 id="ways-heading">Ways in</h2>
        <ul className="cards">
          <li>
            <a href={routeHref('lessons')}>
              <strong>Lessons</strong>
              <span>
                Guided tours: predict what the allocator will do, then watch it, step by step.
              </span>
            </a>
          </li>
          <li>
            <a href={routeHref('playground')}>
              <strong>Playground</strong>
              <span>
                Write a workload, pick a machine and a kernel version, and step through every
                decision.
              </span>
            </a>
          </li>
          <li>
            <a href={routeHref('notes')}>
              <strong>Model notes</strong>
              <span>
                Where the model simplifies the kernel, so nothing you learn here is silently
                different.
              </span>
            </a>
          </li>
          <li>
            <a href={routeHref('keys')}>
              <strong>Keyboard</strong>
              <span>Everything works from the keyboard: press ? anywhere for the keys.</span>
            </a>
          </li>
        </ul>
      </section>
    </main>
  );
}
