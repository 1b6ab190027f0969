/*
 * GoalCard.tsx: a ```goal block: a sandbox on the lesson's machine as it stands here. The learner
 * adds ops with the playground's op buttons or types them, runs them, and the goal's check is
 * evaluated on the model after every run. The hint is one click away; the author's solution
 * appears after three runs that did not reach the goal. Nothing done here leaks into the rest of
 * the lesson: the sandbox starts from the goal's point every time.
 */
import { useId, useState } from 'react';
import { OpButtons } from '../../app/OpButtons';
import { showValue, type EvalResult } from '../expr-eval';
import type { GoalBlock } from '../types';
import { InlineMarkdown } from '../../markdown/Md';

const TRIES_BEFORE_SOLUTION = 3;

export interface GoalCardProps {
  goal: GoalBlock;
  reached: boolean; // now or on an earlier visit
  result: {
    text: string;
    error: { line: number; message: string } | null;
    check: EvalResult | null;
  } | null;
  cpus: number;
  maxOrder: number;
  onRun: (text: string) => void;
  onReset: () => void;
}

export function GoalCard({ goal, reached, result, cpus, maxOrder, onRun, onReset }: GoalCardProps) {
  const id = useId();
  const [text, setText] = useState('');
  const [runs, setRuns] = useState(0);
  const run = (t: string) => {
    setText(t);
    setRuns((n) => n + 1);
    onRun(t);
  };
  const append = (stmt: string) =>
    run(text.trim() === '' ? stmt : `${text.replace(/\n*$/, '')}\n${stmt}`);
  const now = result?.check?.ok ? result.check.value === true : false;
  return (
    <section className={`card goal${reached ? ' reached' : ''}`} aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`} className="card-kicker">
        Goal {reached && <span className="badge ok-badge">reached</span>}
      </h3>
      <p className="prompt">
        <InlineMarkdown text={goal.goal} />
      </p>
      <p className="small muted">
        Your ops run on the machine as the lesson left it here; the views show the result.
      </p>
      <label htmlFor={`${id}-ops`} className="editor-label">
        Your ops (workload language, one per line)
      </label>
      <textarea
        id={`${id}-ops`}
        className="sandbox-editor"
        rows={5}
        spellCheck={false}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-describedby={result?.error ? `${id}-err` : undefined}
        aria-invalid={result?.error ? true : undefined}
      />
      <div className="card-actions">
        <button type="button" className="primary" onClick={() => run(text)}>
          Run my ops
        </button>
        <button
          type="button"
          onClick={() => {
            setText('');
            onReset();
          }}
        >
          Start over
        </button>
      </div>
      <OpButtons cpus={cpus} maxOrder={maxOrder} append={append} />
      <div aria-live="polite">
        {result?.error && (
          <p id={`${id}-err`} className="error" role="alert">
            Line {result.error.line}: {result.error.message}
          </p>
        )}
        {result && !result.error && result.check && (
          <p
            className={`goal-status ${now ? 'ok' : 'not-yet'}`}
            role="status"
            data-goal-reached={now}
          >
            {now ? (
              <strong>Goal reached.</strong>
            ) : result.check.ok ? (
              <>
                Not yet: <code>{goal.check}</code> is {showValue(result.check.value)}.
              </>
            ) : (
              <>Could not check: {result.check.message}</>
            )}
          </p>
        )}
      </div>
      <details className="hint">
        <summary>Hint</summary>
        <p>
          <InlineMarkdown text={goal.hint} />
        </p>
      </details>
      {(runs >= TRIES_BEFORE_SOLUTION || reached) && (
        <details className="hint">
          <summary>One solution</summary>
          <pre className="code" tabIndex={0}>
            <code>{goal.solution}</code>
          </pre>
          <button type="button" onClick={() => run(goal.solution)}>
            Run this solution
          </button>
        </details>
      )}
    </section>
  );
}
