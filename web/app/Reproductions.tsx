/*
 * Reproductions.tsx: the #/reproductions page. Runs every seed reproduction (web/reproductions/,
 * the definitions `npm run sim -- --reproduce` runs) on the wasm core in this tab and shows, for
 * each, a table of the model's figures beside the source's (the primary form) and a bar chart
 * of the same numbers.
 */
import { useEffect, useState } from 'react';
import { formatCount } from '../core/count';
import { REPRODUCTIONS } from '../reproductions/index';
import { reproduce } from '../reproductions/runner';
import type { Reproduction, ReproductionResult } from '../reproductions/types';
import { useAnnounce } from './LiveRegion';
import { ReproductionChart } from './ReproductionChart';
import { useCore } from './useCore';
import './reproductions.css';

interface Ran {
  def: Reproduction;
  result: ReproductionResult;
}

function FiguresTable({ def, result }: Ran) {
  return (
    <table>
      <caption>{result.seed}: the model&apos;s figures and the source&apos;s, per profile</caption>
      <thead>
        <tr>
          <th scope="col">Metric</th>
          <th scope="col">Profile</th>
          <th scope="col" className="num">
            Model
          </th>
          <th scope="col" className="num">
            Source
          </th>
          <th scope="col">Unit</th>
        </tr>
      </thead>
      {result.rows.map((row, i) => {
        const profiles = Object.keys(row.model);
        return (
          <tbody key={row.metric}>
            {profiles.map((p, j) => {
              const seed = row.seed[p];
              return (
                <tr key={p}>
                  {j === 0 && (
                    <th scope="rowgroup" rowSpan={profiles.length}>
                      <code>{row.metric}</code>
                      <span className="what">{def.metrics[i]?.label}</span>
                    </th>
                  )}
                  <td>
                    <code>{p}</code>
                  </td>
                  <td className="num">{formatCount(row.model[p] ?? 0)}</td>
                  <td className="num">
                    {seed === undefined ? (
                      <>
                        <span aria-hidden="true">–</span>
                        <span className="visually-hidden">none given</span>
                      </>
                    ) : (
                      formatCount(seed)
                    )}
                  </td>
                  <td>{row.unit}</td>
                </tr>
              );
            })}
          </tbody>
        );
      })}
    </table>
  );
}

function ReproductionSection({ def, result }: Ran) {
  const headingId = `repro-${result.seed}`;
  return (
    <section className="reproduction" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {result.seed}: {result.title}
      </h2>
      <p className="source">
        <strong>Source:</strong> {def.source}
      </p>
      <FiguresTable def={def} result={result} />
      <figure>
        <ReproductionChart result={result} />
        <figcaption>
          The table&apos;s figures as bars: one panel per metric, the source&apos;s figure as a
          dashed mark where it gives one.
        </figcaption>
      </figure>
      <p className="notes">{result.notes}</p>
    </section>
  );
}

export default function Reproductions() {
  const status = useCore();
  const core = status.state === 'ready' ? status.core : null;
  const announce = useAnnounce();
  const [ran, setRan] = useState<Ran[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!core) return;
    let live = true;
    // After a frame, so the "running" status paints before the runs hold the main thread.
    const timer = setTimeout(() => {
      try {
        const out = REPRODUCTIONS.filter((def) => !def.commandLineOnly).map((def) => ({
          def,
          result: reproduce(core, def),
        }));
        if (!live) return;
        setRan(out);
        announce(`Ran ${out.map((r) => r.def.name).join(' and ')} on the model.`);
      } catch (e) {
        if (live) setError(e instanceof Error ? e.message : String(e));
      }
    }, 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [core, announce]);

  const failed = status.state === 'failed' ? status.error : error;
  return (
    <main id="main" className="reproductions-page prose" tabIndex={-1}>
      <h1>Seed reproductions</h1>
      <p className="lede">
        Published claims about the page allocator, rerun on the model in your browser: the
        model&apos;s figures beside the source&apos;s own.
      </p>
      <p>
        Each reproduction runs a few workloads under the kernel profiles the source compares and
        reads its figures from the model&apos;s counters and events. Where the source gives no
        figure for a metric, its column stays empty: nothing is filled in. The same runs print from
        the command line with <code>npm run --silent sim -- --reproduce seed-000 [--json]</code>.
      </p>
      {failed ? (
        <p className="error" role="alert">
          The reproductions could not run: {failed}
        </p>
      ) : ran === null ? (
        <p role="status" className="loading">
          Running the reproductions…
        </p>
      ) : (
        ran.map((r) => <ReproductionSection key={r.def.name} def={r.def} result={r.result} />)
      )}
      {REPRODUCTIONS.filter((def) => def.commandLineOnly).map((def) => (
        <section key={def.name} aria-labelledby={`${def.name}-title`}>
          <h2 id={`${def.name}-title`}>
            {def.name}: {def.title}
          </h2>
          <p>{def.source}</p>
          <p>
            Its workloads run a million operations each, too long for a browser tab: run it with{' '}
            <code>npm run --silent sim -- --reproduce {def.name} [--json]</code>.
          </p>
          <p className="notes">{def.notes}</p>
        </section>
      ))}
    </main>
  );
}
