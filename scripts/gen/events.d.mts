// The types of events.mjs for the TypeScript tests that import it.

export declare const MARKERS: readonly string[];
export interface EventRow {
  id: number;
  key: string;
  name: string;
  marker: string;
  subsystem: string;
  where: string;
  fields: { name: string; from: string; format: string; shift?: number; width?: number }[];
}
export declare function readEvents(read: (path: string) => string): {
  kinds: EventRow[];
  fns: { id: number; key: string; name: string; file: string }[];
  bads: { id: number; key: string; words: string }[];
};
export declare function renderEventsTs(v: ReturnType<typeof readEvents>): string;
export declare function generate(
  read: (path: string) => string,
): { path: string; content: string }[];
