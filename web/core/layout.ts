/*
 * layout.ts: where each struct field sits in wasm memory, as the C compiler chose. The wasm
 * publishes offsets and sizes in layout.def order (bs_layout_*), and generated/layout.ts names
 * that order, so no offset is ever written down in TypeScript and the two sides cannot drift.
 */
import type { BuddyscopeModule } from './generated/buddyscope.mjs';
import { LAYOUT_FIELDS, type LayoutField } from './generated/layout';

/** The structs whose sizes bs_struct_sizes reports, in glue.c's order. */
export const STRUCT_NAMES = [
  'sim',
  'sim_config',
  'zone_config',
  'sim_profile',
  'node',
  'zone',
  'lock_stats',
  'spinlock',
  'free_area',
  'per_cpu_pages',
  'cpu',
  'page',
  'handle',
  'vm_events',
  'sim_event',
  'sim_op',
  'lruvec',
  'kswapd',
  'pcpu_state',
  'pcpu_chunk',
  'pcpu_block_md',
  'pcpu_work',
  'pcpu_handle',
  'fault_state',
  'mm',
  'vm_area',
  'fault_cpu',
  'fault_lane_seg',
  'rwsem',
  'seqcount',
  'fault_events',
  'zonelist_cache',
] as const;
export type StructName = (typeof STRUCT_NAMES)[number];

export interface FieldPlace {
  offset: number; // bytes from the start of its struct
  size: number; // bytes of the field (an array field: all its elements)
}

export class Layout {
  constructor(
    private readonly fields: ReadonlyMap<LayoutField, FieldPlace>,
    private readonly structs: ReadonlyMap<StructName, number>,
  ) {}

  /** Offset of a field within its struct. */
  off(field: LayoutField): number {
    return this.place(field).offset;
  }

  /** Size of a field in bytes. */
  size(field: LayoutField): number {
    return this.place(field).size;
  }

  /** sizeof(struct name). */
  sizeOf(name: StructName): number {
    const s = this.structs.get(name);
    if (s === undefined) throw new Error(`layout: no size for struct ${name}`);
    return s;
  }

  place(field: LayoutField): FieldPlace {
    const p = this.fields.get(field);
    if (!p) throw new Error(`layout: the wasm module does not publish ${field}`);
    return p;
  }

  /** Every field with its place, in layout.def order. */
  entries(): [LayoutField, FieldPlace][] {
    return [...this.fields.entries()];
  }

  structSizes(): [StructName, number][] {
    return [...this.structs.entries()];
  }
}

/** Read the layout the module publishes; throws when it and generated/layout.ts disagree. */
export function readLayout(mod: BuddyscopeModule): Layout {
  const count = mod._bs_layout_count();
  if (count !== LAYOUT_FIELDS.length) {
    throw new Error(
      `layout: the wasm publishes ${count} fields but web/core/generated/layout.ts names ${LAYOUT_FIELDS.length}: ` +
        'rebuild both (make -C wasm-core wasm && node scripts/gen-vocab.mjs)',
    );
  }
  const offsets = mod.HEAPU32.slice(
    mod._bs_layout_offsets() >>> 2,
    (mod._bs_layout_offsets() >>> 2) + count,
  );
  const sizes = mod.HEAPU32.slice(
    mod._bs_layout_sizes() >>> 2,
    (mod._bs_layout_sizes() >>> 2) + count,
  );
  const fields = new Map<LayoutField, FieldPlace>();
  LAYOUT_FIELDS.forEach((name, i) =>
    fields.set(name, { offset: offsets[i] ?? 0, size: sizes[i] ?? 0 }),
  );

  const nStructs = mod._bs_struct_count();
  if (nStructs !== STRUCT_NAMES.length) {
    throw new Error(
      `layout: the wasm reports ${nStructs} struct sizes, web/core/layout.ts expects ${STRUCT_NAMES.length}`,
    );
  }
  const structSizes = mod.HEAPU32.slice(
    mod._bs_struct_sizes() >>> 2,
    (mod._bs_struct_sizes() >>> 2) + nStructs,
  );
  const structs = new Map<StructName, number>();
  STRUCT_NAMES.forEach((name, i) => structs.set(name, structSizes[i] ?? 0));
  return new Layout(fields, structs);
}
