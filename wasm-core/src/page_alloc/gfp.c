/*
 * gfp.c: what the "get free pages" flags of a request mean to the page allocator.
 *
 * A request names the highest zone it may use (gfp_zone), the migratetype its pages will have
 * (gfp_migratetype), and, through the reclaim bits, how hard the allocator may try
 * (gfp_fast_alloc_flags for the first attempt, gfp_to_alloc_flags for the slow path). The
 * modelled kernel has CONFIG_ZONE_DMA32 and no CONFIG_CMA (like the live 6.18 machine), so
 * ALLOC_CMA is never set: there are no CMA pageblocks it could open.
 *
 * gfp_format prints a mask the way ftrace's show_gfp_flags does.
 */
#include "page_alloc/gfp.h"

#include "base/state.h"

/* the GFP bits that choose a zone (GFP_ZONEMASK) */
#define GFP_ZONEMASK (__GFP_DMA | __GFP_HIGHMEM | __GFP_DMA32 | __GFP_MOVABLE)
#define GFP_MOVABLE_MASK (__GFP_RECLAIMABLE | __GFP_MOVABLE)

/* the THP composites show_gfp_flags knows (include/linux/gfp_types.h) */
#define GFP_TRANSHUGE_LIGHT \
	((GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_NOMEMALLOC | __GFP_NOWARN) & ~__GFP_RECLAIM)
#define GFP_TRANSHUGE (GFP_TRANSHUGE_LIGHT | __GFP_DIRECT_RECLAIM)

int gfp_zone(uint32_t gfp)
{
	/*
	 * GFP_ZONE_TABLE of x86-64 (DMA and DMA32 configured, no HighMem): __GFP_HIGHMEM alone means
	 * Normal, and only MOVABLE together with HIGHMEM reaches ZONE_MOVABLE. Two zone bits other
	 * than MOVABLE at once are GFP_ZONE_BAD.
	 */
	switch (gfp & GFP_ZONEMASK) {
	case 0:
	case __GFP_HIGHMEM:
	case __GFP_MOVABLE:
		return ZONE_NORMAL;
	case __GFP_DMA:
	case __GFP_MOVABLE | __GFP_DMA:
		return ZONE_DMA;
	case __GFP_DMA32:
	case __GFP_MOVABLE | __GFP_DMA32:
		return ZONE_DMA32;
	case __GFP_MOVABLE | __GFP_HIGHMEM:
		return ZONE_MOVABLE;
	default:
		return -1;
	}
}

int gfp_migratetype(uint32_t gfp)
{
	uint32_t bits = gfp & GFP_MOVABLE_MASK;

	/* both bits would be MIGRATE_HIGHATOMIC, which no request may ask for (the kernel WARNs) */
	if (bits == GFP_MOVABLE_MASK)
		return MIGRATE_UNMOVABLE;
	/* __GFP_MOVABLE is bit 3, __GFP_RECLAIMABLE bit 4: shifting by 3 gives 1 and 2 */
	return (int)(bits >> 3);
}

unsigned gfp_fast_alloc_flags(const struct sim *s, uint32_t gfp, const struct zone *preferred)
{
	/* __alloc_pages: the first attempt stops at the LOW watermark */
	unsigned flags = ALLOC_WMARK_LOW;

	/*
	 * alloc_flags_nofragment: __GFP_KSWAPD_RECLAIM has the value of ALLOC_KSWAPD, so the kernel
	 * copies the bit. Kernels before ALLOC_NOFRAGMENT (5.0) never avoid fragmentation this way.
	 */
	flags |= gfp & __GFP_KSWAPD_RECLAIM;
	if (!preferred || zone_idx(preferred) != ZONE_NORMAL)
		return flags;
	if (!s->profile.alloc_nofragment)
		return flags;
	/*
	 * Normal allocations first try not to split a pageblock of another type: DMA32 is assumed to
	 * be a fallback that can absorb them. On NUMA the node's DMA32 must actually be populated.
	 */
	if (s->config.nr_nodes > 1 &&
	    !zone_populated(&sim_nodes(s)[zone_to_nid(preferred)].zones[ZONE_DMA32]))
		return flags;
	return flags | ALLOC_NOFRAGMENT;
}

unsigned gfp_to_alloc_flags(const struct sim *s, uint32_t gfp, int order)
{
	unsigned flags = ALLOC_WMARK_MIN | ALLOC_CPUSET;

	/* __GFP_HIGH == ALLOC_MIN_RESERVE and __GFP_KSWAPD_RECLAIM == ALLOC_KSWAPD: bit copies */
	flags |= gfp & (__GFP_HIGH | __GFP_KSWAPD_RECLAIM);
	if (!(gfp & __GFP_DIRECT_RECLAIM)) {
		/* a request that cannot sleep may dig below min, unless it asked not to */
		if (!(gfp & __GFP_NOMEMALLOC)) {
			flags |= ALLOC_NON_BLOCK;
			/* 6.18 lets only __GFP_HIGH atomic requests into the high-order atomic reserve */
			if (order > 0 && (!s->profile.highatomic_needs_min_reserve ||
					  (flags & ALLOC_MIN_RESERVE)))
				flags |= ALLOC_HIGHATOMIC;
		}
		/* GFP_ATOMIC ignores cpuset mems rather than fail */
		if (flags & ALLOC_MIN_RESERVE)
			flags &= ~ALLOC_CPUSET;
	}
	/* (rt tasks would add ALLOC_MIN_RESERVE; the model's tasks are not real-time) */
	return flags;
}

/* one entry of a show_gfp_flags table: a mask and the name printed when all its bits are set */
struct gfp_name {
	uint32_t mask;
	const char *name;
};

/*
 * 6.14+ (__def_gfpflag_names after "mm: enumerate all gfp flags"): the composites, then every
 * single bit in bit order. This is why the real 6.18 traces print __GFP_ZERO before __GFP_COMP.
 */
static const struct gfp_name gfp_names_6_18[] = {
	{ GFP_TRANSHUGE, "GFP_TRANSHUGE" },
	{ GFP_TRANSHUGE_LIGHT, "GFP_TRANSHUGE_LIGHT" },
	{ GFP_HIGHUSER_MOVABLE, "GFP_HIGHUSER_MOVABLE" },
	{ GFP_HIGHUSER, "GFP_HIGHUSER" },
	{ GFP_USER, "GFP_USER" },
	{ GFP_KERNEL_ACCOUNT, "GFP_KERNEL_ACCOUNT" },
	{ GFP_KERNEL, "GFP_KERNEL" },
	{ GFP_NOFS, "GFP_NOFS" },
	{ GFP_ATOMIC, "GFP_ATOMIC" },
	{ GFP_NOIO, "GFP_NOIO" },
	{ GFP_NOWAIT, "GFP_NOWAIT" },
	{ GFP_DMA, "GFP_DMA" },
	{ GFP_DMA32, "GFP_DMA32" },
	{ __GFP_RECLAIM, "__GFP_RECLAIM" },
	{ __GFP_DMA, "__GFP_DMA" },
	{ __GFP_HIGHMEM, "__GFP_HIGHMEM" },
	{ __GFP_DMA32, "__GFP_DMA32" },
	{ __GFP_MOVABLE, "__GFP_MOVABLE" },
	{ __GFP_RECLAIMABLE, "__GFP_RECLAIMABLE" },
	{ __GFP_HIGH, "__GFP_HIGH" },
	{ __GFP_IO, "__GFP_IO" },
	{ __GFP_FS, "__GFP_FS" },
	{ __GFP_ZERO, "__GFP_ZERO" },
	{ __GFP_DIRECT_RECLAIM, "__GFP_DIRECT_RECLAIM" },
	{ __GFP_KSWAPD_RECLAIM, "__GFP_KSWAPD_RECLAIM" },
	{ __GFP_WRITE, "__GFP_WRITE" },
	{ __GFP_NOWARN, "__GFP_NOWARN" },
	{ __GFP_RETRY_MAYFAIL, "__GFP_RETRY_MAYFAIL" },
	{ __GFP_NOFAIL, "__GFP_NOFAIL" },
	{ __GFP_NORETRY, "__GFP_NORETRY" },
	{ __GFP_MEMALLOC, "__GFP_MEMALLOC" },
	{ __GFP_COMP, "__GFP_COMP" },
	{ __GFP_NOMEMALLOC, "__GFP_NOMEMALLOC" },
	{ __GFP_HARDWALL, "__GFP_HARDWALL" },
	{ __GFP_THISNODE, "__GFP_THISNODE" },
	{ __GFP_ACCOUNT, "__GFP_ACCOUNT" },
	{ __GFP_ZEROTAGS, "__GFP_ZEROTAGS" },
};

/*
 * Up to 6.13 (docs/kernel/page_alloc/formats.md#e1-tracepoints, [6.12]): a hand-ordered list,
 * __GFP_COMP before __GFP_ZERO.
 */
static const struct gfp_name gfp_names_6_12[] = {
	{ GFP_TRANSHUGE, "GFP_TRANSHUGE" },
	{ GFP_TRANSHUGE_LIGHT, "GFP_TRANSHUGE_LIGHT" },
	{ GFP_HIGHUSER_MOVABLE, "GFP_HIGHUSER_MOVABLE" },
	{ GFP_HIGHUSER, "GFP_HIGHUSER" },
	{ GFP_USER, "GFP_USER" },
	{ GFP_KERNEL_ACCOUNT, "GFP_KERNEL_ACCOUNT" },
	{ GFP_KERNEL, "GFP_KERNEL" },
	{ GFP_NOFS, "GFP_NOFS" },
	{ GFP_ATOMIC, "GFP_ATOMIC" },
	{ GFP_NOIO, "GFP_NOIO" },
	{ GFP_NOWAIT, "GFP_NOWAIT" },
	{ GFP_DMA, "GFP_DMA" },
	{ __GFP_HIGHMEM, "__GFP_HIGHMEM" },
	{ GFP_DMA32, "GFP_DMA32" },
	{ __GFP_HIGH, "__GFP_HIGH" },
	{ __GFP_IO, "__GFP_IO" },
	{ __GFP_FS, "__GFP_FS" },
	{ __GFP_NOWARN, "__GFP_NOWARN" },
	{ __GFP_RETRY_MAYFAIL, "__GFP_RETRY_MAYFAIL" },
	{ __GFP_NOFAIL, "__GFP_NOFAIL" },
	{ __GFP_NORETRY, "__GFP_NORETRY" },
	{ __GFP_COMP, "__GFP_COMP" },
	{ __GFP_ZERO, "__GFP_ZERO" },
	{ __GFP_NOMEMALLOC, "__GFP_NOMEMALLOC" },
	{ __GFP_MEMALLOC, "__GFP_MEMALLOC" },
	{ __GFP_HARDWALL, "__GFP_HARDWALL" },
	{ __GFP_THISNODE, "__GFP_THISNODE" },
	{ __GFP_RECLAIMABLE, "__GFP_RECLAIMABLE" },
	{ __GFP_MOVABLE, "__GFP_MOVABLE" },
	{ __GFP_ACCOUNT, "__GFP_ACCOUNT" },
	{ __GFP_WRITE, "__GFP_WRITE" },
	{ __GFP_RECLAIM, "__GFP_RECLAIM" },
	{ __GFP_DIRECT_RECLAIM, "__GFP_DIRECT_RECLAIM" },
	{ __GFP_KSWAPD_RECLAIM, "__GFP_KSWAPD_RECLAIM" },
	{ __GFP_ZEROTAGS, "__GFP_ZEROTAGS" },
};

/* __print_flags: greedy in table order, each match removes its bits; leftovers as one hex number. */
static void print_flags(struct textbuf *tb, uint32_t gfp, const struct gfp_name *names, size_t n)
{
	int first = 1;

	if (!gfp) {
		tb_str(tb, "none");
		return;
	}
	for (size_t i = 0; i < n && gfp; i++) {
		if ((gfp & names[i].mask) != names[i].mask)
			continue;
		gfp &= ~names[i].mask;
		if (!first)
			tb_char(tb, '|');
		first = 0;
		tb_str(tb, names[i].name);
	}
	if (gfp) {
		if (!first)
			tb_char(tb, '|');
		tb_str(tb, "0x");
		tb_hex(tb, gfp, 1);
	}
}

void gfp_format(struct textbuf *tb, uint32_t gfp)
{
	print_flags(tb, gfp, gfp_names_6_18, sizeof gfp_names_6_18 / sizeof gfp_names_6_18[0]);
}

void gfp_format_legacy(struct textbuf *tb, uint32_t gfp)
{
	print_flags(tb, gfp, gfp_names_6_12, sizeof gfp_names_6_12 / sizeof gfp_names_6_12[0]);
}
