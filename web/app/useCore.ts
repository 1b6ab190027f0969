/*
 * useCore.ts: the wasm core, loaded once for the whole app (each machine is an arena inside it).
 */
import { useEffect, useState } from 'react';
import { loadCore, type Core } from '../core/module';

export type CoreStatus =
  { state: 'loading' } | { state: 'ready'; core: Core } | { state: 'failed'; error: string };

let shared: Promise<Core> | null = null;

export function useCore(): CoreStatus {
  const [status, setStatus] = useState<CoreStatus>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    shared ??= loadCore();
    shared.then(
      (core) => live && setStatus({ state: 'ready', core }),
      (e: unknown) => live && setStatus({ state: 'failed', error: String(e) }),
    );
    return () => {
      live = false;
    };
  }, []);
  return status;
}
