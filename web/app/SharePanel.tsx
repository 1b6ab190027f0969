/*
 * SharePanel.tsx: make a link to exactly this step of this simulation, or an embed link (the
 * views and player alone, for an iframe) with optional start and end ops and looping. The link is
 * shown in a field as well as copied, since the clipboard may be refused.
 */
import { useState } from 'react';
import { encodeState, linkUrl, LinkTooLongError } from '../share/link';
import type { EmbedOptions, ShareState } from '../share/state';

export function SharePanel({
  getState,
  modelVersion,
  opCount,
}: {
  getState: () => ShareState;
  modelVersion: number;
  opCount: number;
}) {
  const [url, setUrl] = useState('');
  const [said, setSaid] = useState('');
  const [embed, setEmbed] = useState<EmbedOptions>({ start: null, end: null, loop: false });

  const make = async (asEmbed: boolean) => {
    let s: string;
    try {
      s = await encodeState(getState(), modelVersion);
    } catch (e) {
      if (!(e instanceof LinkTooLongError)) throw e;
      setUrl('');
      setSaid(`No link: ${e.message}.`);
      return;
    }
    const u = linkUrl(window.location, s, asEmbed ? embed : undefined);
    setUrl(u);
    try {
      await navigator.clipboard.writeText(u);
      setSaid(
        asEmbed ? 'Embed link copied.' : 'Link copied: it opens this step of this simulation.',
      );
    } catch {
      setSaid('Copy the link from the field below.');
    }
  };
  const num = (v: string) =>
    v === '' ? null : Math.max(0, Math.min(opCount, Math.floor(Number(v))));

  return (
    <div className="tool share-panel">
      <div className="tool-row">
        <button type="button" onClick={() => void make(false)}>
          Copy share link
        </button>
        <button type="button" onClick={() => void make(true)}>
          Copy embed link
        </button>
      </div>
      <fieldset className="tool-row">
        <legend>Embed options</legend>
        <label>
          From op{' '}
          <input
            type="number"
            min={0}
            max={opCount}
            value={embed.start ?? ''}
            onChange={(e) => setEmbed({ ...embed, start: num(e.target.value) })}
          />
        </label>
        <label>
          to op{' '}
          <input
            type="number"
            min={0}
            max={opCount}
            value={embed.end ?? ''}
            onChange={(e) => setEmbed({ ...embed, end: num(e.target.value) })}
          />
        </label>
        <label>
          <input
            type="checkbox"
            checked={embed.loop}
            onChange={(e) => setEmbed({ ...embed, loop: e.target.checked })}
          />{' '}
          loop
        </label>
      </fieldset>
      {url && (
        <label className="link-field">
          Link{' '}
          <input
            type="text"
            readOnly
            value={url}
            onFocus={(e) => e.target.select()}
            data-testid="share-url"
          />
        </label>
      )}
      <p role="status" className="small muted">
        {said}
      </p>
    </div>
  );
}
