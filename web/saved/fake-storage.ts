// fake-storage.ts: a Storage for tests whose quota can be set, so a test can make it full.
import type { KeyValue } from './store';

/** A Map-backed Storage with a quota in characters (keys plus values), like a browser's. */
export function fakeStorage(quota = Infinity): KeyValue & {
  map: Map<string, string>;
  quota: number;
} {
  const map = new Map<string, string>();
  const used = () => [...map].reduce((n, [k, v]) => n + k.length + v.length, 0);
  const kv = {
    map,
    quota,
    get length() {
      return map.size;
    },
    key: (i: number) => [...map.keys()][i] ?? null,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => {
      const after =
        used() - (map.has(k) ? k.length + (map.get(k)?.length ?? 0) : 0) + k.length + v.length;
      if (after > kv.quota)
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      map.set(k, v);
    },
    removeItem: (k: string) => void map.delete(k),
  };
  return kv;
}
