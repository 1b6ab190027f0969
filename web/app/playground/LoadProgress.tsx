/*
 * LoadProgress.tsx: a long workload on its way: a progress bar with its percentage, and a button
 * that stops it (the previous run stays). The bar says every step; the live region says only
 * every quarter, so a screen reader hears progress without being flooded by it.
 */
import { formatCount } from '../../core/count';

export interface Loading {
  done: number;
  total: number; // 0: still compiling
}

export function LoadProgress({ loading, onCancel }: { loading: Loading; onCancel: () => void }) {
  const { done, total } = loading;
  const percent = total > 0 ? Math.floor((100 * done) / total) : 0;
  const said = total > 0 ? `Loading the workload: ${Math.floor(percent / 25) * 25}%` : 'Compiling';
  return (
    <div className="banner loading-run">
      <label>
        {total > 0 ? 'Loading the workload' : 'Compiling the workload'}{' '}
        <progress
          max={100}
          value={total > 0 ? percent : undefined}
          aria-valuetext={
            total > 0 ? `${percent}%, ${formatCount(done)} of ${formatCount(total)} ops` : undefined
          }
        />{' '}
        <span aria-hidden="true">
          {total > 0 ? `${percent}% (${formatCount(done)} of ${formatCount(total)} ops)` : ''}
        </span>
      </label>
      <span className="visually-hidden" role="status" aria-live="polite">
        {said}
      </span>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
