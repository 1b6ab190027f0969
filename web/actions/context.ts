/*
 * context.ts: the one registry of the app, reachable from any component, and the hooks that
 * register an action for as long as a component is mounted.
 */
import {
  createContext,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useSyncExternalStore,
} from 'react';
import { actionDef, type ActionId } from './definitions';
import { ActionRegistry } from './registry';

export const ActionsContext = createContext<ActionRegistry>(new ActionRegistry());

export function useActions(): ActionRegistry {
  return useContext(ActionsContext);
}

/** What a component supplies for a command: what it does, and whether it may run now. */
export interface ActionImpl<A> {
  run: (arg: A) => void;
  enabled?: () => boolean;
}

/**
 * Register a command while mounted, with the label and keys its definition gives. The latest
 * run/enabled are always used (kept in a ref), so callers may pass closures over fresh props
 * without re-registering on every render.
 */
export function useAction<A = void>(id: ActionId, impl: ActionImpl<A>): void {
  const registry = useActions();
  const latest = useRef(impl);
  // A layout effect: current before the next key or click, which may come before a passive
  // effect has run (Preact runs those after the next paint).
  useLayoutEffect(() => {
    latest.current = impl;
  });
  useEffect(() => {
    const { label, group, keys, clicker } = actionDef(id);
    return registry.register<A>({
      id,
      label,
      group,
      keys,
      clicker,
      enabled: () => (latest.current.enabled ? latest.current.enabled() : true),
      run: (arg) => latest.current.run(arg),
    });
  }, [registry, id]);
}

/** Re-render when actions are registered or removed (the help page, enabled states). */
export function useRegistryVersion(): number {
  const registry = useActions();
  const version = () => registry.version;
  return useSyncExternalStore((fn) => registry.subscribe(fn), version, version);
}
