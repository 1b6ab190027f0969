/*
 * NodeMaps.tsx: the memory map of a NUMA machine as one map per node, side by side (stacked on a
 * narrow screen), each headed "Node N · CPUs a–b". Every map is the ordinary MemoryMap
 * (../MemoryMap.tsx) restricted to its node's pfns: painted from the core the same way, with its
 * own zoom and follow-the-event; the current event is outlined on the map of the node whose
 * memory it touched. A one-node machine gets the single map as before. The legend is drawn once.
 */
import { MemoryMap, type MemoryMapOptions } from '../MemoryMap';
import type { ViewProps } from '../options';

export function NodeMaps(props: ViewProps<MemoryMapOptions>) {
  const { state, options } = props;
  const nodes = state.nodes.filter((n) => n.zones.some((z) => z.managed > 0));
  if (nodes.length < 2) return <MemoryMap {...props} />;
  const last = nodes[nodes.length - 1]?.id;
  return (
    <div
      className="node-maps"
      role="group"
      aria-label={`Memory maps of ${nodes.length} nodes, side by side`}
      data-nodes={nodes.length}
    >
      {nodes.map((n) => (
        <MemoryMap
          key={n.id}
          {...props}
          options={{ ...options, node: n.id, legend: n.id === last }}
        />
      ))}
    </div>
  );
}
