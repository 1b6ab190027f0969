/*
 * registered.tsx: the percpu views as the view registry (../registry.tsx) draws them: from the
 * machine's state at the cursor (state.percpu) and a reader of one chunk's detail. A machine
 * without a percpu region says so instead.
 */
import type { PercpuDetailReader } from './adapt';
import { percpuView } from './adapt';
import { AreaMapView } from './AreaMap';
import { ChunkMapView } from './ChunkMap';
import type { ViewProps } from '../options';
import { eventAttrs } from '../options';
import { SlotListsView } from './SlotLists';

export interface PercpuOptions {
  percpuReader: () => PercpuDetailReader;
}

function NoPercpu({ event, title }: Pick<ViewProps, 'event'> & { title: string }) {
  return (
    <section className="view" {...eventAttrs(event)}>
      <header className="view-head">
        <h3>{title}</h3>
      </header>
      <p className="muted">This machine has no percpu allocator.</p>
    </section>
  );
}

export function ChunkMap({ state, event, options }: ViewProps<PercpuOptions>) {
  if (!state.percpu) return <NoPercpu event={event} title="Percpu chunk map" />;
  return (
    <ChunkMapView
      view={percpuView(state.percpu, options.percpuReader)}
      event={event}
      options={options}
    />
  );
}

export function SlotLists({ state, event, options }: ViewProps<PercpuOptions>) {
  if (!state.percpu) return <NoPercpu event={event} title="Percpu slot lists" />;
  return (
    <SlotListsView
      view={percpuView(state.percpu, options.percpuReader)}
      event={event}
      options={options}
    />
  );
}

export function AreaMap({ state, event, options }: ViewProps<PercpuOptions>) {
  if (!state.percpu) return <NoPercpu event={event} title="Percpu area map" />;
  return (
    <AreaMapView
      view={percpuView(state.percpu, options.percpuReader)}
      event={event}
      options={options}
    />
  );
}
