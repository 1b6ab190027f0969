/*
 * registry.tsx: every view, defined once: its component, its title, what it reads, the options it
 * takes from the machine it draws, and where the playground places it. The playground, compare
 * mode, lessons and the embed all draw views from here, by name; a subsystem's views (under
 * web/views/<subsystem>/) join by one entry each, plus the name in view-names.ts.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { ErrorBoundary } from '../app/ErrorBoundary';
import type { ProcFile } from '../core/sim';
import type { PercpuReader } from '../core/percpu-reader';
import { AllocWalk } from './AllocWalk';
import { CpuLanes } from './fault/CpuLanes';
import { faultUsed } from './fault/fault-counters';
import { VmaList } from './fault/VmaList';
import { BuddyTree } from './BuddyTree';
import { Counters } from './Counters';
import { EventLog, type EventLogOptions } from './EventLog';
import { FreeAreas } from './FreeAreas';
import { FreeLists } from './FreeLists';
import type { ModelState, SimEvent } from './model';
import type { ViewProps, ViewSetting } from './options';
import type { Theme } from './palette';
import { PcpLists } from './PcpLists';
import { NodeCounters } from './numa/NodeCounters';
import { AreaMap, ChunkMap, SlotLists } from './percpu/registered';
import { ProcText } from './ProcText';
import type { ViewName } from './view-names';
import { Zones } from './Zones';

// The memory map (canvas, paint code) is the largest view: it loads on its own. On a NUMA
// machine it is one map per node (numa/NodeMaps.tsx).
const MemoryMap = lazy(() => import('./numa/NodeMaps').then((m) => ({ default: m.NodeMaps })));
// The Code view (its C sources load later still, a file at a time).
const CodeView = lazy(() => import('./code/CodeView').then((m) => ({ default: m.CodeView })));

/** The machine a view draws: one simulation at its cursor (web/app/session.ts is one). */
export interface ViewMachine {
  state(): ModelState;
  proc(file: ProcFile): string;
  eventLogOptions(): EventLogOptions;
  /** The percpu allocator's reader at the cursor (the percpu views read a chunk's detail through it). */
  percpuReader(): PercpuReader;
}

/** What a view is given beside the state and the event. */
export interface ViewInputs {
  machine: ViewMachine;
  other: ModelState | null; // the machine it is compared with, if any
}

export interface ViewDef<O extends object = object> {
  title: string; // its heading
  component: ComponentType<ViewProps<O>>;
  /** What it draws from: the state's fields, and the current event and/or all of the op's. */
  reads: { state: readonly (keyof ModelState)[]; events: readonly ('event' | 'opEvents')[] };
  /** Its own options (beyond theme and motion), from the machine it draws. */
  options: (inputs: ViewInputs) => O;
  /** Shown while its code loads (lazy views only). */
  loading?: string;
  /** In the playground: beside the map (main) or in the grid below. */
  place: 'main' | 'grid';
  /** In compare mode, both machines side by side; `highlight`: the first marks the current event. */
  compare?: 'highlight' | 'plain';
  /** In the playground, shown only when this holds (a subsystem's views once it is used); always when absent. */
  shows?: (s: ModelState) => boolean;
}

/** Type-checks an entry's options against its component, then forgets them. */
function view<O extends object>(def: ViewDef<O>): ViewDef {
  return def as unknown as ViewDef;
}

const none = () => ({});

/** The percpu views' option: the reader of a chunk's detail. */
const percpuReader = ({ machine }: ViewInputs) => ({ percpuReader: () => machine.percpuReader() });
/** The percpu views join the playground once a percpu request was made. */
const percpuUsed = (s: ModelState) => (s.percpu?.work.alloc.ops ?? 0) > 0;

/** In the order the playground lays them out. */
export const VIEWS = {
  'memory-map': view({
    title: 'Memory map',
    component: MemoryMap,
    reads: {
      state: ['frames', 'pageblocks', 'pageblockNrPages', 'nodes', 'maxOrder'],
      events: ['event'],
    },
    // compared with another machine, the map marks the frames whose class differs
    options: ({ other }) => ({ compare: other }),
    loading: 'Loading the memory map…',
    place: 'main',
    compare: 'highlight',
  }),
  log: view({
    title: 'Event log',
    component: EventLog,
    reads: { state: ['nodes', 'frozen', 'eventsDropped'], events: ['event', 'opEvents'] },
    options: ({ machine }) => machine.eventLogOptions(),
    place: 'main',
  }),
  'free-lists': view({
    title: 'Free lists',
    component: FreeLists,
    reads: { state: ['frames', 'nodes', 'maxOrder'], events: ['event'] },
    options: none,
    place: 'grid',
  }),
  'buddy-tree': view({
    title: 'Buddy tree',
    component: BuddyTree,
    reads: { state: ['frames', 'nodes', 'maxOrder'], events: ['event'] },
    options: none,
    place: 'grid',
  }),
  walk: view({
    title: 'Allocation walk',
    component: AllocWalk,
    reads: { state: ['nodes', 'cpus'], events: ['event', 'opEvents'] },
    options: none,
    place: 'grid',
  }),
  'free-areas': view({
    title: 'Free areas',
    component: FreeAreas,
    reads: { state: ['nodes'], events: ['event'] },
    options: none,
    place: 'grid',
  }),
  pcp: view({
    title: 'Per-CPU lists',
    component: PcpLists,
    reads: { state: ['cpus', 'pcps', 'nodes', 'profileId'], events: ['event'] },
    options: none,
    place: 'grid',
    compare: 'plain',
  }),
  zones: view({
    title: 'Zones and watermarks',
    component: Zones,
    reads: { state: ['nodes'], events: ['event'] },
    options: none,
    place: 'grid',
  }),
  counters: view({
    title: 'Counters',
    component: Counters,
    reads: { state: ['vm', 'nodes', 'cpus'], events: ['event'] },
    options: ({ other }) => ({ compare: other }),
    place: 'grid',
    compare: 'plain',
  }),
  // NUMA: each node's numastat, free pages and node reclaim, on machines of two nodes or more.
  'node-counters': view({
    title: 'Node counters',
    component: NodeCounters,
    reads: { state: ['nodes', 'vm'], events: ['event'] },
    options: ({ other }) => ({ compare: other }),
    place: 'grid',
    compare: 'plain',
    shows: (s) => s.nodes.length > 1,
  }),
  code: view({
    title: 'Code',
    component: CodeView,
    reads: { state: ['profileId'], events: ['event'] },
    options: none,
    loading: 'Loading the Code view…',
    place: 'grid',
  }),
  proc: view({
    title: '/proc',
    component: ProcText,
    reads: { state: ['op'], events: ['event'] },
    options: ({ machine }) => ({ proc: (f: ProcFile) => machine.proc(f) }),
    place: 'grid',
  }),
  'percpu-chunks': view({
    title: 'Percpu chunk map',
    component: ChunkMap,
    reads: { state: ['percpu'], events: ['event'] },
    options: percpuReader,
    place: 'grid',
    shows: percpuUsed,
  }),
  'percpu-slots': view({
    title: 'Percpu slot lists',
    component: SlotLists,
    reads: { state: ['percpu'], events: ['event'] },
    options: percpuReader,
    place: 'grid',
    shows: percpuUsed,
  }),
  'percpu-map': view({
    title: 'Percpu area map',
    component: AreaMap,
    reads: { state: ['percpu'], events: ['event'] },
    options: percpuReader,
    place: 'grid',
    shows: (s) => percpuUsed(s) && s.percpu?.allocator === 'area-map',
  }),
  // The page-fault views join the playground once a workload starts a thread in a process.
  'fault-lanes': view({
    title: 'CPU lanes',
    component: CpuLanes,
    reads: { state: ['fault', 'cpus'], events: ['event', 'opEvents'] },
    options: none,
    place: 'grid',
    compare: 'highlight',
    shows: faultUsed,
  }),
  'fault-vmas': view({
    title: 'VMAs and mmap_lock',
    component: VmaList,
    reads: { state: ['fault', 'profileId'], events: ['event'] },
    options: none,
    place: 'grid',
    compare: 'highlight',
    shows: faultUsed,
  }),
} satisfies Record<ViewName, ViewDef>;

/** Every view's name, in layout order. */
export const VIEW_ORDER = Object.keys(VIEWS) as ViewName[];

/** The views compare mode shows for both machines. */
export const COMPARE_VIEWS = VIEW_ORDER.filter((n) => VIEWS[n].compare);

interface RegisteredViewProps {
  name: ViewName;
  machine: ViewMachine;
  event: SimEvent | null;
  opEvents: readonly SimEvent[];
  other: ModelState | null;
  theme: Theme;
  reducedMotion: boolean;
  setting?: ViewSetting; // a lesson, or a presented one; absent in the playground
}

/**
 * One registered view of a machine at its cursor. A view that throws shows a small panel in its
 * place (its title, the error, Try again) and the others keep drawing; a new machine retries it.
 */
export function RegisteredView(props: RegisteredViewProps) {
  return (
    <ErrorBoundary title={VIEWS[props.name].title} kind="view" resetKey={props.machine}>
      <DrawnView {...props} />
    </ErrorBoundary>
  );
}

/** The view itself: reading the machine's state may throw too, so it happens in the boundary. */
function DrawnView({
  name,
  machine,
  event,
  opEvents,
  other,
  theme,
  reducedMotion,
  setting,
}: RegisteredViewProps) {
  const def = VIEWS[name];
  const View = def.component;
  const drawn = (
    <View
      state={machine.state()}
      event={event}
      opEvents={opEvents}
      options={{ theme, reducedMotion, setting, ...def.options({ machine, other }) }}
    />
  );
  if (!def.loading) return drawn;
  return <Suspense fallback={<p className="muted">{def.loading}</p>}>{drawn}</Suspense>;
}
