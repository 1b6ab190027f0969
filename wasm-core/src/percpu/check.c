/*
 * check.c: the percpu allocator's part of sim_check, in the spirit of the kernel's
 * pcpu_dump_alloc_info and the bitmap self-checks: every chunk's bitmaps, boundary bits, block
 * and chunk hints, area maps, populated pages and the counters derived from them, against a
 * recount from the bits themselves. Where the kernel lets a hint go stale on purpose, the check
 * allows exactly that and no more:
 *   - a block's first_free may lie below its true first free bit (blocks a crossing allocation
 *     fills keep theirs), never above it;
 *   - 5.1+: a block's contig_hint, left_free and right_free may lie below the truth (a refresh
 *     promotes the scan hint and scans only after it, and the scan hint is only the largest run
 *     fed to it since the last one was broken; a promoted hint that ends the block leaves
 *     right_free 0), never above it, and the contig hint always names a real run;
 *   - the chunk's contig hint may be below the largest free run (the free path repairs it only
 *     when a whole block frees or the run spans blocks), never above it; 4.14 may be above it
 *     too and name a start that begins no such run (its free path pairs the run's start with
 *     the block's hint, fixed in 5.1, so a later allocation into the real run can leave it);
 *   - the area map's contig_hint may be above the largest free area (it is "at least").
 */
#include "base/state.h"
#include "percpu/percpu.h"

/* Record why the state is wrong; returns SIM_ECORRUPT. */
static int fail(struct sim *s, const char *what, uint32_t ci, int64_t a, int64_t b)
{
	struct textbuf tb;

	tb_init(&tb, s->error, sizeof s->error);
	tb_str(&tb, "percpu: ");
	tb_str(&tb, what);
	tb_str(&tb, " (chunk ");
	tb_int(&tb, ci, 0);
	tb_str(&tb, ": ");
	tb_int(&tb, a, 0);
	tb_str(&tb, " vs ");
	tb_int(&tb, b, 0);
	tb_char(&tb, ')');
	tb_finish(&tb);
	return SIM_ECORRUPT;
}

/* Bit b of map. */
static int bit(const uint64_t *map, int b)
{
	return (int)((map[b / 64] >> (b % 64)) & 1);
}

/* The true hints of bits [0, n) of map from the bits (free runs). */
struct truth {
	int first_free, left, right, contig;
};

static struct truth recount(const uint64_t *map, int from, int n)
{
	struct truth t = { n, 0, 0, 0 };
	int run = 0, i = 0;

	/* word at a time where the range is word-aligned (blocks are 1024 bits, chunks whole blocks) */
	while (i < n) {
		if ((from + i) % 64 == 0 && i + 64 <= n) {
			uint64_t w = map[(from + i) / 64];

			if (w == 0) {
				if (t.first_free == n)
					t.first_free = i;
				run += 64;
				if (run > t.contig)
					t.contig = run;
				i += 64;
				continue;
			}
			if (w == ~0ull) {
				run = 0;
				i += 64;
				continue;
			}
		}
		if (!bit(map, from + i)) {
			if (t.first_free == n)
				t.first_free = i;
			run++;
			if (run > t.contig)
				t.contig = run;
		} else {
			run = 0;
		}
		i++;
	}
	t.right = run;
	while (t.left < n && !bit(map, from + t.left))
		t.left++;
	return t;
}

/* Set bits in [from, from + n) (word-aligned from, n a multiple of 64 or the tail done by bits). */
static int count_set(const uint64_t *map, int from, int n)
{
	int c = 0, i = 0;

	for (; i < n && (from + i) % 64; i++)
		c += bit(map, from + i);
	for (; i + 64 <= n; i += 64)
		c += __builtin_popcountll(map[(from + i) / 64]);
	for (; i < n; i++)
		c += bit(map, from + i);
	return c;
}

/* Free bits from b onward (at most n). */
static int run_at(const uint64_t *map, int b, int n)
{
	int r = 0;

	while (b + r < n && !bit(map, b + r))
		r++;
	return r;
}

/* One bitmap chunk: bits, bounds, block hints, chunk hint, page accounting. */
static int check_bitmap_chunk(struct sim *s, struct pcpu_state *ps, uint32_t ci)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	const uint64_t *amap = pcpu_alloc_map(ps, ci);
	const struct pcpu_block_md *md = pcpu_md_blocks(ps, ci);
	int map_bits = pcpu_chunk_map_bits(c), zeros = 0, scan = s->profile.percpu_scan_hint;
	struct truth whole = recount(amap, 0, map_bits);

	zeros = map_bits - count_set(amap, 0, map_bits);
	if (c->free_bytes != zeros * PCPU_MIN_ALLOC_SIZE)
		return fail(s, "free_bytes differs from the alloc_map", ci, c->free_bytes,
			    zeros * PCPU_MIN_ALLOC_SIZE);
	for (uint32_t b = 0; b < c->nr_pages; b++) {
		struct truth t = recount(amap, (int)b * PCPU_BLOCK_BITS, PCPU_BLOCK_BITS);
		const struct pcpu_block_md *m = md + b;
		const uint64_t *bm = amap;
		int base = (int)b * PCPU_BLOCK_BITS;

		/* 5.1+ may under-estimate: a promoted scan hint skips runs nobody recorded */
		if (scan ? m->contig_hint > t.contig : m->contig_hint != t.contig)
			return fail(s, "a block's contig_hint is not its largest free run", ci,
				    m->contig_hint, t.contig);
		if (m->contig_hint && run_at(bm, base + m->contig_hint_start,
					     base + PCPU_BLOCK_BITS) < m->contig_hint)
			return fail(s, "a block's contig_hint_start begins no run that long", ci,
				    m->contig_hint_start, m->contig_hint);
		if (scan ? m->left_free > t.left : m->left_free != t.left)
			return fail(s, "a block's left_free differs from its bits", ci,
				    m->left_free, t.left);
		/* 5.1+: a refresh that promotes a scan hint ending the block leaves right_free 0 */
		if (scan ? m->right_free > t.right : m->right_free != t.right)
			return fail(s, "a block's right_free differs from its bits", ci,
				    m->right_free, t.right);
		if (m->first_free > t.first_free)
			return fail(s, "a block's first_free is past a free bit", ci, m->first_free,
				    t.first_free);
		if (m->scan_hint) {
			if (!s->profile.percpu_scan_hint)
				return fail(s, "a scan_hint before 5.1", ci, m->scan_hint, 0);
			if (run_at(bm, base + m->scan_hint_start, base + PCPU_BLOCK_BITS) <
			    m->scan_hint)
				return fail(s, "a block's scan_hint names bits in use", ci,
					    m->scan_hint_start, m->scan_hint);
			if (m->scan_hint_start > m->contig_hint_start &&
			    m->scan_hint != m->contig_hint)
				return fail(s, "a block's scan_hint lies past its contig_hint", ci,
					    m->scan_hint_start, m->contig_hint_start);
		}
		/* bytes used per page: what nr_empty_pop_pages is counted from */
		{
			int used = count_set(amap, base, PCPU_BLOCK_BITS);
			if (pcpu_pages_used(ps, ci)[b] != used * PCPU_MIN_ALLOC_SIZE)
				return fail(s, "a page's used bytes differ from its bits", ci,
					    pcpu_pages_used(ps, ci)[b], used * PCPU_MIN_ALLOC_SIZE);
		}
	}
	/*
	 * 4.14's free path pairs a run's start with the block's hint, so a later allocation into
	 * the real run need not break the chunk hint: only 5.1+ promise never to over-estimate
	 */
	if (s->profile.percpu_free_hint_rule != PCPU_FREE_HINT_BLOCK_CONTIG &&
	    c->chunk_md.contig_hint > whole.contig)
		return fail(s, "the chunk's contig hint is above its largest free run", ci,
			    c->chunk_md.contig_hint, whole.contig);
	if (s->profile.percpu_scan_hint && c->chunk_md.contig_hint &&
	    run_at(amap, c->chunk_md.contig_hint_start, map_bits) < c->chunk_md.contig_hint)
		return fail(s, "the chunk's contig_hint_start begins no run that long", ci,
			    c->chunk_md.contig_hint_start, c->chunk_md.contig_hint);
	if (c->chunk_md.first_free > whole.first_free)
		return fail(s, "the chunk's first free bit is past a free bit", ci,
			    c->chunk_md.first_free, whole.first_free);
	return SIM_OK;
}

/* One area-map chunk: sorted entries, sentinel, merged free areas, counters. */
static int check_area_map_chunk(struct sim *s, struct pcpu_state *ps, uint32_t ci)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	int32_t prev = -1, free_sum = 0, largest = 0;
	int prev_free = 0, first_free_idx = -1;
	uint32_t size = c->nr_pages * PCPU_PAGE_SIZE;

	if (c->map_used < 1 || c->map_used + 1 + (int32_t)c->gap_len != c->map_alloc ||
	    c->gap_start > (uint32_t)c->map_used + 1)
		return fail(s, "the map's gap buffer is inconsistent", ci, c->map_used,
			    c->map_alloc);
	if (pcpu_map_get(ps, c, 0) & ~1)
		return fail(s, "map[0] is not offset 0", ci, pcpu_map_get(ps, c, 0), 0);
	if (!c->immutable && (pcpu_map_get(ps, c, (uint32_t)c->map_used) & ~1) != (int32_t)size)
		return fail(s, "the sentinel is not the unit's end", ci,
			    pcpu_map_get(ps, c, (uint32_t)c->map_used), size);
	if (!(pcpu_map_get(ps, c, (uint32_t)c->map_used) & 1))
		return fail(s, "the sentinel lacks its in-use bit", ci, c->map_used, 0);
	for (int i = 0; i < c->map_used; i++) {
		int32_t e = pcpu_map_get(ps, c, (uint32_t)i), off = e & ~1;
		int32_t len = (pcpu_map_get(ps, c, (uint32_t)i + 1) & ~1) - off;

		if (off <= prev || len <= 0)
			return fail(s, "map[] is not strictly increasing", ci, i, off);
		prev = off;
		if (!(e & 1)) {
			if (prev_free)
				return fail(s, "two free areas side by side (not merged)", ci, i,
					    off);
			if (first_free_idx < 0)
				first_free_idx = i;
			free_sum += len;
			if (len > largest)
				largest = len;
		}
		prev_free = !(e & 1);
	}
	if (c->free_bytes != free_sum)
		return fail(s, "free_size differs from the map's free areas", ci, c->free_bytes,
			    free_sum);
	if (c->contig_hint < largest)
		return fail(s, "contig_hint is below the largest free area", ci, c->contig_hint,
			    largest);
	if (first_free_idx >= 0 && c->first_free > first_free_idx)
		return fail(s, "first_free is past the first free area", ci, c->first_free,
			    first_free_idx);
	/* bytes used per page from the in-use areas: one sweep, areas and pages both in order */
	for (uint32_t p = 0, first = 0; p < c->nr_pages; p++) {
		int32_t lo = (int32_t)p * PCPU_PAGE_SIZE, hi = lo + PCPU_PAGE_SIZE, sum = 0;

		while ((int)first < c->map_used && (pcpu_map_get(ps, c, first + 1) & ~1) <= lo)
			first++;
		for (int i = (int)first; i < c->map_used; i++) {
			int32_t e = pcpu_map_get(ps, c, (uint32_t)i), a = e & ~1;
			int32_t b = pcpu_map_get(ps, c, (uint32_t)i + 1) & ~1;

			if (a >= hi)
				break;
			if (e & 1)
				sum += (b < hi ? b : hi) - (a > lo ? a : lo);
		}
		if (pcpu_pages_used(ps, ci)[p] != sum)
			return fail(s, "a page's used bytes differ from the map", ci,
				    pcpu_pages_used(ps, ci)[p], sum);
	}
	return SIM_OK;
}

int percpu_check(struct sim *s)
{
	struct pcpu_state *ps = pcpu_state(s);
	int32_t empty_global = 0;
	uint32_t populated_global, on_lists = 0, in_use = 0;

	if (!ps)
		return SIM_OK;
	populated_global = ps->size_sum / PCPU_PAGE_SIZE;
	for (uint32_t ci = 0; ci < ps->max_chunks; ci++) {
		struct pcpu_chunk *c = pcpu_chunk(ps, ci);
		int32_t empty = 0;
		uint32_t pop = 0;
		int err;

		if (!c->in_use)
			continue;
		in_use++;
		err = s->profile.percpu_allocator == PCPU_AREA_MAP ?
			      check_area_map_chunk(s, ps, ci) :
			      check_bitmap_chunk(s, ps, ci);
		if (err)
			return err;
		for (uint32_t p = 0; p < c->nr_pages; p++) {
			int populated = pcpu_page_populated(ps, ci, p);

			pop += (uint32_t)populated;
			empty += populated && pcpu_pages_used(ps, ci)[p] == 0;
			for (uint32_t u = 0; !c->immutable && u < s->nr_cpus; u++) {
				uint32_t pfn = pcpu_pfns(ps, ci)[(size_t)p * s->nr_cpus + u];
				int zi;

				if (!populated) {
					if (pfn != PFN_NONE)
						return fail(s, "an unpopulated page holds a frame",
							    ci, p, pfn);
					continue;
				}
				zi = pfn_to_zone_index(s, pfn);
				if (zi < 0 || frame_at(s, pfn)->state != PG_ALLOCATED)
					return fail(s, "a populated page's frame is not allocated",
						    ci, p, pfn);
				if (!(frame_at(s, pfn)->flags & PAGEF_OWNED))
					return fail(s,
						    "a populated page's frame is not marked owned",
						    ci, p, pfn);
			}
		}
		if (pop != c->nr_populated)
			return fail(s, "nr_populated differs from the populated bitmap", ci,
				    c->nr_populated, pop);
		if (empty != c->nr_empty_pop_pages)
			return fail(s, "nr_empty_pop_pages differs from the pages", ci,
				    c->nr_empty_pop_pages, empty);
		if (!c->reserved && !c->isolated)
			empty_global += empty;
		if (!c->immutable)
			populated_global += pop;
	}
	if (empty_global != ps->nr_empty_pop_pages)
		return fail(s, "pcpu_nr_empty_pop_pages differs from the chunks", 0,
			    ps->nr_empty_pop_pages, empty_global);
	if (populated_global != ps->nr_populated)
		return fail(s, "pcpu_nr_populated differs from the chunks", 0, ps->nr_populated,
			    populated_global);
	if (in_use != ps->nr_chunks + (ps->reserved_chunk != PCPU_NONE))
		return fail(s, "nr_chunks differs from the table", 0, ps->nr_chunks, in_use);
	/* slot lists: every chunk but the reserved one on exactly the list it belongs to */
	for (uint32_t slot = 0; slot < ps->nr_slots; slot++) {
		uint32_t prev = PCPU_NONE, n = 0;

		for (uint32_t ci = ps->slot_head[slot]; ci != PCPU_NONE;
		     ci = pcpu_chunk(ps, ci)->next) {
			struct pcpu_chunk *c = pcpu_chunk(ps, ci);
			int want;

			if (ci >= ps->max_chunks || !c->in_use || ++n > ps->max_chunks)
				return fail(s, "a slot list is broken", ci, slot, n);
			if (c->prev != prev || c->slot != slot)
				return fail(s, "a slot list's links disagree", ci, c->prev, prev);
			want = pcpu_chunk_slot(s, ps, c);
			if ((int)slot != want && !(slot == 0 && s->profile.percpu_slot_by_contig) &&
			    !(slot == ps->sidelined_slot) &&
			    !(slot == ps->to_depopulate_slot && c->isolated))
				return fail(s, "a chunk sits on the wrong slot", ci, slot, want);
			prev = ci;
			on_lists++;
		}
		if (ps->slot_tail[slot] != prev)
			return fail(s, "a slot list's tail is wrong", prev, slot,
				    ps->slot_tail[slot]);
	}
	if (on_lists != ps->nr_chunks)
		return fail(s, "chunks missing from the slot lists", 0, on_lists, ps->nr_chunks);
	/* handles name live areas */
	for (uint32_t h = 0; h < s->config.percpu_handles; h++) {
		const struct pcpu_handle *hd = &pcpu_handles(ps)[h];
		struct pcpu_chunk *c;

		if (hd->chunk == PCPU_NONE)
			continue;
		if (hd->chunk >= ps->max_chunks || !(c = pcpu_chunk(ps, hd->chunk))->in_use)
			return fail(s, "a handle names no chunk", hd->chunk, h, 0);
		if (s->profile.percpu_allocator == PCPU_AREA_MAP) {
			uint32_t lo = 0, hi = (uint32_t)c->map_used;
			int found = 0;

			while (lo < hi) {
				uint32_t k = (lo + hi) / 2;
				int32_t e = pcpu_map_get(ps, c, k);

				if ((e & ~1) == hd->off) {
					found = e & 1;
					break;
				}
				if ((e & ~1) < hd->off)
					lo = k + 1;
				else
					hi = k;
			}
			if (!found)
				return fail(s, "a handle's area is not in use in the map",
					    hd->chunk, h, hd->off);
		} else {
			int b = hd->off / PCPU_MIN_ALLOC_SIZE, n = hd->size / PCPU_MIN_ALLOC_SIZE;
			const uint64_t *amap = pcpu_alloc_map(ps, hd->chunk);
			const uint64_t *bmap = pcpu_bound_map(ps, hd->chunk);

			if (!bit(bmap, b) || !bit(bmap, b + n))
				return fail(s, "a live area's boundary bits are missing", hd->chunk,
					    h, hd->off);
			for (int i = 0; i < n; i++)
				if (!bit(amap, b + i) || (i && bit(bmap, b + i)))
					return fail(s, "a live area's bits are wrong", hd->chunk, h,
						    b + i);
		}
	}
	return SIM_OK;
}

uint64_t percpu_owned_pages(const struct sim *s)
{
	struct pcpu_state *ps = pcpu_state(s);
	uint64_t held = 0;

	for (uint32_t ci = 0; ps && ci < ps->max_chunks; ci++) {
		const struct pcpu_chunk *c = pcpu_chunk(ps, ci);

		/* the first chunk's memory came with the kernel image, not from the page allocator */
		if (!c->in_use || c->immutable)
			continue;
		for (uint32_t p = 0; p < c->nr_pages; p++)
			for (uint32_t u = 0; u < s->nr_cpus; u++)
				held += pcpu_pfns(ps, ci)[(size_t)p * s->nr_cpus + u] != PFN_NONE;
	}
	return held;
}
