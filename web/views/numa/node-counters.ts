/*
 * node-counters.ts: each node's figures as /sys/devices/system/node/nodeN/numastat prints them
 * (node_read_numastat: the zones' zone_statistics summed over the node, in the kernel's order),
 * its free pages, and the machine-wide zone_reclaim/node_reclaim counters of /proc/vmstat, read
 * from the state (web/core/state-reader.ts), never from the text. And what a step changed, said.
 */
import { formatCount } from '../../core/count';
import type { ModelState, NodeState } from '../model';

/** One figure of a node: its numastat (or sysfs) name, how it is read, what it counts. */
export type NodeRow = [name: string, value: (n: NodeState) => number, help: string];

const sum = (n: NodeState, f: (z: NodeState['zones'][number]) => number) =>
  n.zones.reduce((t, z) => t + f(z), 0);

/** numastat's six lines, in its order, then the node's free pages. */
export const NODE_ROWS: readonly NodeRow[] = [
  [
    'numa_hit',
    (n) => sum(n, (z) => z.numa.hit),
    'allocations served by this node that wanted this node (it was the preferred zone’s node)',
  ],
  [
    'numa_miss',
    (n) => sum(n, (z) => z.numa.miss),
    'allocations served by this node that wanted another node',
  ],
  [
    'numa_foreign',
    (n) => sum(n, (z) => z.numa.foreign),
    'allocations that wanted this node but were served by another',
  ],
  // the model has no memory policies: nothing is interleaved, as numa.c prints
  ['interleave_hit', () => 0, 'interleaved allocations that got this node (no policies here: 0)'],
  [
    'local_node',
    (n) => sum(n, (z) => z.numa.local),
    'allocations served by this node for a CPU of this node',
  ],
  [
    'other_node',
    (n) => sum(n, (z) => z.numa.other),
    'allocations served by this node for a CPU of another node',
  ],
  ['free pages', (n) => sum(n, (z) => z.nrFreePages), 'the node’s free pages (MemFree / 4 KiB)'],
];

/** The machine-wide counters of /proc/vmstat about node (zone) reclaim. */
export const RECLAIM_ROWS: readonly [string, (s: ModelState) => number, string][] = [
  [
    'zone_reclaim_success',
    (s) => s.vm.zoneReclaimSuccess,
    'zone_reclaim/node_reclaim calls that freed enough (printed from 6.10; counted here on every profile)',
  ],
  ['zone_reclaim_failed', (s) => s.vm.zoneReclaimFailed, 'calls that scanned and did not'],
  [
    'node_reclaim calls',
    (s) => s.vm.nodeReclaimCalls,
    'zone_reclaim/node_reclaim calls whatever they returned (the model’s count)',
  ],
  ['pgscan_direct', (s) => s.vm.pgscanDirect, 'pages direct reclaim and node reclaim scanned'],
];

/** A node's CPUs as its cpulist file reads ("CPUs 0-11", "CPU 3", "no CPUs"). */
export function cpusLabel(n: NodeState | undefined): string {
  if (!n || n.nrCpus <= 0) return 'no CPUs';
  const last = n.firstCpu + n.nrCpus - 1;
  return n.nrCpus === 1 ? `CPU ${last}` : `CPUs ${n.firstCpu}-${last}`;
}

/** Every node's figures, in NODE_ROWS order. */
export function nodeFigures(s: ModelState): number[][] {
  return s.nodes.map((n) => NODE_ROWS.map(([, get]) => get(n)));
}

/**
 * What changed between two readings of the same machine, in words: "node 1: numa_miss +1,
 * other_node +1; node 0: numa_foreign +1". Free pages are left out (every allocation moves them);
 * "" when no numastat line moved.
 */
export function describeChange(before: readonly number[][], after: readonly number[][]): string {
  const parts: string[] = [];
  after.forEach((vals, nid) => {
    const was = before[nid];
    if (!was) return;
    const moved: string[] = [];
    NODE_ROWS.forEach(([name], i) => {
      if (name === 'free pages') return;
      const d = (vals[i] ?? 0) - (was[i] ?? 0);
      if (d) moved.push(`${name} ${d > 0 ? '+' : '−'}${formatCount(Math.abs(d))}`);
    });
    if (moved.length) parts.push(`node ${nid}: ${moved.join(', ')}`);
  });
  return parts.join('; ');
}
