/*
 * area_map.c: the percpu allocator up to 4.13 (mm/percpu.c as of 4.9-4.13): every chunk keeps
 * int map[], the sorted start offsets of its areas with bit 0 set for an area in use, ending in
 * a sentinel unit_size | 1. Area i is [map[i] & ~1, map[i + 1] & ~1).
 *
 * Example: a fresh 1 MiB chunk has map = { 0, 1048576|1 }: one free area. Allocating 4 bytes
 * splits it: map = { 0|1, 4, 1048576|1 }, the kernel's memmove moving the one entry after the
 * split (the sentinel) up by one. Freeing the area at 0 merges it with the free area after it:
 * map = { 0, 1048576|1 }, a memmove of the entries after it down by one. Freeing in allocation
 * order merges at the front of a long map, so each free moves almost the whole map: the cost
 * Dennis Zhou's bitmap allocator removed (docs/kernel/percpu.md).
 *
 * The model keeps each map in a gap buffer (gap_start, gap_len): inserting or removing at index
 * i moves only the entries between the gap and i, so a run of edits near one place costs little
 * here. What the kernel's memmove would move, (map_used - i) entries, is counted in
 * pcpu_work.bytes_memmoved from the indices alone: the counts are the kernel's, the model's own
 * work is not (docs/model-notes.md).
 */
#include "base/event.h"
#include "percpu/percpu.h"
#include "percpu/vocab.h"

/* log2 of a power of two */
static int log2u(uint32_t x)
{
	int n = 0;

	while (x > 1) {
		x >>= 1;
		n++;
	}
	return n;
}

/* A block of 2^cls entries from the pool, or PCPU_NONE when the pool is exhausted. */
static uint32_t pool_get(struct pcpu_state *ps, int cls)
{
	uint32_t b = ps->pool_free[cls];
	uint32_t size = 1u << cls;

	if (b != PCPU_NONE) {
		ps->pool_free[cls] = (uint32_t)pcpu_pool(ps)[b];
		return b;
	}
	if (ps->pool_bump + size > ps->pool_entries || ps->pool_bump + size < ps->pool_bump)
		return PCPU_NONE;
	b = ps->pool_bump;
	ps->pool_bump += size;
	return b;
}

/* Give a block of 2^cls entries back to its class's free list. */
static void pool_put(struct pcpu_state *ps, uint32_t b, int cls)
{
	pcpu_pool(ps)[b] = (int32_t)ps->pool_free[cls];
	ps->pool_free[cls] = b;
}

/* Physical index of logical entry i. */
static uint32_t phys(const struct pcpu_chunk *c, uint32_t i)
{
	return i < c->gap_start ? i : i + c->gap_len;
}

int32_t pcpu_map_get(struct pcpu_state *ps, const struct pcpu_chunk *c, uint32_t i)
{
	return pcpu_pool(ps)[c->map_block + phys(c, i)];
}

/* Set logical entry i. */
static void map_set(struct pcpu_state *ps, const struct pcpu_chunk *c, uint32_t i, int32_t v)
{
	pcpu_pool(ps)[c->map_block + phys(c, i)] = v;
}

/* Move the gap so that it starts at logical index at (the model's work, not counted). */
static void gap_move(struct pcpu_state *ps, struct pcpu_chunk *c, uint32_t at)
{
	int32_t *m = pcpu_pool(ps) + c->map_block;

	while (c->gap_start > at) {
		c->gap_start--;
		m[c->gap_start + c->gap_len] = m[c->gap_start];
	}
	while (c->gap_start < at) {
		m[c->gap_start] = m[c->gap_start + c->gap_len];
		c->gap_start++;
	}
}

/* Insert n entries before logical index i (their values unset). */
static void map_insert(struct pcpu_state *ps, struct pcpu_chunk *c, uint32_t i, uint32_t n)
{
	gap_move(ps, c, i);
	c->gap_start += n;
	c->gap_len -= n;
}

/* Remove n entries from logical index i. */
static void map_remove(struct pcpu_state *ps, struct pcpu_chunk *c, uint32_t i, uint32_t n)
{
	gap_move(ps, c, i + n);
	c->gap_start -= n;
	c->gap_len += n;
}

int pcpu_map_init(struct pcpu_state *ps, struct pcpu_chunk *c, int head, int size, int alloc)
{
	int cls = log2u((uint32_t)alloc);
	uint32_t b = pool_get(ps, cls);
	int32_t *m;

	if (b == PCPU_NONE)
		return -1;
	m = pcpu_pool(ps) + b;
	c->map_block = b;
	c->map_alloc = alloc;
	c->first_free = 0;
	if (head) {
		/* the first chunk: { 0|1, head, head + size | 1 } (static area in use) */
		m[0] = 1;
		m[1] = head;
		m[2] = (head + size) | 1;
		c->map_used = 2;
	} else {
		m[0] = 0;
		m[1] = size | 1;
		c->map_used = 1;
	}
	c->gap_start = (uint32_t)c->map_used + 1;
	c->gap_len = (uint32_t)alloc - c->gap_start;
	c->contig_hint = size;
	c->free_bytes = size;
	return 0;
}

void pcpu_map_release(struct pcpu_state *ps, struct pcpu_chunk *c)
{
	pool_put(ps, c->map_block, log2u((uint32_t)c->map_alloc));
	c->map_block = PCPU_NONE;
}

int pcpu_need_to_extend(struct pcpu_state *ps, struct pcpu_chunk *c, int is_atomic)
{
	int margin, new_alloc;

	(void)ps;
	if (is_atomic) {
		margin = 3;
		/* fewer than 32 spare entries: queue an extension for the balance work */
		if (c->map_alloc < c->map_used + PCPU_ATOMIC_MAP_MARGIN_LOW &&
		    !c->map_extend_queued) {
			c->map_extend_queued = 1;
			ps->balance_pending = 1;
		}
	} else {
		margin = PCPU_ATOMIC_MAP_MARGIN_HIGH;
	}
	if (c->map_alloc >= c->map_used + margin)
		return 0;
	new_alloc = PCPU_DFL_MAP_ALLOC;
	while (new_alloc < c->map_used + margin)
		new_alloc *= 2;
	return new_alloc;
}

int pcpu_extend_area_map(struct sim *s, struct pcpu_state *ps, uint32_t ci, int new_alloc, int cpu,
			 int phase)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	int cls = log2u((uint32_t)new_alloc);
	uint32_t b, used = (uint32_t)c->map_used + 1;
	int old_alloc = c->map_alloc;
	int32_t *to;

	if (new_alloc <= c->map_alloc)
		return 0;
	b = pool_get(ps, cls);
	if (b == PCPU_NONE)
		return -1;
	/* the kernel copies the whole old map (map_alloc entries); the model its entries, gap closed */
	to = pcpu_pool(ps) + b;
	for (uint32_t i = 0; i < used; i++)
		to[i] = pcpu_map_get(ps, c, i);
	pool_put(ps, c->map_block, log2u((uint32_t)c->map_alloc));
	c->map_block = b;
	c->map_alloc = new_alloc;
	c->gap_start = used;
	c->gap_len = (uint32_t)new_alloc - used;
	ps->work[phase].bytes_memcpyd += (uint64_t)old_alloc * sizeof(int32_t);
	ev_emit(s, EV_PERCPU_MAP_EXTEND, FN_PCPU_EXTEND_AREA_MAP, cpu, NULL, ci, 0, 0, old_alloc,
		new_alloc, old_alloc * (int)sizeof(int32_t));
	return 0;
}

/*
 * pcpu_fit_in_area: the head padding that places size bytes at align inside the free area
 * [off, off + this_size), or -1. Atomic requests (pop_only) may use populated pages only: past an
 * unpopulated run the candidate restarts after it.
 */
static int fit_in_area(struct pcpu_state *ps, uint32_t ci, int off, int this_size, int size,
		       int align, int pop_only)
{
	int cand_off = off;

	for (int guard = 0; guard <= (int)ps->unit_pages + 1; guard++) {
		int head = ((cand_off + align - 1) & ~(align - 1)) - off;
		int page_start, page_end, end_page, rs;

		if (this_size < head + size)
			return -1;
		if (!pop_only)
			return head;
		page_start = (head + off) / PCPU_PAGE_SIZE;
		page_end = (head + off + size + PCPU_PAGE_SIZE - 1) / PCPU_PAGE_SIZE;
		end_page = (off + this_size + PCPU_PAGE_SIZE - 1) / PCPU_PAGE_SIZE;
		rs = page_start;
		while (rs < end_page && pcpu_page_populated(ps, ci, (uint32_t)rs))
			rs++;
		if (rs >= page_end)
			return head;
		while (rs < end_page && !pcpu_page_populated(ps, ci, (uint32_t)rs))
			rs++;
		cand_off = rs * PCPU_PAGE_SIZE;
	}
	return -1;
}

int pcpu_area_alloc(struct sim *s, struct pcpu_state *ps, uint32_t ci, int size, int align,
		    int pop_only, int cpu)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	struct pcpu_work *w = &ps->work[PCPU_PHASE_ALLOC];
	int oslot = pcpu_chunk_slot(s, ps, c);
	int max_contig = 0, seen_free = 0;
	uint32_t scanned = 0;

	for (int i = c->first_free; i < c->map_used; i++) {
		int32_t off = pcpu_map_get(ps, c, (uint32_t)i);
		int this_size, head, tail, moved = 0;

		scanned++;
		if (off & 1)
			continue;
		this_size = (pcpu_map_get(ps, c, (uint32_t)i + 1) & ~1) - off;
		head = fit_in_area(ps, ci, off, this_size, size, align, pop_only);
		if (head < 0) {
			if (!seen_free) {
				c->first_free = i;
				seen_free = 1;
			}
			if (this_size > max_contig)
				max_contig = this_size;
			continue;
		}
		/*
		 * A head smaller than an int, or after a free area, goes to the previous area: lost to
		 * the allocation before it when that one is in use.
		 */
		if (head &&
		    (head < (int)sizeof(int32_t) || !(pcpu_map_get(ps, c, (uint32_t)i - 1) & 1))) {
			int32_t prev = pcpu_map_get(ps, c, (uint32_t)i - 1);

			off += head;
			map_set(ps, c, (uint32_t)i, off);
			if (prev & 1) {
				c->free_bytes -= head;
				pcpu_account_pages(ps, ci, off - head, head, 1);
			} else if (off - prev > max_contig) {
				max_contig = off - prev;
			}
			this_size -= head;
			head = 0;
		}
		/* a tail smaller than an int stays with the allocation */
		tail = this_size - head - size;
		if (tail < (int)sizeof(int32_t)) {
			tail = 0;
			size = this_size - head;
		}
		if (head || tail) {
			int nr_extra = !!head + !!tail;

			/* memmove(p + nr_extra + 1, p + 1, (map_used - i) entries) */
			moved = (c->map_used - i) * (int)sizeof(int32_t);
			map_insert(ps, c, (uint32_t)i + 1, (uint32_t)nr_extra);
			c->map_used += nr_extra;
			if (head) {
				if (!seen_free) {
					c->first_free = i;
					seen_free = 1;
				}
				off += head;
				i++;
				map_set(ps, c, (uint32_t)i, off);
				if (head > max_contig)
					max_contig = head;
			}
			if (tail) {
				map_set(ps, c, (uint32_t)i + 1, off + size);
				if (tail > max_contig)
					max_contig = tail;
			}
		}
		if (!seen_free)
			c->first_free = i + 1;
		if (i + 1 == c->map_used)
			c->contig_hint = max_contig; /* the whole map was scanned */
		else if (max_contig > c->contig_hint)
			c->contig_hint = max_contig;
		c->free_bytes -= size;
		map_set(ps, c, (uint32_t)i, off | 1);
		pcpu_account_pages(ps, ci, off, size, 1);
		w->entries_scanned += scanned;
		w->bytes_memmoved += (uint64_t)moved;
		ev_emit(s, EV_PERCPU_AREA_ALLOC, FN_PCPU_ALLOC_AREA, cpu, NULL, ci, 0, 0,
			(int32_t)scanned, moved, c->map_used);
		pcpu_chunk_relocate(s, ps, ci, oslot, cpu, PCPU_PHASE_ALLOC);
		return off;
	}
	w->entries_scanned += scanned;
	c->contig_hint = max_contig; /* fully scanned */
	ev_emit(s, EV_PERCPU_AREA_ALLOC, FN_PCPU_ALLOC_AREA, cpu, NULL, ci, 0, 0, (int32_t)scanned,
		0, c->map_used);
	pcpu_chunk_relocate(s, ps, ci, oslot, cpu, PCPU_PHASE_ALLOC);
	return -1;
}

int pcpu_area_free(struct sim *s, struct pcpu_state *ps, uint32_t ci, int freeme, int cpu)
{
	struct pcpu_chunk *c = pcpu_chunk(ps, ci);
	struct pcpu_work *w = &ps->work[PCPU_PHASE_FREE];
	int oslot = pcpu_chunk_slot(s, ps, c);
	uint32_t i = 0, j = (uint32_t)c->map_used, probes = 0;
	int32_t off = 0, key = freeme | 1;
	int to_free = 0, size, moved = 0;

	/* binary search for <offset, in use> */
	while (i != j) {
		uint32_t k = (i + j) / 2;

		probes++;
		off = pcpu_map_get(ps, c, k);
		if (off < key)
			i = k + 1;
		else if (off > key)
			j = k;
		else
			i = j = k;
	}
	w->probes += probes;
	if (off != key)
		return -1;
	if ((int)i < c->first_free)
		c->first_free = (int)i;
	off &= ~1;
	map_set(ps, c, i, off);
	size = (pcpu_map_get(ps, c, i + 1) & ~1) - off;
	c->free_bytes += size;
	pcpu_account_pages(ps, ci, off, size, -1);
	/* merge with the next area, then with the previous one */
	if (!(pcpu_map_get(ps, c, i + 1) & 1))
		to_free++;
	if (i > 0 && !(pcpu_map_get(ps, c, i - 1) & 1)) {
		to_free++;
		i--;
	}
	if (to_free) {
		c->map_used -= to_free;
		/* memmove(p + 1, p + 1 + to_free, (map_used - i) entries) */
		moved = (c->map_used - (int)i) * (int)sizeof(int32_t);
		map_remove(ps, c, i + 1, (uint32_t)to_free);
	}
	w->bytes_memmoved += (uint64_t)moved;
	{
		int merged = (pcpu_map_get(ps, c, i + 1) & ~1) - pcpu_map_get(ps, c, i);

		if (merged > c->contig_hint)
			c->contig_hint = merged;
	}
	ev_emit(s, EV_PERCPU_AREA_FREE, FN_PCPU_FREE_AREA, cpu, NULL, ci, 0, 0, (int32_t)probes,
		moved, c->map_used);
	pcpu_chunk_relocate(s, ps, ci, oslot, cpu, PCPU_PHASE_FREE);
	return size;
}
