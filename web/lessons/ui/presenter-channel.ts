/*
 * presenter-channel.ts: the presentation window and the speaker's notes window talk over a
 * BroadcastChannel (same origin, no server). The presentation is the authority: it owns the
 * cursor and the model, announces every change as a `state` message, and answers a `hello` with
 * one. The notes window sends the same commands a clicker does (next, previous, reveal, blank),
 * so a key pressed in either window moves both.
 */
export const CHANNEL_NAME = 'buddyscope-presenter';

export type PresenterCommand = 'next' | 'previous' | 'reveal' | 'blank' | 'hello';

export type PresenterMessage =
  | { type: 'state'; slug: string; section: number; done: number[]; blank: boolean }
  | { type: 'command'; slug: string; command: PresenterCommand };

function isMessage(v: unknown): v is PresenterMessage {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  if (typeof m['slug'] !== 'string') return false;
  if (m['type'] === 'state')
    return (
      typeof m['section'] === 'number' &&
      Array.isArray(m['done']) &&
      typeof m['blank'] === 'boolean'
    );
  return m['type'] === 'command' && typeof m['command'] === 'string';
}

export interface PresenterLink {
  post(m: PresenterMessage): void;
  close(): void;
}

/** Open the channel; messages that are not ours are ignored. Without BroadcastChannel, a no-op. */
export function openPresenterLink(onMessage: (m: PresenterMessage) => void): PresenterLink {
  if (typeof BroadcastChannel === 'undefined') return { post: () => {}, close: () => {} };
  const ch = new BroadcastChannel(CHANNEL_NAME);
  ch.onmessage = (e: MessageEvent) => {
    if (isMessage(e.data)) onMessage(e.data);
  };
  return { post: (m) => ch.postMessage(m), close: () => ch.close() };
}
