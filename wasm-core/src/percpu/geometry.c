/*
 * geometry.c: where the percpu allocator's memory is before any alloc_percpu: the unit size and
 * groups of pcpu_build_alloc_info() (mm/percpu.c), x86-64's embedding arguments
 * (setup_per_cpu_areas, arch/x86/kernel/setup_percpu.c), and the layout of the percpu region of
 * the arena that follows from them.
 *
 * Worked example (the live machine, 2 CPUs, static 185560, reserved 0): dyn asked 28672;
 * size_sum = PFN_ALIGN(185560 + 0 + 28672) = 217088 (53 pages), so dyn becomes 31528;
 * alloc_size = 2 MiB (one PMD atom); upa starts at 2 MiB / 217088 = 9, lowered to 8 (the first
 * divisor giving page-aligned units); one group of 2 CPUs: upa 8 wastes 6 and upa 4 wastes 2
 * units, both above 2 / 3 = 0; upa 2 wastes none; upa 1 would need 2 allocations, more than 1,
 * so the walk stops: unit_size = 2 MiB / 2 = 1 MiB. Boot line: "Embedded 53 pages/cpu
 * s185560 r0 d31528 u1048576".
 */
#include "base/sim.h"
#include "percpu/percpu.h"

/* PFN_ALIGN */
static uint64_t page_align(uint64_t n)
{
	return (n + PCPU_PAGE_SIZE - 1) & ~(uint64_t)(PCPU_PAGE_SIZE - 1);
}

int pcpu_geometry(const struct sim_config *cfg, struct pcpu_state *ps)
{
	uint64_t static_size = cfg->percpu_static_size ? cfg->percpu_static_size :
							 PCPU_DEFAULT_STATIC_SIZE;
	uint64_t reserved = cfg->percpu_reserved_size;
	uint64_t dyn = PCPU_DYNAMIC_RESERVE, size_sum, min_unit, alloc_size;
	uint32_t nr_cpus = (uint32_t)cfg->nr_nodes * cfg->cpus_per_node;
	uint32_t upa, max_upa, best_upa = 0, last_allocs = UINT32_MAX, units = 0;

	if (static_size > PCPU_MAX_STATIC_SIZE || reserved > PCPU_MAX_STATIC_SIZE || !nr_cpus)
		return -1;
	/* step 1: the first chunk's parts; dyn takes up what page-aligning adds */
	size_sum = page_align(static_size + reserved +
			      (dyn > PCPU_DYNAMIC_EARLY_SIZE ? dyn : PCPU_DYNAMIC_EARLY_SIZE));
	dyn = size_sum - static_size - reserved;
	/* step 2: units per atom-aligned allocation */
	min_unit = size_sum > PCPU_MIN_UNIT_SIZE ? size_sum : PCPU_MIN_UNIT_SIZE;
	alloc_size = (min_unit + PCPU_ATOM_SIZE - 1) / PCPU_ATOM_SIZE * PCPU_ATOM_SIZE;
	upa = (uint32_t)(alloc_size / min_unit);
	while (upa > 1 && (alloc_size % upa || (alloc_size / upa) % PCPU_PAGE_SIZE))
		upa--;
	max_upa = upa;
	/*
	 * step 3: groups are the nodes (CPUs at LOCAL_DISTANCE from each other); step 4: the upa with
	 * the fewest allocations whose wasted units stay within a third of the CPUs
	 */
	for (upa = max_upa; upa; upa--) {
		uint32_t allocs = 0, wasted = 0;

		if (alloc_size % upa || (alloc_size / upa) % PCPU_PAGE_SIZE)
			continue;
		for (int g = 0; g < cfg->nr_nodes; g++) {
			uint32_t this_allocs = (cfg->cpus_per_node + upa - 1) / upa;
			allocs += this_allocs;
			wasted += this_allocs * upa - cfg->cpus_per_node;
		}
		if (wasted > nr_cpus / 3)
			continue;
		if (allocs > last_allocs)
			break;
		last_allocs = allocs;
		best_upa = upa;
	}
	if (!best_upa)
		return -1;
	for (int g = 0; g < cfg->nr_nodes; g++)
		units += (cfg->cpus_per_node + best_upa - 1) / best_upa * best_upa;
	if (ps) {
		ps->static_size = (uint32_t)static_size;
		ps->reserved_size = (uint32_t)reserved;
		ps->dyn_size = (uint32_t)dyn;
		ps->size_sum = (uint32_t)size_sum;
		ps->atom_size = PCPU_ATOM_SIZE;
		ps->upa = best_upa;
		ps->unit_size = (uint32_t)(alloc_size / best_upa);
		ps->alloc_size = (uint32_t)alloc_size;
		ps->nr_groups = cfg->nr_nodes;
		ps->nr_units = units;
		ps->unit_pages = ps->unit_size / PCPU_PAGE_SIZE;
		ps->map_bits = ps->unit_pages * (PCPU_PAGE_SIZE / PCPU_MIN_ALLOC_SIZE);
	}
	return 0;
}

/* Round up to 8 bytes. */
static uint64_t al8(uint64_t n)
{
	return (n + 7) & ~(uint64_t)7;
}

/*
 * How many chunks the table holds: the first (and reserved) chunk, and enough dynamic chunks
 * for the workload's peak percpu bytes with a quarter to spare for fragmentation, never more
 * than the machine's frames could back (a dynamic chunk in use holds at least one populated
 * page in every CPU's unit). A workload that needs more sees chunk creation fail, as a kernel
 * out of vmalloc space would (docs/model-notes.md).
 *
 * A machine without percpu handles can hold no area, so it never makes a dynamic chunk: an
 * allocation makes one, and the balance work makes one only when fewer than
 * PCPU_EMPTY_POP_PAGES_HIGH empty populated pages are left, while the first chunk's dynamic
 * area alone has more (PCPU_DYNAMIC_RESERVE) until something is allocated. Its table holds the
 * first chunk, and the reserved one when there is a reserved area.
 */
static uint32_t max_chunks(const struct sim_config *cfg, const struct pcpu_state *g)
{
	uint64_t frames = 0, nr_cpus = (uint64_t)cfg->nr_nodes * cfg->cpus_per_node;
	uint64_t want =
		((uint64_t)cfg->percpu_peak_kib * 1024 * 5 / 4 + g->unit_size - 1) / g->unit_size;
	uint64_t bound;

	if (!cfg->percpu_handles)
		return cfg->percpu_reserved_size ? 2 : 1;

	for (int n = 0; n < cfg->nr_nodes; n++)
		for (int z = 0; z < MAX_NR_ZONES; z++)
			frames += cfg->zones[n][z].managed;
	bound = frames / nr_cpus + 1;
	want += 2;
	if (want > bound)
		want = bound;
	want += 2; /* the first chunk and the reserved one */
	return want > PCPU_MAX_CHUNKS ? PCPU_MAX_CHUNKS : (uint32_t)want;
}

uint64_t pcpu_layout(const struct sim_config *cfg, struct pcpu_state *ps)
{
	struct pcpu_state g = { 0 };
	uint64_t nr_cpus = (uint64_t)cfg->nr_nodes * cfg->cpus_per_node, stride, end;
	const struct sim_profile *p = sim_profile_get(cfg->profile);
	uint32_t pages, chunks;
	uint64_t pool = 0;

	if (pcpu_geometry(cfg, &g))
		return UINT64_MAX;
	pages = g.unit_pages;
	chunks = max_chunks(cfg, &g);
	/* one chunk's data: populated bits, bytes used per page, page frames per unit */
	g.d_populated = 0;
	stride = al8((pages + 63) / 64 * 8);
	g.d_pages_used = (uint32_t)stride;
	stride = al8(stride + (uint64_t)pages * 2);
	g.d_pfns = (uint32_t)stride;
	stride = al8(stride + (uint64_t)pages * nr_cpus * 4);
	if (p->percpu_allocator == PCPU_BITMAP) {
		uint64_t words = ((uint64_t)g.map_bits + 64) / 64; /* bound_map has one bit more */
		g.d_alloc_map = (uint32_t)stride;
		stride += words * 8;
		g.d_bound_map = (uint32_t)stride;
		stride += words * 8;
		g.d_md_blocks = (uint32_t)stride;
		stride = al8(stride + (uint64_t)pages * sizeof(struct pcpu_block_md));
	} else {
		/*
		 * map[] entries: a map holds two entries per live area at most (head splits) and
		 * grows by doubling; every chunk keeps at least PCPU_DFL_MAP_ALLOC + the margin.
		 */
		pool = (uint64_t)cfg->percpu_handles * 4 + (uint64_t)chunks * 256 + 1024;
	}
	g.chunk_stride = (uint32_t)stride;
	g.max_chunks = chunks;
	g.chunks_off = (uint32_t)al8(sizeof(struct pcpu_state));
	end = g.chunks_off + (uint64_t)chunks * sizeof(struct pcpu_chunk);
	g.data_off = (uint32_t)al8(end);
	end = g.data_off + (uint64_t)chunks * stride;
	g.handles_off = (uint32_t)al8(end);
	end = g.handles_off + (uint64_t)cfg->percpu_handles * sizeof(struct pcpu_handle);
	g.pool_off = (uint32_t)al8(end);
	g.pool_entries = (uint32_t)pool;
	end = al8(g.pool_off + pool * 4);
	if (end > UINT32_MAX)
		return UINT64_MAX;
	if (ps)
		*ps = g;
	return end;
}
