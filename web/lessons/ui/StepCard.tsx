/*
 * StepCard.tsx: a ```step block: the ops it runs (as workload text, so readers learn the language)
 * and a button that runs them; afterwards the views show the result and ring what the step points
 * at. A step that a next-step question reveals waits for that question, so the answer is not
 * given away by running it first. Once run, "Show me again" replays the step's ops from the step's
 * start (event by event when they are few), or with reduced motion shows the end at once.
 */
import { useId } from 'react';
import type { StepBlock } from '../types';
import { InlineMarkdown } from '../../markdown/Md';

export function StepCard({
  step,
  ran,
  waitingFor,
  onRun,
  onReplay,
}: {
  step: StepBlock;
  ran: boolean;
  waitingFor: number | null;
  onRun: () => void;
  /** Replays the step in the views; null when the views do not show this step's ops. */
  onReplay: (() => void) | null;
}) {
  const id = useId();
  const hasOps = step.ops.trim() !== '';
  return (
    <section
      className={`card step-card${ran ? ' ran' : ''}`}
      aria-labelledby={id}
      data-ran={ran || undefined}
    >
      <h3 id={id} className="card-kicker">
        {hasOps ? 'Run' : 'Look'}
      </h3>
      {hasOps && (
        <pre className="code ops" tabIndex={0} aria-label="Ops this step runs">
          <code>{step.ops}</code>
        </pre>
      )}
      {step.caption && ran && (
        <p className="step-caption">
          <InlineMarkdown text={step.caption} />
        </p>
      )}
      <div className="card-actions">
        {ran ? (
          <>
            <span className="done-mark">
              {hasOps ? 'Ran: the views show the result.' : 'Shown in the views.'}
            </span>
            {hasOps && onReplay && (
              <button type="button" className="replay" onClick={onReplay}>
                Show me again
              </button>
            )}
          </>
        ) : (
          <>
            <button
              type="button"
              className="primary"
              onClick={onRun}
              disabled={waitingFor !== null}
            >
              {hasOps ? 'Run these ops' : 'Show me'}
            </button>
            {waitingFor !== null && (
              <span className="small muted">
                Answer question {waitingFor} first: this step reveals it.
              </span>
            )}
          </>
        )}
      </div>
    </section>
  );
}
