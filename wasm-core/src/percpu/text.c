/*
 * text.c: the percpu allocator as the kernel prints it: the boot line of pcpu_embed_first_chunk
 * (mm/percpu.c), /sys/kernel/debug/percpu_stats (mm/percpu-stats.c, CONFIG_PERCPU_STATS) and the
 * Percpu: line of /proc/meminfo (fs/proc/meminfo.c, pcpu_nr_pages()).
 *
 * percpu_stats lines are "  %-20s: %12lld". Per chunk, the kernel walks the bitmaps from
 * start_offset to the last allocated bit, reading an allocation's size from bound_map and a free
 * fragment's from alloc_map; it sorts the signed sizes to sum the fragments and pick the
 * smallest, median and largest allocation. The model finds the same three without a buffer:
 * the median by counting (a binary search over sizes), since the core allocates nothing after
 * init. For the area map (4.13) the same walk reads map[] instead (docs/model-notes.md).
 */
#include "base/textbuf.h"
#include "percpu/percpu.h"

/* Walks a chunk's areas in kernel order: *len > 0 an allocation, < 0 a free fragment; 0 at the end. */
struct area_walk {
	struct pcpu_state *ps;
	uint32_t ci;
	int area_map;
	int pos, last; /* bitmap: bits; area map: entry index, map_used */
};

/* Start walking chunk ci. */
static void walk_start(struct area_walk *w, const struct sim *s, struct pcpu_state *ps, uint32_t ci)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);

	w->ps = ps;
	w->ci = ci;
	w->area_map = s->profile.percpu_allocator == PCPU_AREA_MAP;
	if (w->area_map) {
		w->pos = 0;
		w->last = c->map_used;
		/* trailing free space is not a fragment */
		if (w->last > 0 && !(pcpu_map_get(ps, c, (uint32_t)w->last - 1) & 1))
			w->last--;
		return;
	} else {
		const uint64_t *amap = pcpu_alloc_map(ps, ci);
		int last = pcpu_chunk_map_bits(c) - c->end_offset / PCPU_MIN_ALLOC_SIZE - 1;

		/* find_last_bit below last, then one past it (0 when nothing is allocated) */
		while (last >= 0 && !((amap[last / 64] >> (last % 64)) & 1))
			last--;
		w->last = last + 1;
		w->pos = c->start_offset / PCPU_MIN_ALLOC_SIZE;
	}
}

/* The next area's signed byte size, or 0 at the end. */
static int walk_next(struct area_walk *w)
{
	struct pcpu_chunk *c = pcpu_chunk(w->ps, w->ci);

	if (w->pos >= w->last)
		return 0;
	if (w->area_map) {
		int32_t e = pcpu_map_get(w->ps, c, (uint32_t)w->pos);
		int32_t len = (pcpu_map_get(w->ps, c, (uint32_t)w->pos + 1) & ~1) - (e & ~1);

		w->pos++;
		/* the first chunk's static area is in use but is no allocation */
		if (c->immutable && w->pos == 1)
			return walk_next(w);
		return (e & 1) ? len : -len;
	} else {
		const uint64_t *amap = pcpu_alloc_map(w->ps, w->ci);
		const uint64_t *bmap = pcpu_bound_map(w->ps, w->ci);
		int start = w->pos, end = start + 1;
		int used = (int)((amap[start / 64] >> (start % 64)) & 1);
		const uint64_t *m = used ? bmap : amap;

		while (end < w->last && !((m[end / 64] >> (end % 64)) & 1))
			end++;
		w->pos = end;
		return (used ? 1 : -1) * (end - start) * PCPU_MIN_ALLOC_SIZE;
	}
}

/* "  %-20s: %12lld\n" */
static void stat_line(struct textbuf *tb, const char *name, int64_t v)
{
	tb_str(tb, "  ");
	tb_str_left(tb, name, 20);
	tb_str(tb, ": ");
	tb_int(tb, v, 12);
	tb_char(tb, '\n');
}

/* chunk_map_stats: one chunk's block of lines. */
static void chunk_stats(const struct sim *s, struct pcpu_state *ps, uint32_t ci, struct textbuf *tb)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	struct area_walk w;
	int64_t sum_frag = 0, max_frag = 0, n_alloc = 0, nfrag = 0;
	int min_alloc = 0, max_alloc = 0, med = 0, v;
	int64_t first_bit, contig_bytes;

	walk_start(&w, s, ps, ci);
	while ((v = walk_next(&w)) != 0) {
		if (v < 0) {
			sum_frag -= v;
			nfrag++;
			if (-v > max_frag)
				max_frag = -v;
		} else {
			n_alloc++;
			if (!min_alloc || v < min_alloc)
				min_alloc = v;
			if (v > max_alloc)
				max_alloc = v;
		}
	}
	if (n_alloc) {
		/* sorted[(i + len - 1) / 2] with i fragments first: the k-th smallest allocation */
		int64_t k = (nfrag + nfrag + n_alloc - 1) / 2 - nfrag;
		int lo = min_alloc, hi = max_alloc;

		while (lo < hi) {
			int mid = lo + (hi - lo) / 2;
			int64_t le = 0;

			walk_start(&w, s, ps, ci);
			while ((v = walk_next(&w)) != 0)
				le += v > 0 && v <= mid;
			if (le > k)
				hi = mid;
			else
				lo = mid + 1;
		}
		med = lo;
	}
	if (w.area_map) {
		/* 4.13: the byte offset of the first free area, in 4-byte units as first_bit reads */
		first_bit = c->first_free < c->map_used ?
				    (pcpu_map_get(ps, c, (uint32_t)c->first_free) & ~1) /
					    PCPU_MIN_ALLOC_SIZE :
				    (int64_t)c->nr_pages * PCPU_PAGE_SIZE / PCPU_MIN_ALLOC_SIZE;
		contig_bytes = c->contig_hint;
	} else {
		first_bit = c->chunk_md.first_free;
		contig_bytes = (int64_t)c->chunk_md.contig_hint * PCPU_MIN_ALLOC_SIZE;
	}
	stat_line(tb, "nr_alloc", c->nr_alloc);
	stat_line(tb, "max_alloc_size", c->max_alloc_size);
	stat_line(tb, "empty_pop_pages", c->nr_empty_pop_pages);
	stat_line(tb, "first_bit", first_bit);
	stat_line(tb, "free_bytes", c->free_bytes);
	stat_line(tb, "contig_bytes", contig_bytes);
	stat_line(tb, "sum_frag", sum_frag);
	stat_line(tb, "max_frag", max_frag);
	stat_line(tb, "cur_min_alloc", min_alloc);
	stat_line(tb, "cur_med_alloc", med);
	stat_line(tb, "cur_max_alloc", max_alloc);
	tb_char(tb, '\n');
}

size_t pcpu_stats_render(struct sim *s, char *buf, size_t cap)
{
	struct pcpu_state *ps = pcpu_state(s);
	struct textbuf tb;
	static const char dashes[] = "----------------------------------------\n";

	tb_init(&tb, buf, cap);
	if (!ps)
		return tb_finish(&tb);
	tb_str(&tb, "Percpu Memory Statistics\nAllocation Info:\n");
	tb_str(&tb, dashes);
	stat_line(&tb, "unit_size", ps->unit_size);
	stat_line(&tb, "static_size", ps->static_size);
	stat_line(&tb, "reserved_size", ps->reserved_size);
	stat_line(&tb, "dyn_size", ps->dyn_size);
	stat_line(&tb, "atom_size", ps->atom_size);
	stat_line(&tb, "alloc_size", ps->alloc_size);
	tb_str(&tb, "\nGlobal Stats:\n");
	tb_str(&tb, dashes);
	stat_line(&tb, "nr_alloc", (int64_t)ps->nr_alloc);
	stat_line(&tb, "nr_dealloc", (int64_t)ps->nr_dealloc);
	stat_line(&tb, "nr_cur_alloc", ps->nr_cur_alloc);
	stat_line(&tb, "nr_max_alloc", ps->nr_max_alloc);
	stat_line(&tb, "nr_chunks", ps->nr_chunks);
	stat_line(&tb, "nr_max_chunks", ps->nr_max_chunks);
	stat_line(&tb, "min_alloc_size", ps->min_alloc_size);
	stat_line(&tb, "max_alloc_size", ps->max_alloc_size);
	stat_line(&tb, "empty_pop_pages", ps->nr_empty_pop_pages);
	tb_str(&tb, "\nPer Chunk Stats:\n");
	tb_str(&tb, dashes);
	if (ps->reserved_chunk != PCPU_NONE) {
		tb_str(&tb, "Chunk: <- Reserved Chunk\n");
		chunk_stats(s, ps, ps->reserved_chunk, &tb);
	}
	for (uint32_t slot = 0; slot < ps->nr_slots; slot++) {
		uint32_t n = 0;

		for (uint32_t ci = ps->slot_head[slot]; ci != PCPU_NONE && n < ps->max_chunks;
		     ci = pcpu_chunk(ps, ci)->next, n++) {
			if (ci == ps->first_chunk)
				tb_str(&tb, "Chunk: <- First Chunk\n");
			else if (slot == ps->to_depopulate_slot)
				tb_str(&tb, "Chunk (to_depopulate)\n");
			else if (slot == ps->sidelined_slot)
				tb_str(&tb, "Chunk (sidelined):\n");
			else
				tb_str(&tb, "Chunk:\n");
			chunk_stats(s, ps, ci, &tb);
		}
	}
	return tb_finish(&tb);
}

size_t pcpu_boot_line(const struct sim *s, char *buf, size_t cap)
{
	struct pcpu_state *ps = pcpu_state(s);
	struct textbuf tb;

	tb_init(&tb, buf, cap);
	if (ps) {
		tb_str(&tb, "percpu: Embedded ");
		tb_int(&tb, ps->size_sum / PCPU_PAGE_SIZE, 0);
		tb_str(&tb, " pages/cpu s");
		tb_int(&tb, ps->static_size, 0);
		tb_str(&tb, " r");
		tb_int(&tb, ps->reserved_size, 0);
		tb_str(&tb, " d");
		tb_int(&tb, ps->dyn_size, 0);
		tb_str(&tb, " u");
		tb_int(&tb, ps->unit_size, 0);
	}
	return tb_finish(&tb);
}

size_t pcpu_meminfo_line(const struct sim *s, char *buf, size_t cap)
{
	struct pcpu_state *ps = pcpu_state(s);
	struct textbuf tb;

	tb_init(&tb, buf, cap);
	if (ps) {
		/* pcpu_nr_pages(): populated pages times units, shown in kB */
		tb_str_left(&tb, "Percpu:", 16);
		tb_int(&tb, (int64_t)ps->nr_populated * ps->nr_units * (PCPU_PAGE_SIZE / 1024), 8);
		tb_str(&tb, " kB\n");
	}
	return tb_finish(&tb);
}
