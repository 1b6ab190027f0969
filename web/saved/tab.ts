/*
 * tab.ts: this tab's id, which names its draft (store.ts). It is kept in sessionStorage, so a
 * reload of the tab finds its own draft while other tabs have their own. A duplicated tab copies
 * sessionStorage, id included: the pages holding one id find each other on a BroadcastChannel
 * and the younger takes a new id, so two live tabs never write one draft.
 */

type Session = Pick<Storage, 'getItem' | 'setItem'> | null;

const TAB_KEY = 'buddyscope.tab';
const CHANNEL = 'buddyscope.tabs';

/** A new id, unlike any other tab's. */
export function newTabId(): string {
  return `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

function remember(session: Session, id: string): void {
  try {
    session?.setItem(TAB_KEY, id);
  } catch {
    // no sessionStorage: this page load is its own tab
  }
}

/** This tab's id: the one kept in sessionStorage, or a new one kept there. */
export function tabIdOf(session: Session): string {
  try {
    const id = session?.getItem(TAB_KEY);
    if (id && /^[a-z0-9]{1,40}$/.test(id)) return id;
  } catch {
    // unreadable: make one up
  }
  const made = newTabId();
  remember(session, made);
  return made;
}

interface Claim {
  type: 'hello' | 'taken';
  id: string;
  born: number;
  nonce: string;
}

/**
 * Hold `id` for this page while it lives: when another live page says it holds the same id, the
 * younger of the two takes a new one (kept in its sessionStorage) and is told through `renamed`.
 * Returns a function that lets go.
 */
export function claimTab(
  id: string,
  session: Session,
  renamed: (id: string) => void,
  channel = CHANNEL,
): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const born = Date.now();
  const nonce = Math.random().toString(36).slice(2);
  let current = id;
  const ch = new BroadcastChannel(channel);
  const rename = () => {
    current = newTabId();
    remember(session, current);
    renamed(current);
  };
  ch.onmessage = (e: MessageEvent<Claim>) => {
    const m = e.data;
    if (m.id !== current || m.nonce === nonce) return;
    if (m.type === 'taken') return rename();
    const older = born < m.born || (born === m.born && nonce < m.nonce);
    if (older) ch.postMessage({ type: 'taken', id: current, born, nonce } satisfies Claim);
    else rename();
  };
  ch.postMessage({ type: 'hello', id: current, born, nonce } satisfies Claim);
  return () => ch.close();
}
