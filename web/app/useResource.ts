/*
 * useResource.ts: an object that owns memory outside React (a Session owns a wasm arena), made
 * in an effect and disposed after its cleanup, so StrictMode's test re-mount and route changes
 * never leak an arena or use a freed one.
 */
import { useEffect, useState, type DependencyList } from 'react';

export function useResource<T>(
  create: () => T | null,
  dispose: (t: T) => void,
  deps: DependencyList,
): T | null {
  const [value, setValue] = useState<T | null>(null);
  useEffect(() => {
    const v = create();
    // Publishing the resource is the point of this effect: it exists only once the effect ran.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setValue(v);
    return () => {
      setValue(null);
      // Freed once this commit's effects have all run. React runs every cleanup of a commit
      // before its new effects, and a view may have drawn the resource in this same commit (a
      // compared machine that moved as its leader reloaded) and paint from it in its effect.
      if (v !== null) queueMicrotask(() => dispose(v));
    };
    // The caller's deps decide when the resource is rebuilt.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return value;
}
