/*
 * Embed.tsx: #/embed?s=LINK[&start=A][&end=B][&loop=1]: the views and the player of a shared
 * simulation alone, for an iframe in a blog post or slides. It plays ops A..B (default: all) once,
 * or over and over with loop=1, and links back to the full playground.
 */
import { useEffect, useState } from 'react';
import './embed.css';
import type { Core } from '../core/module';
import { decodeState, readLinkParams } from '../share/link';
import type { EmbedOptions, ShareState } from '../share/state';
import type { Theme } from '../views/palette';
import { compileText } from './compile';
import { Session } from './session';
import { SessionViews } from './SessionViews';
import { exposeTestApi } from './test-api';
import { useReducedMotion } from './theme';
import { Transport } from './Transport';
import { useCore } from './useCore';
import { useResource } from './useResource';
import { useTimelineActions } from './useTimelineActions';

type Opened =
  { ok: true; state: ShareState; embed: EmbedOptions; s: string } | { ok: false; message: string };

function EmbedPlayer({
  core,
  opened,
  theme,
}: {
  core: Core;
  opened: Extract<Opened, { ok: true }>;
  theme: Theme;
}) {
  const reducedMotion = useReducedMotion();
  const [failure, setFailure] = useState<string | null>(null);
  const session = useResource(
    () => {
      const out = compileText(opened.state.text, opened.state.machine);
      if (!out.ok) return null;
      try {
        return new Session(core, out.program);
      } catch {
        return null;
      }
    },
    (s) => s.dispose(),
    [core, opened],
  );
  useTimelineActions(session);
  useEffect(() => {
    if (!session) {
      const out = compileText(opened.state.text, opened.state.machine);
      // Reporting why the embedded workload cannot run is this effect's job.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setFailure(
        out.ok
          ? 'the core refused this machine'
          : `line ${out.error.line}, column ${out.error.col}: ${out.error.message}`,
      );
      return;
    }
    setFailure(null);
    exposeTestApi(session, null);
    const p = session.player;
    const { start, end, loop } = opened.embed;
    const from = Math.min(start ?? 0, p.length);
    const to = Math.min(end ?? p.length, p.length);
    if (start !== null || end !== null) p.seekOp(from);
    else p.seek(opened.state.position);
    // Play between the marks: at the end, go round again (loop) or stop.
    const off = p.subscribe(() => {
      if (p.position.op < to || !session.clock.playing) return;
      if (loop) p.seekOp(from);
      else session.clock.pause();
    });
    if (!reducedMotion && (start !== null || loop)) session.clock.play();
    return () => {
      off();
      exposeTestApi(null, null);
    };
  }, [session, opened, reducedMotion]);

  const full = `#/playground?s=${opened.s}`;
  return (
    <main id="main" className="embed">
      <h1 className="embed-title">
        Buddyscope{' '}
        <a href={full} target="_blank" rel="noreferrer">
          open in the playground
        </a>
      </h1>
      {failure && (
        <p role="alert" className="error">
          This embedded simulation cannot run: {failure}
        </p>
      )}
      {session && (
        <>
          <Transport session={session} />
          <SessionViews session={session} theme={theme} reducedMotion={reducedMotion} />
        </>
      )}
    </main>
  );
}

export default function Embed({ theme }: { theme: Theme }) {
  const core = useCore();
  const [opened, setOpened] = useState<Opened | null>(null);
  useEffect(() => {
    let live = true;
    const params = readLinkParams(window.location.hash);
    if (!params.s) {
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setOpened({
        ok: false,
        message: 'the embed link carries no simulation (expected #/embed?s=...)',
      });
      return;
    }
    const s = params.s;
    void decodeState(s).then((d) => {
      if (!live) return;
      setOpened(
        d.ok
          ? { ok: true, state: d.state, embed: params.embed, s }
          : { ok: false, message: `column ${d.error.col}: ${d.error.message}` },
      );
    });
    return () => {
      live = false;
    };
  }, []);
  if (core.state === 'failed' || (opened && !opened.ok)) {
    return (
      <main id="main" className="embed">
        <h1 className="embed-title">Buddyscope</h1>
        <p role="alert" className="error">
          {core.state === 'failed'
            ? `The simulation could not start: ${core.error}`
            : `This embed link cannot be opened: ${opened && !opened.ok ? opened.message : ''}`}
        </p>
      </main>
    );
  }
  if (core.state !== 'ready' || !opened) {
    return (
      <main id="main" className="embed">
        <h1 className="embed-title">Buddyscope</h1>
        <p role="status">Starting the simulation…</p>
      </main>
    );
  }
  return <EmbedPlayer core={core.core} opened={opened} theme={theme} />;
}
