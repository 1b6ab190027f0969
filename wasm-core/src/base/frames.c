/*
 * frames.c: the slab pool of frames materialised on demand (base/frames.h, accessors in
 * base/state.h). A slab is 2^max_order struct page records and as many owner slots; the pool's
 * slabs are handed out from a stack of released ones, else from the never-used ones above
 * slab_high, so an untouched pool is never written (nor copied by a snapshot).
 */
#include "base/frames.h"

#include <string.h>

#include "base/state.h"
#include "base/textbuf.h"

/* The slab stack of released slabs, and each slab's block. */
static uint32_t *slab_free_stack(const struct sim *s)
{
	return (uint32_t *)((char *)s + s->slab_free_off);
}

static uint32_t *slab_blocks(const struct sim *s)
{
	return (uint32_t *)((char *)s + s->slab_blocks_off);
}

/* The first frame and owner slot of a slab. */
static struct page *slab_pages(const struct sim *s, uint32_t slab)
{
	return (struct page *)((char *)s + s->pool_off) + ((size_t)slab << s->config.max_order);
}

static uint32_t *slab_owners(const struct sim *s, uint32_t slab)
{
	return (uint32_t *)((char *)s + s->pool_owners_off) + ((size_t)slab << s->config.max_order);
}

/* The table entry that puts block's frames in slab: frame_at adds pfn * sizeof(struct page). */
static uint32_t slab_entry(const struct sim *s, uint32_t block, uint32_t slab)
{
	uint32_t first = block << s->config.max_order;

	return (uint32_t)((uint32_t)((char *)slab_pages(s, slab) - (char *)s) -
			  first * (uint32_t)sizeof(struct page));
}

/* The slab a block's entry names, SLAB_NONE for a whole block or an entry that names none. */
static uint32_t block_slab(const struct sim *s, uint32_t block)
{
	uint32_t entry = sim_block_frames(s)[block], at, bytes;

	if (entry == BLOCK_WHOLE)
		return SLAB_NONE;
	at = (uint32_t)(entry + (block << s->config.max_order) * (uint32_t)sizeof(struct page)) -
	     s->pool_off;
	bytes = (uint32_t)sizeof(struct page) << s->config.max_order;
	return at % bytes || at / bytes >= s->nr_slabs ? SLAB_NONE - 1 : at / bytes;
}

/* A clean tail: what sim_init made every frame, and what make_tail leaves. */
static void clean_frame(struct page *p)
{
	memset(p, 0, sizeof *p);
	p->next = p->prev = PFN_NONE;
}

/* Blocks [first, last] a zone's managed frames cover, and how many of them it covers partly. */
static void zone_blocks(const struct zone_config *zc, int max_order, uint64_t *blocks,
			uint64_t *partial)
{
	uint64_t end = (uint64_t)zc->start_pfn + zc->spanned, mem = end - zc->managed;
	uint64_t mask = (1ull << max_order) - 1;

	if (!zc->managed)
		return;
	*blocks += ((end - 1) >> max_order) - (mem >> max_order) + 1;
	*partial += ((mem & mask) != 0) + ((end & mask) != 0);
}

uint64_t frames_pool_slabs(const struct sim_config *cfg)
{
	uint64_t blocks = 0, partial = 0, budget;

	for (int nid = 0; nid < cfg->nr_nodes && nid < MAX_NUMNODES; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			zone_blocks(&cfg->zones[nid][zid], cfg->max_order, &blocks, &partial);
	budget = ((uint64_t)MAX_MATERIALISED_FRAMES >> cfg->max_order) + partial;
	return blocks < budget ? blocks : budget;
}

/* The pool is empty: freeze the state with what the workload touched, in words. */
static void budget_exhausted(struct sim *s)
{
	struct textbuf tb;

	tb_init(&tb, s->error, sizeof s->error);
	tb_str(&tb, "frame budget exhausted at op ");
	tb_int(&tb, s->op_seq, 0);
	tb_str(&tb, ": it needs more than the ");
	tb_int(&tb, (int64_t)s->slabs_used << s->config.max_order, 0);
	tb_str(&tb, " frames (");
	tb_int(&tb, s->slabs_used, 0);
	tb_str(&tb, " max-order blocks) touched at once the model keeps");
	tb_finish(&tb);
	s->frozen = FROZEN_NOSPACE;
}

/* Give block its slab, the head copied from the table and every other frame a clean tail. */
static struct page *materialise(struct sim *s, uint32_t block)
{
	const uint32_t n = 1u << s->config.max_order;
	uint32_t slab;
	struct page *pages;
	uint32_t *owners;

	if (s->nr_slab_free) {
		/* released whole: every frame but the head is a clean tail already (frames_check) */
		slab = slab_free_stack(s)[--s->nr_slab_free];
		pages = slab_pages(s, slab);
		owners = slab_owners(s, slab);
	} else if (s->slab_high < s->nr_slabs) {
		/* never used: written for the first time */
		slab = s->slab_high++;
		pages = slab_pages(s, slab);
		owners = slab_owners(s, slab);
		for (uint32_t i = 1; i < n; i++) {
			clean_frame(&pages[i]);
			owners[i] = HANDLE_NONE;
		}
	} else {
		/* the op cannot go on correctly: freeze; its writes land on the table's head */
		if (!s->frozen)
			budget_exhausted(s);
		return &sim_block_heads(s)[block];
	}
	pages[0] = sim_block_heads(s)[block];
	owners[0] = HANDLE_NONE;
	slab_blocks(s)[slab] = block;
	sim_block_frames(s)[block] = slab_entry(s, block, slab);
	if (++s->slabs_used > s->slabs_peak)
		s->slabs_peak = s->slabs_used;
	return pages;
}

struct page *frame_materialised(struct sim *s, uint32_t pfn)
{
	uint32_t block = pfn >> s->config.max_order;

	if (block_is_whole(s, block)) {
		struct page *head = materialise(s, block);
		if (head == &sim_block_heads(s)[block])
			return pfn == block << s->config.max_order ? head : &s->whole_tail;
	}
	return frame_at(s, pfn);
}

void frames_release(struct sim *s, uint32_t pfn)
{
	uint32_t block = pfn >> s->config.max_order;
	uint32_t slab = block_slab(s, block);

	if (slab >= s->nr_slabs || s->nr_slab_free >= s->nr_slabs)
		return;
	sim_block_heads(s)[block] = slab_pages(s, slab)[0];
	sim_block_frames(s)[block] = BLOCK_WHOLE;
	slab_blocks(s)[slab] = SLAB_NONE;
	slab_free_stack(s)[s->nr_slab_free++] = slab;
	s->slabs_used--;
}

int frames_head_whole(const struct sim *s, const struct page *head)
{
	if (head->order != s->config.max_order)
		return 0;
	if (head->state == PG_BUDDY)
		return 1;
	return head->state == PG_ALLOCATED &&
	       ((head->flags == PAGEF_CAPTURED && !head->lru_flags) || head->flags == PAGEF_EXTENT);
}

void frames_make_whole(struct sim *s, uint32_t pfn)
{
	uint32_t slab = block_slab(s, pfn >> s->config.max_order);
	struct page *pages;
	uint32_t *owners;

	if (slab >= s->nr_slabs)
		return;
	pages = slab_pages(s, slab);
	owners = slab_owners(s, slab);
	/* a released slab is taken again without a rewrite (frames_check): leave it clean */
	for (uint32_t i = 1; i < (1u << s->config.max_order); i++) {
		clean_frame(&pages[i]);
		owners[i] = HANDLE_NONE;
	}
	frames_release(s, pfn);
}

void frames_boot(struct sim *s)
{
	const uint32_t mask = (1u << s->config.max_order) - 1;

	clean_frame(&s->whole_tail);
	s->whole_owner = HANDLE_NONE;
	for (uint32_t b = 0; b < s->nr_frame_stamps; b++) {
		sim_block_frames(s)[b] = BLOCK_WHOLE;
		clean_frame(&sim_block_heads(s)[b]);
	}
	for (uint32_t i = 0; i < s->nr_slabs; i++)
		slab_blocks(s)[i] = SLAB_NONE;
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone *z = &sim_nodes(s)[nid].zones[zid];
			uint32_t end = z->mem_pfn + z->managed;
			if (!z->managed)
				continue;
			if (z->mem_pfn & mask)
				frame_materialised(s, z->mem_pfn);
			if (end & mask)
				frame_materialised(s, end - 1);
		}
	s->slabs_peak = s->slabs_used;
}

/* Report a broken pool invariant and freeze, as every checker does. */
static int fail(struct sim *s, const char *what, int64_t got, int64_t want)
{
	struct textbuf tb;

	tb_init(&tb, s->error, sizeof s->error);
	tb_str(&tb, "frames: ");
	tb_str(&tb, what);
	tb_str(&tb, ": ");
	tb_int(&tb, got, 0);
	tb_str(&tb, " (expected ");
	tb_int(&tb, want, 0);
	tb_str(&tb, ")");
	tb_finish(&tb);
	return SIM_ECORRUPT;
}

int frames_check(struct sim *s)
{
	const uint32_t *owner_of = slab_blocks(s);
	const int max_order = s->config.max_order;
	uint32_t used = 0;
	struct page clean;

	clean_frame(&clean);
	if (memcmp(&clean, &s->whole_tail, sizeof clean) || s->whole_owner != HANDLE_NONE)
		return fail(s, "the whole blocks' shared tail was written", s->whole_tail.state, 0);
	if (s->slab_high > s->nr_slabs || s->nr_slab_free > s->slab_high)
		return fail(s, "slabs taken", s->slab_high, s->nr_slabs);
	/* every slab below slab_high is either on the free stack or held by the block it names */
	for (uint32_t i = 0; i < s->slab_high; i++) {
		uint32_t b = owner_of[i];
		if (b == SLAB_NONE)
			continue;
		if (b >= s->nr_frame_stamps || block_slab(s, b) != i)
			return fail(s, "a slab's block does not name it", i, b);
		used++;
	}
	if (used != s->slabs_used || used + s->nr_slab_free != s->slab_high)
		return fail(s, "slabs used + free != slabs taken", used + s->nr_slab_free,
			    s->slab_high);
	/* a released slab is taken again without a rewrite: all but its head slot must be clean */
	for (uint32_t k = 0; k < s->nr_slab_free; k++) {
		uint32_t i = slab_free_stack(s)[k];
		const struct page *pages;
		const uint32_t *owners;

		if (i >= s->slab_high || owner_of[i] != SLAB_NONE)
			return fail(s, "a released slab is in use", i, SLAB_NONE);
		pages = slab_pages(s, i);
		owners = slab_owners(s, i);
		for (uint32_t f = 1; f < (1u << max_order); f++)
			if (memcmp(&pages[f], &clean, sizeof clean) || owners[f] != HANDLE_NONE)
				return fail(
					s, "a released slab holds a frame that is not a clean tail",
					i, f);
	}
	/* slabs: each names its block, and never a block whose head could stand for it whole */
	for (uint32_t b = 0; b < s->nr_frame_stamps; b++) {
		uint32_t slab = block_slab(s, b);

		/* the entry first: frame_at follows it */
		if (slab == SLAB_NONE)
			continue;
		if (slab >= s->slab_high || owner_of[slab] != b)
			return fail(s, "a block's slab names another block", b, slab);
		if (frames_head_whole(s, frame_at(s, b << max_order)))
			return fail(s, "a block that could be whole kept its slab", b, slab);
	}
	/*
	 * whole blocks inside a zone's managed frames: headed by a kind that may stand for the whole
	 * block (free, captured in use or an LRU extent, of the largest order). Walked zone by zone,
	 * so the check costs the blocks, not blocks x zones (64 nodes of 5 zones each).
	 */
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone *z = &sim_nodes(s)[nid].zones[zid];
			uint64_t first = ((uint64_t)z->mem_pfn + (1u << max_order) - 1) >>
					 max_order;
			uint64_t end = ((uint64_t)z->mem_pfn + z->managed) >> max_order;

			for (uint64_t b = first; z->managed && b < end && b < s->nr_frame_stamps;
			     b++) {
				const struct page *head = frame_at(s, (uint32_t)b << max_order);

				if (block_is_whole(s, (uint32_t)b) && !frames_head_whole(s, head))
					return fail(
						s,
						"a whole block that is not free, captured in use or "
						"an LRU extent at the largest order",
						(int64_t)b, head->state);
			}
		}
	return SIM_OK;
}
