/*
 * CodeView.tsx: the code that decided. Every event carries the line of the model's C that emitted
 * it (struct sim_event.src_file/src_line, set by ev_emit in wasm-core/src/base/event.h); this view
 * shows the C function around that line with the line highlighted, and links the kernel function
 * the event names to its source on elixir at the profile's version. Above it, the kernel function
 * that decided the event in our own pseudocode (pseudocode.ts), the deciding line marked: the
 * kernel engineer's reading in plain words. Stepping by event walks the code. The C files load on
 * demand (sources.ts), the first time a line of each is shown.
 */
import { memo, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { FN_FILES } from '../../core/generated/events';
import { fnName } from '../names';
import { eventAttrs, type ViewProps } from '../options';
import { enclosingFunction, statementEnd } from './c-function';
import { elixirIdentUrl, kernelTag } from './kernel-link';
import { pseudocodeFor, type Pseudo } from './pseudocode';
import { loadSource, sourcePath } from './sources';

/** Lines shown around a line that is in no function (a header's macro). */
const CONTEXT = 10;

/**
 * The pseudocode of the deciding function, its call path above it and the deciding line marked;
 * memoised on the pseudocode, which most kinds share across events.
 */
const PlainWords = memo(function PlainWords({ pseudo }: { pseudo: Pseudo }) {
  const fn = pseudo.path.at(-1) ?? '';
  return (
    <div className="pseudo" data-pseudo-path={pseudo.path.join(' > ')}>
      <p className="small">
        In plain words: <code>{pseudo.path.join(' → ')}</code>{' '}
        <span className="muted">(our pseudocode, not the kernel's source)</span>
      </p>
      <ol className="pseudo-lines" aria-label={`${fn}() in pseudocode`}>
        {pseudo.lines.map((l, i) => {
          const decided = pseudo.decided.includes(i);
          return (
            <li
              key={i}
              className={decided ? 'pseudo-line decided' : 'pseudo-line'}
              data-decided={decided || undefined}
            >
              {/* keep the indent, drop the padding that aligns comments in the table */}
              {l.replace(/(\S) {2,}/g, '$1 ')}
              {decided && <span className="visually-hidden"> (this decided the event)</span>}
            </li>
          );
        })}
      </ol>
    </div>
  );
});

type Loaded = { path: string; lines: string[] } | { path: string; error: string };

export function CodeView({ state, event, options }: ViewProps) {
  const hid = useId();
  const path = sourcePath(event?.srcFile);
  const line = event?.srcLine ?? 0;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!path || (loaded && loaded.path === path)) return;
    let live = true;
    loadSource(path).then(
      (text) => live && setLoaded({ path, lines: text.split('\n') }),
      (e: unknown) => live && setLoaded({ path, error: String(e) }),
    );
    return () => {
      live = false;
    };
  }, [path, loaded]);

  const lines = loaded && loaded.path === path && 'lines' in loaded ? loaded.lines : null;
  const shown = useMemo(() => {
    if (!lines || line < 1) return null;
    const f = enclosingFunction(lines, line);
    const first = f ? f.first : Math.max(1, line - CONTEXT);
    const last = f ? f.last : Math.min(lines.length, line + CONTEXT);
    return { name: f?.name ?? '', first, last, end: statementEnd(lines, line) };
  }, [lines, line]);

  // The function's lines, built again only when the file, the function or the line changes: a
  // step whose event came from the same line (most ops end at the same one) keeps them.
  const rows = useMemo(() => {
    if (!lines || !shown) return null;
    const out = [];
    for (let n = shown.first; n <= shown.last; n++) {
      const current = n >= line && n <= shown.end;
      out.push(
        <span
          key={n}
          className={current ? 'code-line current' : 'code-line'}
          data-line={n}
          data-current={n === line ? 'true' : undefined}
        >
          <span className="code-ln" aria-hidden="true">
            {n}
          </span>
          {lines[n - 1] || ' '}
          {'\n'}
        </span>,
      );
    }
    return out;
  }, [lines, shown, line]);

  // Keep the emitting line in view, a third of the way down the box (no page scroll). Positions
  // are read in the next animation frame, where the page is laid out for painting anyway: read
  // here, in the commit, they forced a layout of the whole page on every step (1-5 ms on the
  // 1 TiB machine with every view), and steps that share a frame now share one layout. Scheduled
  // from the commit, so the line is in place in the frame that first shows it.
  useLayoutEffect(() => {
    const b = box.current;
    // (no frames outside a browser: the unit tests' static render)
    if (!b || typeof requestAnimationFrame !== 'function') return;
    const frame = requestAnimationFrame(() => {
      const cur = b.querySelector<HTMLElement>('[data-current="true"]');
      if (cur) b.scrollTop = Math.max(0, cur.offsetTop - b.clientHeight / 3);
    });
    return () => cancelAnimationFrame(frame);
  }, [shown, line]);

  const kernelFn = event ? fnName(event.fn) : '';
  const pseudo = useMemo(() => (event ? pseudocodeFor(event) : null), [event]);
  const kernelFile = event ? (FN_FILES[event.fn] ?? '') : '';
  let body;
  if (!event) {
    body = <p className="muted">Step to an event to see the line of the model that emitted it.</p>;
  } else if (!path || line < 1) {
    body = (
      <p className="muted">
        This event did not come from the model (an imported trace), so no line emitted it.
      </p>
    );
  } else if (loaded && loaded.path === path && 'error' in loaded) {
    body = (
      <p role="alert">
        Could not load {path}: {loaded.error}
      </p>
    );
  } else if (!lines || !shown) {
    body = <p className="muted">Loading {path}…</p>;
  } else {
    body = (
      <div
        ref={box}
        className="code-box"
        tabIndex={0}
        role="region"
        aria-label={`${shown.name ? `${shown.name}() in ` : ''}${path}, line ${line} highlighted`}
        data-reduced-motion={options.reducedMotion ? 'true' : undefined}
      >
        <pre>
          <code>{rows}</code>
        </pre>
      </div>
    );
  }

  return (
    <section
      className="view code-view"
      aria-labelledby={hid}
      {...eventAttrs(event)}
      data-src-path={path ?? ''}
      data-src-line={line}
    >
      <header className="view-head">
        <h3 id={hid}>Code</h3>
      </header>
      {event && path && line > 0 && (
        <p className="small">
          The model:{' '}
          <code>
            {path.replace(/^src\//, 'wasm-core/src/')}:{line}
          </code>
          {shown?.name ? (
            <>
              {' '}
              in <code>{shown.name}()</code>
            </>
          ) : null}
          {kernelFn && (
            <>
              . The kernel:{' '}
              <a href={elixirIdentUrl(kernelFn, state.profileId)} target="_blank" rel="noreferrer">
                <code>{kernelFn}()</code>
              </a>{' '}
              in {kernelFile || 'the kernel'} ({kernelTag(state.profileId)}, on elixir)
            </>
          )}
        </p>
      )}
      {event && pseudo && <PlainWords pseudo={pseudo} />}
      {body}
      <span className="visually-hidden" aria-live="polite">
        {event && path && line > 0 ? `Code: ${path} line ${line}` : ''}
      </span>
    </section>
  );
}
