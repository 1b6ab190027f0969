/*
 * DraftStatus.tsx: says, politely and in the page, how saving the draft goes when it does not go
 * well: storage full (what to do: download the workload, or delete saved workloads in My
 * workloads, then try again), a replaced draft held because it could not be kept (download it,
 * make room, or let it go: only the reader can), and where a replaced draft was kept.
 */
import { download } from '../app/download';
import type { DraftSaving } from '../app/playground/useWorkloadDraft';

export function DraftStatus({ saving, text }: { saving: DraftSaving; text: string }) {
  const { result, held, kept, retry, discardHeld } = saving;
  const room =
    'To make room, delete saved workloads you no longer need (My workloads), then press Try again.';
  let body = null;
  if (held) {
    body = (
      <>
        <p>
          This browser’s storage is full, so your previous draft could not be kept in My workloads
          before {held.reason} replaced it. It has not been thrown away: the copy saved in this
          browser will not be overwritten, and your edits here are not saved, until you choose.
          Download it to keep a copy. {room}
        </p>
        <div className="tool-row">
          <button
            type="button"
            onClick={() => download('buddyscope-previous-draft.workload', held.text)}
          >
            Download previous draft
          </button>
          <button type="button" onClick={retry}>
            Try again
          </button>
          <button
            type="button"
            onClick={() => {
              if (window.confirm('Let the previous draft go? It cannot be brought back.'))
                discardHeld();
            }}
          >
            Discard previous draft
          </button>
        </div>
      </>
    );
  } else if (result !== 'ok') {
    body = (
      <>
        <p>
          {result === 'full'
            ? 'This browser’s storage is full, so your latest edits are not saved here.'
            : 'This browser does not let the page save, so your latest edits are not saved here.'}{' '}
          Download the workload to keep it. {result === 'full' ? room : ''}
        </p>
        <div className="tool-row">
          <button type="button" onClick={() => download('buddyscope.workload', text)}>
            Download this workload
          </button>
          <button type="button" onClick={retry}>
            Try again
          </button>
        </div>
      </>
    );
  } else if (kept) {
    body = <p>Your previous draft is kept in My workloads as “{kept}”.</p>;
  }
  // Like the page's other banners, present only while it has something to say.
  if (!body) return null;
  return (
    <div role="status" className="banner draft-status">
      {body}
    </div>
  );
}
