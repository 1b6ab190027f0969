/*
 * gfp.ts: "get free pages" flags with the kernel's values (include/linux/gfp_types.h, as in
 * wasm-core/src/base/types.h), their names, and show_gfp_flags()'s way of printing a mask.
 */

/** Single bits, by the names the kernel gives them. */
export const GFP_BITS = {
  __GFP_DMA: 0x1,
  __GFP_HIGHMEM: 0x2,
  __GFP_DMA32: 0x4,
  __GFP_MOVABLE: 0x8,
  __GFP_RECLAIMABLE: 0x10,
  __GFP_HIGH: 0x20,
  __GFP_IO: 0x40,
  __GFP_FS: 0x80,
  __GFP_ZERO: 0x100,
  __GFP_DIRECT_RECLAIM: 0x400,
  __GFP_KSWAPD_RECLAIM: 0x800,
  __GFP_WRITE: 0x1000,
  __GFP_NOWARN: 0x2000,
  __GFP_RETRY_MAYFAIL: 0x4000,
  __GFP_NOFAIL: 0x8000,
  __GFP_NORETRY: 0x10000,
  __GFP_MEMALLOC: 0x20000,
  __GFP_COMP: 0x40000,
  __GFP_NOMEMALLOC: 0x80000,
  __GFP_HARDWALL: 0x100000,
  __GFP_THISNODE: 0x200000,
  __GFP_ACCOUNT: 0x400000,
  __GFP_ZEROTAGS: 0x800000,
} as const;

const B = GFP_BITS;
const __GFP_RECLAIM = B.__GFP_DIRECT_RECLAIM | B.__GFP_KSWAPD_RECLAIM;
const GFP_KERNEL = __GFP_RECLAIM | B.__GFP_IO | B.__GFP_FS;
const GFP_USER = GFP_KERNEL | B.__GFP_HARDWALL;
const GFP_HIGHUSER = GFP_USER | B.__GFP_HIGHMEM;
const GFP_HIGHUSER_MOVABLE = GFP_HIGHUSER | B.__GFP_MOVABLE;
// THP faults: no reclaim at first (LIGHT), direct reclaim allowed for the full variant.
const GFP_TRANSHUGE_LIGHT =
  (GFP_HIGHUSER_MOVABLE | B.__GFP_COMP | B.__GFP_NOMEMALLOC | B.__GFP_NOWARN) & ~__GFP_RECLAIM;

/** Composite masks (include/linux/gfp_types.h). */
export const GFP_COMPOSITES = {
  __GFP_RECLAIM,
  GFP_ATOMIC: B.__GFP_HIGH | B.__GFP_KSWAPD_RECLAIM,
  GFP_KERNEL,
  GFP_KERNEL_ACCOUNT: GFP_KERNEL | B.__GFP_ACCOUNT,
  GFP_NOWAIT: B.__GFP_KSWAPD_RECLAIM | B.__GFP_NOWARN,
  GFP_NOIO: __GFP_RECLAIM,
  GFP_NOFS: __GFP_RECLAIM | B.__GFP_IO,
  GFP_USER,
  GFP_DMA: B.__GFP_DMA,
  GFP_DMA32: B.__GFP_DMA32,
  GFP_HIGHUSER,
  GFP_HIGHUSER_MOVABLE,
  GFP_TRANSHUGE_LIGHT,
  GFP_TRANSHUGE: GFP_TRANSHUGE_LIGHT | B.__GFP_DIRECT_RECLAIM,
} as const;

/** Every name a workload or a trace may use, with its mask. */
export const GFP_NAMES: ReadonlyMap<string, number> = new Map<string, number>([
  ...Object.entries(GFP_COMPOSITES),
  ...Object.entries(GFP_BITS),
]);

/** The mask of a flag name, or undefined when the kernel has no such flag. */
export function gfpValue(name: string): number | undefined {
  return GFP_NAMES.get(name);
}

/** The default request of the workload language. */
export const GFP_DEFAULT = 'GFP_KERNEL';

/*
 * show_gfp_flags() (include/trace/events/mmflags.h) matches names greedily in this fixed order,
 * removing matched bits, so composites come before the bits they contain.
 */
const SHOW_ORDER: readonly string[] = [
  'GFP_TRANSHUGE',
  'GFP_TRANSHUGE_LIGHT',
  'GFP_HIGHUSER_MOVABLE',
  'GFP_HIGHUSER',
  'GFP_USER',
  'GFP_KERNEL_ACCOUNT',
  'GFP_KERNEL',
  'GFP_NOFS',
  'GFP_ATOMIC',
  'GFP_NOIO',
  'GFP_NOWAIT',
  'GFP_DMA',
  '__GFP_HIGHMEM',
  'GFP_DMA32',
  '__GFP_HIGH',
  '__GFP_IO',
  '__GFP_FS',
  '__GFP_NOWARN',
  '__GFP_RETRY_MAYFAIL',
  '__GFP_NOFAIL',
  '__GFP_NORETRY',
  '__GFP_COMP',
  '__GFP_ZERO',
  '__GFP_NOMEMALLOC',
  '__GFP_MEMALLOC',
  '__GFP_HARDWALL',
  '__GFP_THISNODE',
  '__GFP_RECLAIMABLE',
  '__GFP_MOVABLE',
  '__GFP_ACCOUNT',
  '__GFP_WRITE',
  '__GFP_RECLAIM',
  '__GFP_DIRECT_RECLAIM',
  '__GFP_KSWAPD_RECLAIM',
  '__GFP_ZEROTAGS',
];

/** A mask as the kernel's trace output prints it: `GFP_KERNEL|__GFP_COMP`, `none` for 0. */
export function showGfpFlags(mask: number): string {
  let left = mask >>> 0;
  if (left === 0) return 'none';
  const parts: string[] = [];
  for (const name of SHOW_ORDER) {
    const v = GFP_NAMES.get(name) ?? 0;
    if (v !== 0 && (left & v) === v) {
      parts.push(name);
      left = (left & ~v) >>> 0;
    }
  }
  if (left !== 0) parts.push('0x' + left.toString(16));
  return parts.join('|');
}

/** gfp_migratetype(): 0 UNMOVABLE, 1 MOVABLE, 2 RECLAIMABLE. */
export function gfpMigratetype(mask: number): number {
  return ((mask >>> 0) & (B.__GFP_MOVABLE | B.__GFP_RECLAIMABLE)) >>> 3;
}
