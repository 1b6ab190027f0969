/*
 * narrate-percpu.ts: the percpu allocator's events in plain words (wasm-core/src/percpu/events.def),
 * spread into NARRATIONS by ../narrate.ts. A chunk is named by its index: the first chunk is 0,
 * the reserved chunk (when the machine has one) 1, dynamic chunks after.
 */
import type { EventKindName } from '../../core/generated/events';
import type { SimEvent } from '../../player/engine';

/** The percpu kinds: every kind name that starts with percpu_. */
type PercpuKindName = Extract<EventKindName, `percpu_${string}`>;

const BAD_REQUEST: Record<number, string> = {
  1: 'its size is 0 or above PCPU_MIN_UNIT_SIZE (32 KiB)',
  2: 'its alignment is above PAGE_SIZE or not a power of two',
  4: 'the handle holds no percpu area',
  5: 'the handle still holds an area',
  6: "the handle is beyond the machine's percpu handle table (the model's limit, not the kernel's)",
};

function chunk(e: SimEvent): string {
  return `chunk ${e.pfn}`;
}

function bytes(n: number): string {
  return n === 1 ? '1 byte' : `${n} bytes`;
}

/** One sentence per percpu event kind. */
export const PERCPU_NARRATIONS: Readonly<Record<PercpuKindName, (e: SimEvent) => string>> = {
  percpu_alloc_percpu: (e) =>
    `CPU ${e.cpu} gets ${bytes(e.b)} (align ${e.c}) at offset ${e.a} of ${chunk(e)}, in every CPU's unit${e.order ? ' (reserved chunk)' : ''}${e.mt ? ', atomically' : ''}.`,
  percpu_free_percpu: (e) =>
    `CPU ${e.cpu} frees the ${bytes(e.b)} at offset ${e.a} of ${chunk(e)}.`,
  percpu_alloc_percpu_fail: (e) =>
    `No chunk could serve ${bytes(e.a)} at align ${e.b}${e.mt ? ' without sleeping (an atomic request may not create or populate a chunk)' : ''}: alloc_percpu returns NULL.`,
  percpu_create_chunk: (e) =>
    `No chunk had room: pcpu_create_chunk makes ${chunk(e)} of ${e.a} pages per unit, none of them populated yet.`,
  percpu_destroy_chunk: (e) => `${chunk(e)} is empty and not needed: it is destroyed.`,
  percpu_bad_request: (e) =>
    `The request for ${bytes(e.a)} at align ${e.b} is refused as the kernel refuses it: ${BAD_REQUEST[e.c] ?? `reason ${e.c}`}.`,
  percpu_populate: (e) =>
    `Pages ${e.a} to ${e.b - 1} of ${chunk(e)} get memory in every unit: ${e.c} page frames from the page allocator.`,
  percpu_depopulate: (e) =>
    `Pages ${e.a} to ${e.b - 1} of ${chunk(e)} are empty: their ${e.c} page frames go back to the page allocator.`,
  percpu_chunk_relocate: (e) =>
    `${chunk(e)} moves from slot ${e.a} to slot ${e.b}, at the ${e.c ? 'head' : 'tail'} of that list.`,
  percpu_area_alloc: (e) =>
    `The area map of ${chunk(e)} was walked over ${e.a} entries; splitting the area memmoved ${bytes(e.b)} (${e.c} entries in use).`,
  percpu_area_free: (e) =>
    `A binary search of ${chunk(e)}'s area map took ${e.a} probes; merging the freed area memmoved ${bytes(e.b)} (${e.c} entries left).`,
  percpu_map_extend: (e) =>
    `${chunk(e)}'s area map is full: it grows from ${e.a} to ${e.b} entries, copying ${bytes(e.c)}.`,
  percpu_block_fit: (e) =>
    `The bitmap allocator places the area at bit ${e.a} of ${chunk(e)}, after visiting ${e.b} metadata blocks and scanning ${e.c} bitmap words.`,
  percpu_block_refresh: (e) =>
    `Block ${e.a} of ${chunk(e)} lost its largest free run: a rescan finds ${e.b} free bits in a row (${e.c} words).`,
  percpu_chunk_refresh: (e) =>
    `${chunk(e)}'s hint is refreshed by walking ${e.a} metadata blocks: its largest free run is ${e.b} bits.`,
  percpu_hint_kept: (e) =>
    `The free stays inside one block, so ${chunk(e)}'s contig hint stays at ${e.b} bits although a run of ${e.a} is free: the kernel accepts that under-estimate.`,
  percpu_balance: (e) =>
    `The percpu balance work runs: ${e.a} empty chunks destroyed, ${e.b} pages populated, ${e.c} depopulated.`,
};
