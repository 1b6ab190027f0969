// The percpu views as pure functions of a PercpuView: a bitmap chunk with its hints, an area map,
// the slot lists; each marks the current event and says in text what colour shows.
import { renderToStaticMarkup } from '../../app/static-markup';
import { describe, expect, it } from 'vitest';
import { EV } from '../../core/events';
import type { SimEvent } from '../model';
import { AreaMapView } from './AreaMap';
import { ChunkMapView } from './ChunkMap';
import type { BlockMd, ChunkDetail, PercpuChunkView, PercpuView } from './percpu-view';
import { SlotListsView } from './SlotLists';

const options = { theme: 'light' as const, reducedMotion: true };
const ev = (kind: number, pfn: number, a: number, b: number, c = 0): SimEvent => ({
  seq: 7,
  op: 1,
  pfn,
  a,
  b,
  c,
  cpu: 0,
  kind,
  node: 0,
  zone: 0,
  order: 0,
  mt: 0,
  fn: 0,
});
const md = (over: Partial<BlockMd>): BlockMd => ({
  scanHint: 0,
  scanHintStart: 0,
  contigHint: 1024,
  contigHintStart: 0,
  leftFree: 1024,
  rightFree: 1024,
  firstFree: 0,
  nrBits: 1024,
  ...over,
});

function chunk(over: Partial<PercpuChunkView>, d: Partial<ChunkDetail> = {}): PercpuChunkView {
  const detail: ChunkDetail = {
    populated: [true, true, false, false, false, false, false, false],
    allocMap: null,
    boundMap: null,
    mdBlocks: [],
    map: null,
    ...d,
  };
  return {
    index: 1,
    kind: 'dynamic',
    nrPages: 8,
    slot: 9,
    freeBytes: 32000,
    startOffset: 0,
    endOffset: 0,
    nrPopulated: 2,
    nrEmptyPopPages: 1,
    isolated: false,
    chunkMd: null,
    mapUsed: 0,
    mapAlloc: 0,
    firstFree: 0,
    contigHint: 0,
    detail: () => detail,
    ...over,
  };
}

// 16 bytes at 0 and 8 bytes at 16 (bits 0-3, 4-5), the rest free
const alloc = new Set([0, 1, 2, 3, 4, 5]);
const bitmap: PercpuView = {
  allocator: 'bitmap',
  nrUnits: 2,
  unitSize: 32768,
  freeSlot: 11,
  sidelinedSlot: 10,
  toDepopulateSlot: 12,
  nrEmptyPopPages: 1,
  chunks: [
    chunk(
      {
        chunkMd: md({
          contigHint: 8186,
          contigHintStart: 6,
          nrBits: 8192,
          firstFree: 6,
          leftFree: 0,
          rightFree: 8186,
        }),
      },
      {
        allocMap: (b) => alloc.has(b),
        boundMap: (b) => b === 0 || b === 4 || b === 6,
        mdBlocks: [
          md({
            contigHint: 1018,
            contigHintStart: 6,
            leftFree: 0,
            firstFree: 6,
            scanHint: 2,
            scanHintStart: 1,
          }),
          ...Array<BlockMd>(7).fill(md({})),
        ],
      },
    ),
    chunk({ index: 2, slot: 11, freeBytes: 32768 }),
  ],
  slots: [[], [], [], [], [], [], [], [], [], [1], [], [2], []],
};

describe('ChunkMapView', () => {
  it('draws the event chunk with its block hints in a table and the event area in both units', () => {
    const html = renderToStaticMarkup(
      <ChunkMapView
        view={bitmap}
        event={ev(EV.PERCPU_ALLOC_PERCPU, 1, 16, 8, 4)}
        options={options}
      />,
    );
    expect(html).toContain('data-event-seq="7"');
    expect(html).toContain('data-chunk="1"');
    expect(html).toMatch(/2 areas allocated in the chunk, 1 of the 1 pages shown populated/);
    expect(html).toContain('<td>1018 @ 6</td><td>2 @ 1</td><td>6</td><td>0</td><td>1024</td>');
    expect((html.match(/class="event-area"/g) ?? []).length).toBe(2); // one row in each unit
    expect((html.match(/class="hint-scan"/g) ?? []).length).toBe(1);
    expect(html).toContain('Later pages');
  });

  it('follows a populate event to its chunk', () => {
    const html = renderToStaticMarkup(
      <ChunkMapView view={bitmap} event={ev(EV.PERCPU_POPULATE, 2, 0, 1, 2)} options={options} />,
    );
    expect(html).toContain('data-chunk="2"');
    expect(html).toContain('0 areas allocated');
  });
});

describe('SlotListsView', () => {
  it('lists chunks by slot, folds empty slots and marks a relocation', () => {
    const html = renderToStaticMarkup(
      <SlotListsView view={bitmap} event={ev(EV.PERCPU_RELOCATE, 1, 11, 9, 0)} options={options} />,
    );
    expect(html).toContain('slots 0–8 empty');
    expect(html).toContain('data-slot="9"');
    expect(html).toContain('← from slot 11, to the tail');
    expect(html).toContain('free: chunks with nothing allocated');
    expect(html).toMatch(/data-chunk="1" data-highlighted="true"/);
  });
});

describe('AreaMapView', () => {
  const areaMap: PercpuView = {
    ...bitmap,
    allocator: 'area-map',
    sidelinedSlot: null,
    toDepopulateSlot: null,
    chunks: [
      chunk(
        { mapUsed: 3, mapAlloc: 16, firstFree: 2, contigHint: 32744 },
        { map: [0 | 1, 16 | 1, 24, 32768 | 1] },
      ),
    ],
  };
  it('shows map[] with its sentinel, spare entries and the memmove of the current event', () => {
    const html = renderToStaticMarkup(
      <AreaMapView view={areaMap} event={ev(EV.PERCPU_AREA_ALLOC, 1, 2, 8, 3)} options={options} />,
    );
    expect(html).toContain('data-map-used="3"');
    expect(html).toContain('32768|1');
    expect(html).toContain('split: memmove of 8 bytes (2 entries), 2 entries walked');
    expect((html.match(/am-entry spare/g) ?? []).length).toBe(12);
  });
  it('says there is no map under the bitmap allocator', () => {
    const html = renderToStaticMarkup(<AreaMapView view={bitmap} event={null} options={options} />);
    expect(html).toContain('there is no map[] to show');
  });
});
