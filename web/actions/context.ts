/*
 * context.ts: the one registry of the app, reachable from any component, and the hooks that
 * register an action for as long as a component is mounted.
 */
import { createContext, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import { ActionRegistry, type Action } from './registry';

export const ActionsContext = createContext<ActionRegistry>(new ActionRegistry());

export function useActions(): ActionRegistry {
  return useContext(ActionsContext);
}

/**
 * Register an action while mounted. The latest run/enabled are always used (kept in a ref), so
 * callers may pass closures over fresh props without re-registering on every render.
 */
export function useAction<A>(action: Action<A>): void {
  const registry = useActions();
  const latest = useRef(action);
  useEffect(() => {
    latest.current = action;
  });
  const { id, label, group } = action;
  const keys = action.keys?.join(' ');
  useEffect(
    () =>
      registry.register<A>({
        id,
        label,
        group,
        keys: keys ? keys.split(' ') : undefined,
        enabled: () => (latest.current.enabled ? latest.current.enabled() : true),
        run: (arg) => latest.current.run(arg),
      }),
    [registry, id, label, group, keys],
  );
}

/** Re-render when actions are registered or removed (the help page, enabled states). */
export function useRegistryVersion(): number {
  const registry = useActions();
  return useSyncExternalStore(
    (fn) => registry.subscribe(fn),
    () => registry.version,
  );
}
