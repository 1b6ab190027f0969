/*
 * view-names.ts: the name of every view, as lessons write it (`views: pcp, zones`) and the view
 * registry (registry.tsx) keys it. Apart from the registry because the lesson schema checks these
 * names while the site is built, where the views' React components are not loaded; the registry
 * must hold exactly these names, which the type checker enforces.
 */
export const VIEW_NAMES = [
  'memory-map',
  'free-areas',
  'free-lists',
  'buddy-tree',
  'pcp',
  'zones',
  'walk',
  'counters',
  'node-counters',
  'proc',
  'code',
  'log',
  'percpu-chunks',
  'percpu-slots',
  'percpu-map',
  'fault-lanes',
  'fault-vmas',
] as const;
export type ViewName = (typeof VIEW_NAMES)[number];
