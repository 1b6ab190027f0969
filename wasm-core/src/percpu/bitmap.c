/*
 * bitmap.c: Dennis Zhou's bitmap allocator (mm/percpu.c since 4.14; scan hints and chunk_md
 * since 5.1). A chunk's alloc_map has a bit per 4 bytes (set = in use), its bound_map a bit at
 * every area's start and one just after its end, and every page has a pcpu_block_md of hints
 * (percpu.h). Allocation finds a block whose hints promise room (pcpu_find_block_fit), scans the
 * alloc_map from there (pcpu_alloc_area) and repairs the hints it broke; freeing reads the
 * area's size from bound_map and repairs hints from the neighbouring free bits.
 *
 * Example, one block: a fresh block has contig_hint = left_free = right_free = 1024 bits.
 * Allocating 16 bytes (4 bits) at bit 0 breaks the contig hint, so the block is rescanned:
 * contig_hint 1020 at 4, left_free 0, right_free 1020, first_free 4. Freeing it finds the run
 * around it (bits 0..1023) and gives the block its 1024 back.
 *
 * The free path repairs the chunk's hint only when the freed run fills a whole block or spans
 * blocks (pcpu_block_update_hint_free): otherwise the chunk hint may stay below the real
 * largest run (4.14: the run's start with the block's contig hint as length; 5.1+: the run's
 * chunk start with a block-relative end, which raises nothing outside block 0). The checker
 * allows exactly that: a chunk hint never above the truth.
 *
 * Every bit search counts the 64-bit words it reads (pcpu_work.words_scanned); every block hint
 * visited counts in blocks_visited.
 */
#include "base/event.h"
#include "percpu/percpu.h"
#include "percpu/vocab.h"

/* ---- bit operations that count the words they read ---- */

/* The first bit in [start, size) set in map XOR flip (flip 0: set bits, ~0: clear bits), or size; counts the words read. */
static int next_bit_flipped(const uint64_t *map, int size, int start, uint64_t flip,
			    uint64_t *words)
{
	if (start >= size)
		return size;
	for (int w = start / 64; w * 64 < size; w++) {
		uint64_t v = map[w] ^ flip;

		(*words)++;
		if (w == start / 64)
			v &= ~0ull << (start % 64);
		if (v) {
			int bit = w * 64 + __builtin_ctzll(v);
			return bit < size ? bit : size;
		}
	}
	return size;
}

/* find_next_bit: the first set bit in [start, size), or size. */
static int next_bit(const uint64_t *map, int size, int start, uint64_t *words)
{
	return next_bit_flipped(map, size, start, 0, words);
}

/* find_next_zero_bit: the first clear bit in [start, size), or size. */
static int next_zero_bit(const uint64_t *map, int size, int start, uint64_t *words)
{
	return next_bit_flipped(map, size, start, ~0ull, words);
}

/* find_last_bit: the last set bit below size, or size when there is none. */
static int last_bit(const uint64_t *map, int size, uint64_t *words)
{
	for (int w = (size - 1) / 64; size > 0 && w >= 0; w--) {
		uint64_t v = map[w];

		(*words)++;
		if ((w + 1) * 64 > size)
			v &= (1ull << (size % 64)) - 1;
		if (v)
			return w * 64 + 63 - __builtin_clzll(v);
	}
	return size;
}

/* Set or clear bits [start, start + n). */
static void bits_assign(uint64_t *map, int start, int n, int set)
{
	for (int b = start; b < start + n; b++) {
		if (set)
			map[b / 64] |= 1ull << (b % 64);
		else
			map[b / 64] &= ~(1ull << (b % 64));
	}
}

/* Whether bit b is set. */
static int bit_test(const uint64_t *map, int b)
{
	return (int)((map[b / 64] >> (b % 64)) & 1);
}

/* __ffs: the index of the lowest set bit (x != 0). */
static int ffs0(int x)
{
	return __builtin_ctz((unsigned)x);
}

/* ALIGN(x, a) for a power of two a */
static int align_up(int x, int a)
{
	return (x + a - 1) & ~(a - 1);
}

/* Whether [a, b) and [x, y) overlap (pcpu_region_overlap). */
static int overlap(int a, int b, int x, int y)
{
	return a < y && x < b;
}

/* ---- hints ---- */

/* pcpu_block_update: record a known free run [start, end) of block (or chunk_md). */
static void block_update(const struct sim *s, struct pcpu_block_md *block, int start, int end)
{
	int contig = end - start;

	if (start < block->first_free)
		block->first_free = start;
	if (start == 0)
		block->left_free = contig;
	if (end == block->nr_bits)
		block->right_free = contig;
	if (!s->profile.percpu_scan_hint) {
		/* 4.14: the largest run, the best-aligned start among equals */
		if (contig > block->contig_hint) {
			block->contig_hint_start = start;
			block->contig_hint = contig;
		} else if (block->contig_hint_start && contig == block->contig_hint &&
			   (!start || ffs0(start) > ffs0(block->contig_hint_start))) {
			block->contig_hint_start = start;
		}
		return;
	}
	if (contig > block->contig_hint) {
		/* the old contig hint becomes the scan hint when it lies before the new one */
		if (start > block->contig_hint_start) {
			if (block->contig_hint > block->scan_hint) {
				block->scan_hint_start = block->contig_hint_start;
				block->scan_hint = block->contig_hint;
			} else if (start < block->scan_hint_start) {
				block->scan_hint = 0;
			}
		} else {
			block->scan_hint = 0;
		}
		block->contig_hint_start = start;
		block->contig_hint = contig;
	} else if (contig == block->contig_hint) {
		if (block->contig_hint_start &&
		    (!start || ffs0(start) > ffs0(block->contig_hint_start))) {
			block->contig_hint_start = start;
			if (start < block->scan_hint_start && block->contig_hint > block->scan_hint)
				block->scan_hint = 0;
		} else if (start > block->scan_hint_start ||
			   block->contig_hint > block->scan_hint) {
			block->scan_hint_start = start;
			block->scan_hint = contig;
		}
	} else if (start < block->contig_hint_start &&
		   (contig > block->scan_hint ||
		    (contig == block->scan_hint && start > block->scan_hint_start))) {
		block->scan_hint_start = start;
		block->scan_hint = contig;
	}
}

/* 4.14's pcpu_chunk_update: the chunk's contig_bits from a free run (no left/right/first). */
static void chunk_update_4_14(struct pcpu_block_md *md, int bit_off, int bits)
{
	if (bits > md->contig_hint) {
		md->contig_hint_start = bit_off;
		md->contig_hint = bits;
	} else if (bits == md->contig_hint && md->contig_hint_start &&
		   (!bit_off || ffs0(bit_off) > ffs0(md->contig_hint_start))) {
		md->contig_hint_start = bit_off;
	}
}

/* pcpu_block_refresh_hint: rescan block index's alloc_map for its hints. */
static void block_refresh(struct sim *s, struct pcpu_state *ps, uint32_t ci, int index, int phase)
{
	struct pcpu_block_md *block = pcpu_md_blocks(ps, ci) + index;
	const uint64_t *map = pcpu_alloc_map(ps, ci) + (size_t)index * (PCPU_BLOCK_BITS / 64);
	struct pcpu_work *w = &ps->work[phase];
	uint64_t words = 0;
	int start;

	if (s->profile.percpu_scan_hint && block->scan_hint) {
		/* promote the scan hint: the runs before it are known smaller */
		start = block->scan_hint_start + block->scan_hint;
		block->contig_hint_start = block->scan_hint_start;
		block->contig_hint = block->scan_hint;
		block->scan_hint = 0;
	} else {
		start = block->first_free;
		block->contig_hint = 0;
	}
	if (!s->profile.percpu_scan_hint)
		block->left_free = 0;
	block->right_free = 0;
	for (int guard = 0; start < PCPU_BLOCK_BITS && guard <= PCPU_BLOCK_BITS; guard++) {
		int rs = next_zero_bit(map, PCPU_BLOCK_BITS, start, &words);
		int re;

		if (rs >= PCPU_BLOCK_BITS)
			break;
		re = next_bit(map, PCPU_BLOCK_BITS, rs + 1, &words);
		block_update(s, block, rs, re);
		start = re + 1;
	}
	w->words_scanned += words;
	w->block_refreshes++;
	w->blocks_visited++;
	ev_emit(s, EV_PERCPU_BLOCK_REFRESH, FN_PCPU_BLOCK_REFRESH_HINT, -1, NULL, ci, 0, 0, index,
		block->contig_hint, (int32_t)words);
}

/*
 * pcpu_next_md_free_region: from *bit_off, the next free run the block hints describe, joining
 * runs across block boundaries; *bit_off = map bits when none is left.
 */
static void next_md_free_region(struct pcpu_state *ps, uint32_t ci, int *bit_off, int *bits,
				uint64_t *visited)
{
	const struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	struct pcpu_block_md *md = pcpu_md_blocks(ps, ci);
	int i = *bit_off / PCPU_BLOCK_BITS, block_off = *bit_off % PCPU_BLOCK_BITS;

	*bits = 0;
	for (; i < (int)c->nr_pages; i++) {
		struct pcpu_block_md *block = md + i;

		(*visited)++;
		if (*bits) {
			*bits += block->left_free;
			if (block->left_free == PCPU_BLOCK_BITS)
				continue;
			return;
		}
		*bits = block->contig_hint;
		if (*bits && block->contig_hint_start >= block_off &&
		    *bits + block->contig_hint_start < PCPU_BLOCK_BITS) {
			*bit_off = i * PCPU_BLOCK_BITS + block->contig_hint_start;
			return;
		}
		block_off = 0;
		*bits = block->right_free;
		*bit_off = (i + 1) * PCPU_BLOCK_BITS - block->right_free;
	}
	if (!*bits)
		*bit_off = pcpu_chunk_map_bits(c);
}

/* pcpu_chunk_refresh_hint: the chunk's contig hint from the block hints (walks the blocks). */
static void chunk_refresh(struct sim *s, struct pcpu_state *ps, uint32_t ci, int full_scan,
			  int phase)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	struct pcpu_block_md *md = &c->chunk_md;
	struct pcpu_work *w = &ps->work[phase];
	int map_bits = pcpu_chunk_map_bits(c), bit_off, bits = 0;
	uint64_t visited = 0;

	if (s->profile.percpu_scan_hint && !full_scan && md->scan_hint) {
		bit_off = md->scan_hint_start + md->scan_hint;
		md->contig_hint_start = md->scan_hint_start;
		md->contig_hint = md->scan_hint;
		md->scan_hint = 0;
	} else {
		bit_off = md->first_free;
		md->contig_hint = 0;
	}
	for (int guard = 0; guard <= (int)c->nr_pages * 2 + 2; guard++) {
		next_md_free_region(ps, ci, &bit_off, &bits, &visited);
		if (bit_off >= map_bits)
			break;
		if (s->profile.percpu_scan_hint)
			block_update(s, md, bit_off, bit_off + bits);
		else
			chunk_update_4_14(md, bit_off, bits);
		bit_off += bits + 1;
	}
	w->blocks_visited += visited;
	w->chunk_refreshes++;
	ev_emit(s, EV_PERCPU_CHUNK_REFRESH, FN_PCPU_CHUNK_REFRESH_HINT, -1, NULL, ci, 0, 0,
		(int32_t)visited, md->contig_hint, full_scan);
}

/* pcpu_block_update_hint_alloc: repair the hints after [bit_off, bit_off + bits) was allocated. */
static void update_hint_alloc(struct sim *s, struct pcpu_state *ps, uint32_t ci, int bit_off,
			      int bits, int phase)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	struct pcpu_block_md *md = pcpu_md_blocks(ps, ci), *chunk_md = &c->chunk_md;
	const uint64_t *amap = pcpu_alloc_map(ps, ci);
	struct pcpu_work *w = &ps->work[phase];
	int s_index = bit_off / PCPU_BLOCK_BITS, e_index = (bit_off + bits - 1) / PCPU_BLOCK_BITS;
	int s_off = bit_off % PCPU_BLOCK_BITS, e_off = (bit_off + bits - 1) % PCPU_BLOCK_BITS + 1;
	struct pcpu_block_md *s_block = md + s_index, *e_block = md + e_index;
	int scan = s->profile.percpu_scan_hint;

	w->blocks_visited++;
	if (s_off == s_block->first_free)
		s_block->first_free = next_zero_bit(amap + (size_t)s_index * (PCPU_BLOCK_BITS / 64),
						    PCPU_BLOCK_BITS, s_off + bits,
						    &w->words_scanned);
	if (scan && overlap(s_block->scan_hint_start, s_block->scan_hint_start + s_block->scan_hint,
			    s_off, s_off + bits))
		s_block->scan_hint = 0;
	if (overlap(s_block->contig_hint_start, s_block->contig_hint_start + s_block->contig_hint,
		    s_off, s_off + bits) &&
	    (scan || s_off >= s_block->contig_hint_start)) {
		/* the block's contig hint is broken: rescan it */
		if (scan && !s_off)
			s_block->left_free = 0;
		block_refresh(s, ps, ci, s_index, phase);
	} else {
		if (s_off < s_block->left_free)
			s_block->left_free = s_off;
		if (s_index == e_index) {
			if (PCPU_BLOCK_BITS - e_off < s_block->right_free)
				s_block->right_free = PCPU_BLOCK_BITS - e_off;
		} else {
			s_block->right_free = 0;
		}
	}
	if (s_index != e_index) {
		w->blocks_visited++;
		e_block->first_free = next_zero_bit(amap + (size_t)e_index * (PCPU_BLOCK_BITS / 64),
						    PCPU_BLOCK_BITS, e_off, &w->words_scanned);
		if (e_off == PCPU_BLOCK_BITS) {
			e_block++; /* wholly used: reset with the blocks in between */
		} else {
			if (scan && e_off > e_block->scan_hint_start)
				e_block->scan_hint = 0;
			if (scan)
				e_block->left_free = 0;
			if (e_off > e_block->contig_hint_start) {
				block_refresh(s, ps, ci, e_index, phase);
			} else {
				if (!scan)
					e_block->left_free = 0;
				if (PCPU_BLOCK_BITS - e_off < e_block->right_free)
					e_block->right_free = PCPU_BLOCK_BITS - e_off;
			}
		}
		for (struct pcpu_block_md *b = s_block + 1; b < e_block; b++) {
			w->blocks_visited++;
			b->scan_hint = 0;
			b->contig_hint = 0;
			b->left_free = 0;
			b->right_free = 0;
		}
	}
	if (scan &&
	    overlap(chunk_md->scan_hint_start, chunk_md->scan_hint_start + chunk_md->scan_hint,
		    bit_off, bit_off + bits))
		chunk_md->scan_hint = 0;
	/* the only time a chunk walk is needed: the allocation broke the chunk's contig hint */
	if (scan ? overlap(chunk_md->contig_hint_start,
			   chunk_md->contig_hint_start + chunk_md->contig_hint, bit_off,
			   bit_off + bits) :
		   (bit_off >= chunk_md->contig_hint_start &&
		    bit_off < chunk_md->contig_hint_start + chunk_md->contig_hint))
		chunk_refresh(s, ps, ci, 0, phase);
}

void pcpu_bitmap_init(struct sim *s, struct pcpu_state *ps, uint32_t ci)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	struct pcpu_block_md *md = pcpu_md_blocks(ps, ci);
	uint64_t *amap = pcpu_alloc_map(ps, ci), *bmap = pcpu_bound_map(ps, ci);
	int map_bits = pcpu_chunk_map_bits(c);

	for (uint32_t i = 0; i < c->nr_pages; i++)
		md[i] = (struct pcpu_block_md){ .contig_hint = PCPU_BLOCK_BITS,
						.left_free = PCPU_BLOCK_BITS,
						.right_free = PCPU_BLOCK_BITS,
						.nr_bits = PCPU_BLOCK_BITS };
	c->chunk_md = (struct pcpu_block_md){ .contig_hint = map_bits,
					      .left_free = map_bits,
					      .right_free = map_bits,
					      .nr_bits = map_bits };
	/* the first chunk hides its head and tail: pre-allocated bits with their bounds */
	if (c->start_offset) {
		int off_bits = c->start_offset / PCPU_MIN_ALLOC_SIZE;

		bits_assign(amap, 0, off_bits, 1);
		bits_assign(bmap, 0, 1, 1);
		bits_assign(bmap, off_bits, 1, 1);
		c->chunk_md.first_free = off_bits;
		update_hint_alloc(s, ps, ci, 0, off_bits, PCPU_PHASE_BALANCE);
		pcpu_account_pages(ps, ci, 0, c->start_offset, 1);
	}
	if (c->end_offset) {
		int off_bits = c->end_offset / PCPU_MIN_ALLOC_SIZE;

		bits_assign(amap, map_bits - off_bits, off_bits, 1);
		bits_assign(bmap, map_bits - off_bits, 1, 1);
		bits_assign(bmap, map_bits, 1, 1);
		update_hint_alloc(s, ps, ci, map_bits - off_bits, off_bits, PCPU_PHASE_BALANCE);
		pcpu_account_pages(ps, ci, map_bits * PCPU_MIN_ALLOC_SIZE - c->end_offset,
				   c->end_offset, 1);
	}
}

/* pcpu_is_populated: whether [bit_off, bit_off + bits) is on populated pages; else *next_off. */
static int is_populated(struct pcpu_state *ps, uint32_t ci, int bit_off, int bits, int *next_off)
{
	int page_start = bit_off * PCPU_MIN_ALLOC_SIZE / PCPU_PAGE_SIZE;
	int page_end =
		((bit_off + bits) * PCPU_MIN_ALLOC_SIZE + PCPU_PAGE_SIZE - 1) / PCPU_PAGE_SIZE;
	int rs = page_start, re;

	while (rs < page_end && pcpu_page_populated(ps, ci, (uint32_t)rs))
		rs++;
	if (rs >= page_end)
		return 1;
	re = rs + 1;
	while (re < page_end && !pcpu_page_populated(ps, ci, (uint32_t)re))
		re++;
	*next_off = re * PCPU_PAGE_SIZE / PCPU_MIN_ALLOC_SIZE;
	return 0;
}

/* pcpu_next_hint (5.1+): start after the scan hint when it lies before the contig hint and is too small. */
static int next_hint(const struct pcpu_block_md *block, int alloc_bits)
{
	if (block->scan_hint && block->contig_hint_start > block->scan_hint_start &&
	    alloc_bits > block->scan_hint)
		return block->scan_hint_start + block->scan_hint;
	return block->first_free;
}

/* pcpu_next_fit_region: the next place the block hints say alloc_bits at align may fit. */
static void next_fit_region(const struct sim *s, struct pcpu_state *ps, uint32_t ci, int alloc_bits,
			    int align, int *bit_off, int *bits, uint64_t *visited)
{
	const struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	struct pcpu_block_md *md = pcpu_md_blocks(ps, ci);
	int i = *bit_off / PCPU_BLOCK_BITS, block_off = *bit_off % PCPU_BLOCK_BITS;
	int scan = s->profile.percpu_scan_hint;

	*bits = 0;
	for (; i < (int)c->nr_pages; i++) {
		struct pcpu_block_md *block = md + i;

		(*visited)++;
		/* a run across the block boundary (4.14 also starts a run at the first block's left) */
		if (*bits || !scan) {
			*bits += block->left_free;
			if (*bits >= alloc_bits)
				return;
			if (block->left_free == PCPU_BLOCK_BITS)
				continue;
		}
		*bits = align_up(block->contig_hint_start, align) - block->contig_hint_start;
		if (block->contig_hint && block->contig_hint_start >= block_off &&
		    block->contig_hint >= *bits + alloc_bits) {
			int start = scan ? next_hint(block, alloc_bits) : block->first_free;

			*bits += alloc_bits + block->contig_hint_start - start;
			*bit_off = i * PCPU_BLOCK_BITS + start;
			return;
		}
		block_off = 0;
		*bit_off = align_up(PCPU_BLOCK_BITS - block->right_free, align);
		*bits = PCPU_BLOCK_BITS - *bit_off;
		*bit_off = i * PCPU_BLOCK_BITS + *bit_off;
		if (*bits >= alloc_bits)
			return;
	}
	*bit_off = pcpu_chunk_map_bits(c);
}

int pcpu_find_block_fit(struct sim *s, struct pcpu_state *ps, uint32_t ci, int alloc_bits,
			int align, int pop_only, int phase)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	struct pcpu_block_md *md = &c->chunk_md;
	int map_bits = pcpu_chunk_map_bits(c), bit_off, bits, next_off = 0;
	uint64_t visited = 0;

	/* the chunk hint cannot hold it: memory pressure, a new chunk comes soon anyway */
	if (align_up(md->contig_hint_start, align) - md->contig_hint_start + alloc_bits >
	    md->contig_hint)
		return -1;
	bit_off = s->profile.percpu_scan_hint ? next_hint(md, alloc_bits) : md->first_free;
	for (int guard = 0; guard <= map_bits; guard++) {
		next_fit_region(s, ps, ci, alloc_bits, align, &bit_off, &bits, &visited);
		if (bit_off >= map_bits)
			break;
		if (!pop_only || is_populated(ps, ci, bit_off, bits, &next_off))
			break;
		bit_off = next_off;
	}
	ps->work[phase].blocks_visited += visited;
	return bit_off >= map_bits ? -1 : bit_off;
}

/*
 * pcpu_find_zero_area (5.1+) / bitmap_find_next_zero_area (4.14): the first aligned run of nr
 * clear bits in [start, size); 5.1+ remembers the largest run it skipped (ties: better aligned).
 */
static int find_zero_area(const uint64_t *map, int size, int start, int nr, int align,
			  int *largest_off, int *largest_bits, uint64_t *words)
{
	for (int guard = 0; guard <= size; guard++) {
		int index = next_zero_bit(map, size, start, words), end, i;

		index = align_up(index, align);
		end = index + nr;
		if (end > size)
			return end;
		i = next_bit(map, end, index, words);
		if (i < end) {
			int area_bits = i - index;

			if (area_bits > *largest_bits ||
			    (area_bits == *largest_bits && *largest_off &&
			     (!index || ffs0(index) > ffs0(*largest_off)))) {
				*largest_off = index;
				*largest_bits = area_bits;
			}
			start = i + 1;
			continue;
		}
		return index;
	}
	return size;
}

int pcpu_bitmap_alloc(struct sim *s, struct pcpu_state *ps, uint32_t ci, int alloc_bits, int align,
		      int start, int cpu)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	struct pcpu_work *w = &ps->work[PCPU_PHASE_ALLOC];
	uint64_t *amap = pcpu_alloc_map(ps, ci), *bmap = pcpu_bound_map(ps, ci);
	int map_bits = pcpu_chunk_map_bits(c), oslot = pcpu_chunk_slot(s, ps, c);
	int end = start + alloc_bits + PCPU_BLOCK_BITS, bit_off;
	int area_off = 0, area_bits = 0;
	uint64_t words0 = w->words_scanned, visited0 = w->blocks_visited;

	if (s->profile.percpu_scan_hint && end > map_bits)
		end = map_bits; /* 5.1+ caps the window at the map's end */
	if (end > map_bits)
		end = map_bits; /* 4.14 reads past it only into bound bits that are set */
	bit_off = find_zero_area(amap, end, start, alloc_bits, align, &area_off, &area_bits,
				 &w->words_scanned);
	if (bit_off >= end)
		return -1;
	if (s->profile.percpu_scan_hint && area_bits) {
		/* pcpu_block_update_scan: feed the skipped run back, with bits lost to alignment */
		int s_off = area_off % PCPU_BLOCK_BITS, e_off = s_off + area_bits;

		if (e_off <= PCPU_BLOCK_BITS) {
			int s_index = area_off / PCPU_BLOCK_BITS;
			int l_bit = last_bit(amap + (size_t)s_index * (PCPU_BLOCK_BITS / 64), s_off,
					     &w->words_scanned);

			s_off = (s_off == l_bit) ? 0 : l_bit + 1;
			block_update(s, pcpu_md_blocks(ps, ci) + s_index, s_off, e_off);
		}
	}
	bits_assign(amap, bit_off, alloc_bits, 1);
	bits_assign(bmap, bit_off, 1, 1);
	bits_assign(bmap, bit_off + 1, alloc_bits - 1, 0);
	bits_assign(bmap, bit_off + alloc_bits, 1, 1);
	c->free_bytes -= alloc_bits * PCPU_MIN_ALLOC_SIZE;
	if (bit_off == c->chunk_md.first_free)
		c->chunk_md.first_free =
			next_zero_bit(amap, map_bits, bit_off + alloc_bits, &w->words_scanned);
	update_hint_alloc(s, ps, ci, bit_off, alloc_bits, PCPU_PHASE_ALLOC);
	pcpu_account_pages(ps, ci, bit_off * PCPU_MIN_ALLOC_SIZE, alloc_bits * PCPU_MIN_ALLOC_SIZE,
			   1);
	ev_emit(s, EV_PERCPU_BLOCK_FIT, FN_PCPU_FIND_BLOCK_FIT, cpu, NULL, ci, 0, 0, bit_off,
		(int32_t)(w->blocks_visited - visited0), (int32_t)(w->words_scanned - words0));
	pcpu_chunk_relocate(s, ps, ci, oslot, cpu, PCPU_PHASE_ALLOC);
	return bit_off * PCPU_MIN_ALLOC_SIZE;
}

/* pcpu_block_update_hint_free: repair the hints after [bit_off, bit_off + bits) was freed. */
static void update_hint_free(struct sim *s, struct pcpu_state *ps, uint32_t ci, int bit_off,
			     int bits, int cpu)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	struct pcpu_block_md *md = pcpu_md_blocks(ps, ci);
	const uint64_t *amap = pcpu_alloc_map(ps, ci);
	struct pcpu_work *w = &ps->work[PCPU_PHASE_FREE];
	int s_index = bit_off / PCPU_BLOCK_BITS, e_index = (bit_off + bits - 1) / PCPU_BLOCK_BITS;
	int s_off = bit_off % PCPU_BLOCK_BITS, e_off = (bit_off + bits - 1) % PCPU_BLOCK_BITS + 1;
	struct pcpu_block_md *s_block = md + s_index, *e_block = md + e_index;
	int start, end;

	w->blocks_visited++;
	/* the whole free run: from the contig hint when adjacent, else by scanning the block */
	start = s_off;
	if (s_off == s_block->contig_hint + s_block->contig_hint_start) {
		start = s_block->contig_hint_start;
	} else {
		int l_bit = last_bit(amap + (size_t)s_index * (PCPU_BLOCK_BITS / 64), start,
				     &w->words_scanned);
		start = (start == l_bit) ? 0 : l_bit + 1;
	}
	end = e_off;
	if (e_off == e_block->contig_hint_start)
		end = e_block->contig_hint_start + e_block->contig_hint;
	else
		end = next_bit(amap + (size_t)e_index * (PCPU_BLOCK_BITS / 64), PCPU_BLOCK_BITS,
			       end, &w->words_scanned);
	block_update(s, s_block, start, s_index == e_index ? end : PCPU_BLOCK_BITS);
	if (s_index != e_index) {
		w->blocks_visited++;
		block_update(s, e_block, 0, end);
		for (struct pcpu_block_md *b = s_block + 1; b < e_block; b++) {
			w->blocks_visited++;
			*b = (struct pcpu_block_md){ .contig_hint = PCPU_BLOCK_BITS,
						     .left_free = PCPU_BLOCK_BITS,
						     .right_free = PCPU_BLOCK_BITS,
						     .nr_bits = PCPU_BLOCK_BITS };
		}
	}
	/* the chunk: refreshed when the run fills a block or spans blocks, else offered the run */
	if (s->profile.percpu_free_hint_rule == PCPU_FREE_HINT_BLOCK_CONTIG) {
		int page_bits = PCPU_BLOCK_BITS;

		if ((end / page_bits * page_bits) > align_up(start, page_bits) ||
		    s_index != e_index) {
			chunk_refresh(s, ps, ci, 1, PCPU_PHASE_FREE);
		} else {
			int before = c->chunk_md.contig_hint;

			chunk_update_4_14(&c->chunk_md, s_index * PCPU_BLOCK_BITS + start,
					  s_block->contig_hint);
			if (c->chunk_md.contig_hint == before)
				ev_emit(s, EV_PERCPU_HINT_KEPT, FN_PCPU_BLOCK_UPDATE_HINT_FREE, cpu,
					NULL, ci, 0, 0, end - start, before, 0);
		}
	} else {
		if (end - start >= PCPU_BLOCK_BITS || s_index != e_index) {
			chunk_refresh(s, ps, ci, 1, PCPU_PHASE_FREE);
		} else {
			int before = c->chunk_md.contig_hint;

			/* end stays block-relative, as the kernel passes it */
			block_update(s, &c->chunk_md, s_index * PCPU_BLOCK_BITS + start, end);
			if (c->chunk_md.contig_hint == before)
				ev_emit(s, EV_PERCPU_HINT_KEPT, FN_PCPU_BLOCK_UPDATE_HINT_FREE, cpu,
					NULL, ci, 0, 0, end - start, before, 0);
		}
	}
}

int pcpu_bitmap_free(struct sim *s, struct pcpu_state *ps, uint32_t ci, int off, int cpu)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	struct pcpu_work *w = &ps->work[PCPU_PHASE_FREE];
	uint64_t *amap = pcpu_alloc_map(ps, ci), *bmap = pcpu_bound_map(ps, ci);
	int map_bits = pcpu_chunk_map_bits(c), oslot = pcpu_chunk_slot(s, ps, c);
	int bit_off = off / PCPU_MIN_ALLOC_SIZE, end, bits;

	if (off % PCPU_MIN_ALLOC_SIZE || bit_off >= map_bits || !bit_test(bmap, bit_off) ||
	    !bit_test(amap, bit_off))
		return -1;
	end = next_bit(bmap, map_bits, bit_off + 1, &w->words_scanned);
	bits = end - bit_off;
	bits_assign(amap, bit_off, bits, 0);
	c->free_bytes += bits * PCPU_MIN_ALLOC_SIZE;
	if (bit_off < c->chunk_md.first_free)
		c->chunk_md.first_free = bit_off;
	pcpu_account_pages(ps, ci, off, bits * PCPU_MIN_ALLOC_SIZE, -1);
	update_hint_free(s, ps, ci, bit_off, bits, cpu);
	pcpu_chunk_relocate(s, ps, ci, oslot, cpu, PCPU_PHASE_FREE);
	return bits * PCPU_MIN_ALLOC_SIZE;
}

int pcpu_chunk_empty(struct sim *s, struct pcpu_state *ps, uint32_t ci)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);

	(void)s;
	return c->free_bytes == (int32_t)ps->unit_size;
}
