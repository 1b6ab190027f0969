/*
 * machine.c: building a machine. Presets, validating a machine description, laying out the arena,
 * then each subsystem's boot (base/subsystem.h): the page allocator hands frames to the buddy and
 * sets watermarks, lowmem_reserve, zonelists and pcp values (page_alloc/boot.c).
 *
 * Holes: a zone may span far more pfns than it manages (a real Normal zone spans 5.5M pfns and
 * manages 0.7M). Only managed frames are materialised, as one run at the *end* of the span, so
 * that the run ends on the zone's (usually well aligned) end pfn. That is a model choice, not the
 * kernel's: real holes are scattered. docs/model-notes.md says so.
 */
#include <string.h>

#include "base/frames.h"
#include "base/sim.h"
#include "base/state.h"
#include "base/subsystem.h"

#define LIMIT(NAME, value, doc)

/* the machines sim_config_preset knows (machine.def) */
enum preset {
#define PRESET(NAME, name, nodes, cpus_per_node, max_order, offered, label) PRESET_##NAME,
#include "base/machine.def"
#undef PRESET
	NR_PRESETS
};

/* each preset's name and shape, as machine.def gives them; machine.c adds the zones */
static const struct {
	const char *name;
	uint8_t nodes, cpus_per_node, max_order;
} presets[NR_PRESETS] = {
#define PRESET(NAME, name, nodes, cpus_per_node, max_order, offered, label) \
	[PRESET_##NAME] = { name, nodes, cpus_per_node, max_order },
#include "base/machine.def"
#undef PRESET
};
#undef LIMIT

void sim_config_default(struct sim_config *cfg)
{
	static const int32_t ratio[MAX_NR_ZONES] = { 256, 256, 32, 0, 0 };

	memset(cfg, 0, sizeof *cfg);
	cfg->profile = PROFILE_6_18;
	cfg->nr_nodes = 1;
	cfg->cpus_per_node = 2;
	cfg->max_order = 10;
	cfg->pageblock_order = 9;
	cfg->thp = 1;
	cfg->min_free_kbytes = -1;
	cfg->watermark_scale_factor = 10;
	cfg->watermark_boost_factor = 15000;
	cfg->percpu_pagelist_high_fraction = 0;
	memcpy(cfg->lowmem_reserve_ratio, ratio, sizeof ratio);
	cfg->max_handles = DEFAULT_MAX_HANDLES;
	cfg->percpu_handles = DEFAULT_PERCPU_HANDLES;
	cfg->event_capacity = DEFAULT_EVENT_CAPACITY;
	cfg->seed = 1;
}

/* Set one zone of a node. */
static void set_zone(struct sim_config *cfg, int nid, int zid, uint32_t start, uint32_t spanned,
		     uint32_t present, uint32_t managed)
{
	struct zone_config *zc = &cfg->zones[nid][zid];
	zc->start_pfn = start;
	zc->spanned = spanned;
	zc->present = present;
	zc->managed = managed;
}

/* The x86-64 low zones as a real 6.18 machine reports them (DMA below 16 MiB, DMA32 below 4 GiB). */
static void set_low_zones(struct sim_config *cfg, uint32_t dma32_managed)
{
	set_zone(cfg, 0, ZONE_DMA, 1, 4095, 3998, 3840);
	set_zone(cfg, 0, ZONE_DMA32, 4096, 1044480, 782336, dma32_managed);
}

int sim_config_preset(struct sim_config *cfg, const char *name)
{
	int p = 0;

	while (p < NR_PRESETS && strcmp(name, presets[p].name))
		p++;
	sim_config_default(cfg);
	if (p == NR_PRESETS)
		return SIM_EINVAL;
	cfg->nr_nodes = presets[p].nodes;
	cfg->cpus_per_node = presets[p].cpus_per_node;
	cfg->max_order = presets[p].max_order;
	switch (p) {
	case PRESET_TINY:
		/* 256 pages, orders 0..6, pageblocks of 16: every frame fits on a projector */
		cfg->pageblock_order = 4;
		cfg->thp = 0;
		set_zone(cfg, 0, ZONE_NORMAL, 0, 256, 256, 256);
		break;
	case PRESET_SMALL:
		/* 64 MiB: a DMA32 and a Normal zone to fall back between */
		cfg->thp = 0;
		set_zone(cfg, 0, ZONE_DMA32, 4096, 4096, 4096, 4096);
		set_zone(cfg, 0, ZONE_NORMAL, 8192, 12288, 12288, 12288);
		break;
	case PRESET_CLASSROOM:
		/* 128 MiB Normal zone: zone_batchsize gives batch 7, the batch of the 2016 review */
		set_zone(cfg, 0, ZONE_NORMAL, 32768, 32768, 32768, 32768);
		break;
	case PRESET_LAPTOP:
		/* 16 GiB, 8 CPUs */
		set_low_zones(cfg, 772915);
		set_zone(cfg, 0, ZONE_NORMAL, 1048576, 3145728, 3145728, 3112960);
		break;
	case PRESET_SERVER2:
		/* two nodes of 8 GiB, 8 CPUs each, SLIT distance 20 */
		set_low_zones(cfg, 772915);
		set_zone(cfg, 0, ZONE_NORMAL, 1048576, 1048576, 1048576, 1040384);
		set_zone(cfg, 1, ZONE_NORMAL, 2097152, 2097152, 2097152, 2088960);
		break;
	case PRESET_XEON2011:
		/*
		 * seed 001's machine: two sockets, 12 threads each, equal memory (the seed gives no
		 * size; 8 GiB a node). Node 0 holds the low zones, so a 3.0 kernel picks zone order.
		 */
		set_low_zones(cfg, 772915);
		set_zone(cfg, 0, ZONE_NORMAL, 1048576, 1310720, 1310720, 1302528);
		set_zone(cfg, 1, ZONE_NORMAL, 2359296, 2097152, 2097152, 2088960);
		break;
	case PRESET_NUMA4: {
		/*
		 * four sockets on a ring, the SLIT of a 4-node Opteron 6100 ("Magny-Cours") board:
		 * 16 to the two neighbours, 22 across
		 */
		static const uint8_t slit[4][4] = { { 10, 16, 16, 22 },
						    { 16, 10, 22, 16 },
						    { 16, 22, 10, 16 },
						    { 22, 16, 16, 10 } };
		set_low_zones(cfg, 772915);
		set_zone(cfg, 0, ZONE_NORMAL, 1048576, 262144, 262144, 258048);
		for (int nid = 1; nid < 4; nid++)
			set_zone(cfg, nid, ZONE_NORMAL, 1310720 + (uint32_t)(nid - 1) * 1048576,
				 1048576, 1048576, 1044480);
		for (int nid = 0; nid < 4; nid++)
			memcpy(cfg->distance[nid], slit[nid], sizeof slit[nid]);
		break;
	}
	case PRESET_XEON2S512G: {
		/*
		 * A 2-socket Xeon database server, 256 GiB a socket, 32 cores (64 threads) each: the
		 * low 3 GiB below the PCI hole are DMA and DMA32 of node 0, the rest of node 0's RAM is
		 * remapped above 4 GiB as its Normal zone (pfn 1M .. 258 GiB), node 1's follows. Managed
		 * is present less the struct pages of the node (64 bytes per 4 KiB page, 1/64) and what
		 * boot keeps (the kernel image, crash kernel: 256 MiB on node 0, 64 MiB on node 1).
		 * SLIT: 21 between the sockets, what Intel firmware reports over UPI.
		 */
		static const uint8_t slit[2][2] = { { 10, 21 }, { 21, 10 } };
		const uint32_t node0_normal = 66322432, node1 = 67108864; /* 253 GiB, 256 GiB */

		set_low_zones(cfg, 772915);
		set_zone(cfg, 0, ZONE_NORMAL, 1048576, node0_normal, node0_normal,
			 node0_normal - 67108864 / 64 - 65536);
		set_zone(cfg, 1, ZONE_NORMAL, 1048576 + node0_normal, node1, node1,
			 node1 - node1 / 64 - 16384);
		for (int nid = 0; nid < 2; nid++)
			memcpy(cfg->distance[nid], slit[nid], sizeof slit[nid]);
		break;
	}
	case PRESET_EPYC4N2T: {
		/*
		 * A 2-socket AMD EPYC (64 cores, 128 threads a socket) in NPS2: each socket two nodes
		 * of 512 GiB. The SLIT is the one such boards report: 12 to the other node of the
		 * same socket, 32 across the socket link. Node 0 holds the low zones; managed as for
		 * xeon512g (1/64 for struct pages, boot's reservations).
		 */
		static const uint8_t slit[4][4] = { { 10, 12, 32, 32 },
						    { 12, 10, 32, 32 },
						    { 32, 32, 10, 12 },
						    { 32, 32, 12, 10 } };
		const uint32_t node = 134217728, node0_normal = node - 786432; /* 512, 509 GiB */

		set_low_zones(cfg, 772915);
		set_zone(cfg, 0, ZONE_NORMAL, 1048576, node0_normal, node0_normal,
			 node0_normal - node / 64 - 65536);
		for (int nid = 1; nid < 4; nid++)
			set_zone(cfg, nid, ZONE_NORMAL,
				 1048576 + node0_normal + (uint32_t)(nid - 1) * node, node, node,
				 node - node / 64 - 16384);
		for (int nid = 0; nid < 4; nid++)
			memcpy(cfg->distance[nid], slit[nid], sizeof slit[nid]);
		break;
	}
	case PRESET_BENCH1T:
		/* 1 TiB in one Normal zone above 4 GiB: the big-machine benchmark (issue 18) */
		set_zone(cfg, 0, ZONE_NORMAL, 1048576, 268435456, 268435456, 268435456);
		break;
	case PRESET_BENCH1M:
		/* 4 GiB in one Normal zone: the benchmark machine */
		set_zone(cfg, 0, ZONE_NORMAL, 1048576, 1048576, 1048576, 1048576);
		break;
	}
	return SIM_OK;
}

/* Round up to a multiple of 8 so every array is aligned for its widest field. */
static uint64_t align8(uint64_t n)
{
	return (n + 7) & ~(uint64_t)7;
}

/* Pageblocks covering [mem_pfn, mem_pfn + managed). */
static uint32_t zone_pageblocks(uint32_t mem_pfn, uint32_t managed, int pageblock_order)
{
	if (!managed)
		return 0;
	return ((mem_pfn + managed - 1) >> pageblock_order) - (mem_pfn >> pageblock_order) + 1;
}

/* How many of each array a machine needs. */
struct arena_counts {
	uint64_t frames, pageblocks;
	uint64_t slabs;	       /* slabs of the frame pool (base/frames.h) */
	uint32_t frame_stamps; /* max-order blocks from pfn 0 to the end of the highest zone */
};

/* Whether a machine description is one the model can build; counts what its arena holds. */
static int config_valid(const struct sim_config *cfg, struct arena_counts *n)
{
	uint64_t pfn_end = 0;

	n->frames = 0;
	n->pageblocks = 0;
	n->frame_stamps = 0;
	if (cfg->profile >= NR_PROFILES || cfg->nr_nodes < 1 || cfg->nr_nodes > MAX_NUMNODES)
		return 0;
	if (cfg->cpus_per_node < 1 || cfg->cpus_per_node > MAX_CPUS_PER_NODE ||
	    (uint32_t)cfg->nr_nodes * cfg->cpus_per_node > MAX_CPUS)
		return 0;
	if (cfg->max_order < 1 || cfg->max_order > MAX_PAGE_ORDER_LIMIT ||
	    cfg->pageblock_order > cfg->max_order)
		return 0;
	if (cfg->max_handles < 1 || cfg->max_handles > MAX_HANDLES_LIMIT)
		return 0;
	if (cfg->percpu_handles > MAX_HANDLES_LIMIT)
		return 0;
	if (cfg->event_capacity < 1 || cfg->event_capacity > MAX_EVENT_CAPACITY)
		return 0;
	if (cfg->watermark_scale_factor < 1 || cfg->watermark_scale_factor > 3000 ||
	    cfg->watermark_boost_factor < 0)
		return 0;
	if (cfg->percpu_pagelist_high_fraction != 0 && cfg->percpu_pagelist_high_fraction < 8)
		return 0;
	if (cfg->swap_pages > MAX_SWAP_PAGES)
		return 0;
	if (cfg->pcp_batch < 0 || cfg->pcp_batch > MAX_PCP_BATCH)
		return 0;
	for (int nid = 0; nid < cfg->nr_nodes; nid++) {
		uint64_t prev_end = 0;
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone_config *zc = &cfg->zones[nid][zid];
			uint64_t end = (uint64_t)zc->start_pfn + zc->spanned;
			if (!zc->spanned && !zc->managed)
				continue;
			if (zid == ZONE_DEVICE && zc->managed)
				return 0; /* ZONE_DEVICE is never given to the buddy */
			if (zc->managed > zc->present || zc->present > zc->spanned ||
			    end >= PFN_NONE)
				return 0;
			if (zc->start_pfn < prev_end)
				return 0; /* zones of a node are ordered by pfn and do not overlap */
			prev_end = end;
			n->frames += zc->managed;
			n->pageblocks += zone_pageblocks((uint32_t)(end - zc->managed), zc->managed,
							 cfg->pageblock_order);
			if (zc->managed && end > pfn_end)
				pfn_end = end;
		}
	}
	/*
	 * The change stamps are indexed by pfn, so their count grows with the highest pfn, not with
	 * the memory: bounded, every array of the arena is, and the arena always fits its offsets.
	 */
	if (((pfn_end + (1u << cfg->max_order) - 1) >> cfg->max_order) > MAX_FRAME_STAMPS)
		return 0;
	n->frame_stamps = (uint32_t)((pfn_end + (1u << cfg->max_order) - 1) >> cfg->max_order);
	n->slabs = frames_pool_slabs(cfg);
	return n->frames > 0 && n->frames <= MAX_FRAMES && n->pageblocks <= MAX_PAGEBLOCKS;
}

/*
 * Byte offsets of the arena's arrays, in the order they follow the header. Computed in 64 bits
 * whatever size_t is (32 bits in wasm): a machine whose arena would not fit the state's 32-bit
 * offsets is refused (arena_fits), never wrapped into a smaller, corrupt one.
 */
struct arena_layout {
	uint64_t block_frames, block_heads, pageblocks, frame_stamps, frame_group_stamps, nodes,
		cpus, pcp, handles, slab_blocks, slab_free, pool, pool_owners, events, end;
	uint64_t subsystem[MAX_SUBSYSTEMS]; /* each subsystem's region, before the events (0: none) */
};

/* pcp records per CPU: one per populated zone, and one every unpopulated zone shares (sim_pcp). */
static uint32_t pcp_zones(const struct sim_config *cfg)
{
	uint32_t n = 1;

	for (int nid = 0; nid < cfg->nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			n += cfg->zones[nid][zid].managed != 0;
	return n;
}

/* Where each array of a valid config goes. */
static struct arena_layout arena_layout(const struct sim_config *cfg, const struct arena_counts *n)
{
	struct arena_layout l;
	uint64_t nr_cpus = (uint64_t)cfg->nr_nodes * cfg->cpus_per_node;
	uint64_t nr_pcp = nr_cpus * pcp_zones(cfg);

	/* the per-block table (one entry per max-order block from pfn 0), then the fixed arrays */
	l.block_frames = SIM_BLOCK_FRAMES_OFF; /* where frame_at expects it */
	l.block_heads = align8(l.block_frames + (uint64_t)n->frame_stamps * sizeof(uint32_t));
	l.pageblocks = align8(l.block_heads + (uint64_t)n->frame_stamps * sizeof(struct page));
	l.frame_stamps = align8(l.pageblocks + n->pageblocks);
	l.frame_group_stamps =
		align8(l.frame_stamps + (uint64_t)n->frame_stamps * sizeof(uint64_t));
	l.nodes = align8(l.frame_group_stamps +
			 (uint64_t)frame_stamp_groups(n->frame_stamps) * sizeof(uint64_t));
	l.cpus = align8(l.nodes + (uint64_t)cfg->nr_nodes * sizeof(struct node));
	l.pcp = align8(l.cpus + nr_cpus * sizeof(struct cpu));
	l.handles = align8(l.pcp + nr_pcp * sizeof(struct per_cpu_pages));
	l.slab_blocks = align8(l.handles + (uint64_t)cfg->max_handles * sizeof(struct handle));
	l.slab_free = align8(l.slab_blocks + n->slabs * sizeof(uint32_t));
	/*
	 * the subsystems' regions, then the pool of slabs, then the event buffer last: everything
	 * before the pool is the fixed state, and a snapshot (web/core/snapshot.ts) is that plus the
	 * slabs in use, every subsystem's state included
	 */
	l.end = align8(l.slab_free + n->slabs * sizeof(uint32_t));
	for (int i = 0; i < MAX_SUBSYSTEMS; i++) {
		const struct subsystem *sub = sim_subsystems[i];
		uint64_t bytes = 0;

		l.subsystem[i] = 0;
		if (!sub)
			break;
		if (sub->arena_bytes)
			bytes = sub->arena_bytes(cfg);
		if (bytes == UINT64_MAX || bytes > UINT32_MAX) {
			l.end = UINT64_MAX; /* refused by arena_fits */
			return l;
		}
		if (bytes) {
			l.subsystem[i] = l.end;
			l.end = align8(l.end + bytes);
		}
	}
	l.pool = l.end;
	l.pool_owners = align8(l.pool + (n->slabs << cfg->max_order) * sizeof(struct page));
	l.events = align8(l.pool_owners + (n->slabs << cfg->max_order) * sizeof(uint32_t));
	l.end = align8(l.events + (uint64_t)cfg->event_capacity * sizeof(struct sim_event));
	return l;
}

/* Whether an arena of this layout can be addressed: its offsets are uint32_t, and size_t may be too. */
static int arena_fits(const struct arena_layout *l)
{
	return l->end <= UINT32_MAX && l->end <= SIZE_MAX;
}

size_t sim_state_size(const struct sim_config *cfg)
{
	struct arena_counts n;
	struct arena_layout l;

	if (!config_valid(cfg, &n))
		return 0;
	l = arena_layout(cfg, &n);
	return arena_fits(&l) ? (size_t)l.end : 0;
}

/* Lay out nodes, CPUs and zones; every list empty, every frame a tail, every pageblock MOVABLE. */
static void boot_layout(struct sim *s)
{
	const struct sim_config *cfg = &s->config;
	uint32_t pageblock = 0;
	uint16_t pcp_slot = 0;

	s->nr_cpus = (uint32_t)cfg->nr_nodes * cfg->cpus_per_node;
	for (uint32_t cpu = 0; cpu < s->nr_cpus; cpu++) {
		sim_cpus(s)[cpu].node = (uint16_t)(cpu / cfg->cpus_per_node);
		sim_cpus(s)[cpu].online = 1;
	}
	for (int nid = 0; nid < cfg->nr_nodes; nid++) {
		struct node *n = &sim_nodes(s)[nid];
		n->first_cpu = (uint16_t)(nid * cfg->cpus_per_node);
		n->nr_cpus = cfg->cpus_per_node;
		for (int other = 0; other < cfg->nr_nodes; other++) {
			uint8_t d = cfg->distance[nid][other];
			n->distance[other] = d ? d : (other == nid ? 10 : 20);
		}
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone_config *zc = &cfg->zones[nid][zid];
			struct zone *z = &n->zones[zid];
			z->node = (uint8_t)nid;
			z->idx = (uint8_t)zid;
			z->start_pfn = zc->start_pfn;
			z->spanned = zc->spanned;
			z->present = zc->present;
			z->managed = zc->managed;
			/* the populated zones in node order, the rest on the shared empty slot */
			z->pcp_slot = zc->managed ? pcp_slot++ : (uint16_t)(s->nr_pcp_zones - 1);
			z->mem_pfn = zc->start_pfn + zc->spanned - zc->managed;
			z->pageblock_base = pageblock;
			z->nr_pageblocks =
				zone_pageblocks(z->mem_pfn, z->managed, cfg->pageblock_order);
			pageblock += z->nr_pageblocks;
			for (int order = 0; order <= MAX_PAGE_ORDER_LIMIT; order++)
				for (int mt = 0; mt < MIGRATE_TYPES; mt++)
					z->free_area[order].head[mt] =
						z->free_area[order].tail[mt] = PFN_NONE;
		}
	}
	frames_boot(s);
	memset(sim_pageblocks(s), MIGRATE_MOVABLE, s->nr_pageblocks);
	for (uint32_t h = 0; h < cfg->max_handles; h++)
		sim_handles(s)[h].pfn = PFN_NONE;
}

int pfn_to_zone_index(const struct sim *s, uint32_t pfn)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			if (zone_has_pfn(&sim_nodes(s)[nid].zones[zid], pfn))
				return nid * MAX_NR_ZONES + zid;
	return -1;
}

int sim_init(void *arena, size_t size, const struct sim_config *cfg)
{
	struct sim *s = arena;
	struct arena_counts n;
	struct arena_layout l;

	if (!config_valid(cfg, &n))
		return SIM_ECONFIG;
	l = arena_layout(cfg, &n);
	if (!arena_fits(&l))
		return SIM_ECONFIG;
	if (size < l.end || ((uintptr_t)arena & 7))
		return SIM_ENOSPACE;

	/* the pool is written slab by slab when a block is materialised (base/frames.c) */
	memset(s, 0, l.pool);
	memset((char *)s + l.events, 0, l.end - l.events);
	s->magic = SIM_MAGIC;
	s->arena_size = (uint32_t)l.end;
	s->config = *cfg;
	s->profile = *sim_profile_get(cfg->profile);
	s->nr_frames = (uint32_t)n.frames;
	s->nr_pageblocks = (uint32_t)n.pageblocks;
	s->pageblock_nr_pages = 1u << cfg->pageblock_order;
	s->nr_pcp_zones = pcp_zones(cfg);
	s->nodes_off = (uint32_t)l.nodes;
	s->cpus_off = (uint32_t)l.cpus;
	s->block_frames_off = (uint32_t)l.block_frames;
	s->block_heads_off = (uint32_t)l.block_heads;
	s->slab_blocks_off = (uint32_t)l.slab_blocks;
	s->slab_free_off = (uint32_t)l.slab_free;
	s->pool_off = (uint32_t)l.pool;
	s->pool_owners_off = (uint32_t)l.pool_owners;
	s->nr_slabs = (uint32_t)n.slabs;
	s->pageblocks_off = (uint32_t)l.pageblocks;
	s->frame_stamps_off = (uint32_t)l.frame_stamps;
	s->frame_group_stamps_off = (uint32_t)l.frame_group_stamps;
	s->nr_frame_stamps = n.frame_stamps;
	s->pcp_off = (uint32_t)l.pcp;
	s->handles_off = (uint32_t)l.handles;
	s->events_off = (uint32_t)l.events;
	s->nr_swap_free = cfg->swap_pages;
	for (int i = 0; i < MAX_SUBSYSTEMS; i++)
		s->subsystem_off[i] = (uint32_t)l.subsystem[i];
	s->rng = cfg->seed ? cfg->seed : 0x9E3779B97F4A7C15ULL;
	s->history = HISTORY_EMPTY;
	s->user_min_free_kbytes = -1;
	boot_layout(s);

	/* each subsystem brings its part of the machine up, in dependency order */
	for (const struct subsystem *const *sub = sim_subsystems; *sub; sub++)
		if ((*sub)->boot)
			(*sub)->boot(s);
	/*
	 * What booting did (the percpu first chunk's hint refreshes) is the machine's state, not the
	 * workload's history: event numbers count from the first op, so an event's seq is its index.
	 */
	sim_ops_restart(s);
	return SIM_OK;
}
