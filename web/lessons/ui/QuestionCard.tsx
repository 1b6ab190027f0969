/*
 * QuestionCard.tsx: predict, then reveal. The learner answers first (a choice or a number); a
 * wrong answer shows why that answer is wrong and they may try again; the reveal stays locked
 * until they have answered once (or answered on an earlier visit). The reveal shows the keyed
 * answer, the explanation, and what the model itself says: the lesson's check evaluated on the
 * model at this point, so the answer on screen is never just the author's word.
 *
 * In presenter mode the room answers out loud: the options are shown large, nothing is locked,
 * and the reveal key shows the answer.
 */
import { useId, useState } from 'react';
import { showValue, type EvalResult } from '../expr-eval';
import type { Answered } from './progress';
import type { QuestionBlock } from '../types';
import { mark, type Marked } from './answer';
import { InlineMarkdown } from '../../markdown/Md';

export interface QuestionCardProps {
  question: QuestionBlock;
  number: number; // 1-based within the step
  revealed: boolean;
  saved: Answered | undefined; // from an earlier visit
  presenting: boolean;
  model: EvalResult | null; // the check on the model, once revealed
  revealsByRunning: boolean; // reveal: next-step: revealing runs the step below
  onAnswered: (a: Answered) => void;
  onReveal: () => void;
}

export function QuestionCard({
  question: q,
  number,
  revealed,
  saved,
  presenting,
  model,
  revealsByRunning,
  onAnswered,
  onReveal,
}: QuestionCardProps) {
  const id = useId();
  const [given, setGiven] = useState('');
  const [tries, setTries] = useState(0);
  const [last, setLast] = useState<Marked | null>(null);
  const answered = tries > 0 || saved !== undefined;
  const locked = !presenting && !answered;

  const submit = () => {
    if (given.trim() === '') return;
    const m = mark(q, given);
    setLast(m);
    setTries((t) => t + 1);
    if (m.right) {
      onAnswered(tries === 0 ? 'right' : 'retried');
      onReveal();
    }
  };

  const keyed = q.type === 'choice' ? q.options.find((o) => o.key === q.answer) : null;
  const modelText =
    model === null
      ? null
      : model.ok
        ? showValue(model.value)
        : `could not evaluate: ${model.message}`;

  return (
    <section
      className={`card question${revealed ? ' revealed' : ''}`}
      aria-labelledby={`${id}-h`}
      data-question={number}
    >
      <h3 id={`${id}-h`} className="card-kicker">
        Question {number}
        {saved && !revealed ? <span className="badge ok-badge">answered</span> : null}
      </h3>
      <p className="prompt" id={`${id}-p`}>
        <InlineMarkdown text={q.prompt} />
      </p>
      {q.type === 'choice' ? (
        <fieldset
          className="options"
          aria-labelledby={`${id}-p`}
          disabled={revealed && !presenting}
        >
          <legend className="visually-hidden">Your answer</legend>
          {q.options.map((o) => {
            const isKey = revealed && o.key === q.answer;
            // A label only where there is a radio to label (the room answers aloud in presenter mode).
            const Row = presenting ? 'div' : 'label';
            return (
              <Row
                key={o.key}
                className={`option${isKey ? ' keyed' : ''}${last && !last.right && given === o.key ? ' wrong' : ''}`}
                data-option={o.key}
              >
                {!presenting && (
                  <input
                    type="radio"
                    name={`${id}-choice`}
                    value={o.key}
                    checked={given === o.key}
                    onChange={() => setGiven(o.key)}
                  />
                )}
                <span className="option-key" aria-hidden={presenting ? undefined : true}>
                  {o.key}
                </span>
                <span className="option-text">
                  <InlineMarkdown text={o.text} />
                </span>
                {isKey && <span className="visually-hidden"> (the answer)</span>}
              </Row>
            );
          })}
        </fieldset>
      ) : (
        !presenting && (
          <p className="number-answer">
            <label>
              Your answer{' '}
              <input
                inputMode="decimal"
                value={given}
                disabled={revealed}
                onChange={(e) => setGiven(e.target.value)}
                onKeyDown={(e) => e.key === 'Enter' && submit()}
                size={8}
              />
            </label>
            {q.unit && <span> {q.unit}</span>}
          </p>
        )
      )}
      {!revealed && (
        <div className="card-actions">
          {!presenting && (
            <button
              type="button"
              className="primary"
              onClick={submit}
              disabled={given.trim() === ''}
            >
              Check my answer
            </button>
          )}
          <button
            type="button"
            onClick={onReveal}
            disabled={locked}
            aria-describedby={locked ? `${id}-lock` : undefined}
          >
            {revealsByRunning ? 'Reveal: run the step' : 'Reveal the answer'}
          </button>
          {locked && (
            <span id={`${id}-lock`} className="small muted">
              Answer first: the reveal unlocks once you have committed to a prediction.
            </span>
          )}
        </div>
      )}
      <div aria-live="polite">
        {last && !last.right && !revealed && (
          <div className="feedback wrong-feedback" role="status">
            <strong>Not quite.</strong>{' '}
            {last.why ? <InlineMarkdown text={last.why} /> : 'Try again, or reveal the answer.'}
          </div>
        )}
        {revealed && (
          <div className="feedback answer" data-revealed="true">
            {last?.right && (
              <p className="right-mark">{tries === 1 ? 'Right.' : 'Right, this time.'}</p>
            )}
            <p>
              <strong>Answer: </strong>
              {keyed ? (
                <>
                  {keyed.key}: <InlineMarkdown text={keyed.text} />
                </>
              ) : (
                <>
                  {q.type === 'number' ? q.answer : ''} {q.type === 'number' ? (q.unit ?? '') : ''}
                </>
              )}
            </p>
            <p>
              <InlineMarkdown text={q.explain} />
            </p>
            {modelText !== null && (
              <p className="model-says small" data-model-ok={model?.ok ? 'true' : 'false'}>
                The model says <code>{q.check}</code> = <strong>{modelText}</strong>
              </p>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
