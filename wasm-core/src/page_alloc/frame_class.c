/*
 * frame_class.c: the class map of frame_class.h. Only block heads say what a block is, and blocks
 * are naturally aligned and at most 2^max_order frames, so a max-order boundary (or a zone's first
 * frame) is always a head: from there, head to head, each head's order says how far its block
 * reaches and the tail frames are never read. Neighbouring blocks of one class are written as one
 * run. A 1M-frame machine is then one step per block (tens of thousands) plus a fill per run.
 */
#include "page_alloc/frame_class.h"

#include <string.h>

#include "base/state.h"

/* The class of a head frame. */
static uint8_t head_class(const struct page *pg)
{
	switch (pg->state) {
	case PG_BUDDY:
		return pg->list < MIGRATE_TYPES ? (uint8_t)(FC_BUDDY + pg->list) : FC_HOLE;
	case PG_PCP:
		return (pg->cpu & 1) ? FC_PCP_ODD : FC_PCP_EVEN;
	case PG_ALLOCATED:
		return FC_ALLOCATED;
	default:
		return FC_CORRUPT;
	}
}

/*
 * Fill n 32-bit words with v. A map's runs are long (a whole free zone can be one), so the cost is
 * store bandwidth: write FILL_SEED words, then copy the filled prefix forward, doubling up to
 * FILL_CHUNK words a copy. Each memcpy is one bulk memory.copy, which the engine runs at memcpy
 * speed: 4 MiB of one colour in ~0.2 ms in V8 against ~0.3 ms for a loop of 8-byte stores.
 */
#define FILL_SEED 16	 /* words written by stores before copying (64 bytes) */
#define FILL_CHUNK 16384 /* most words one copy moves (64 KiB: its source stays in L2) */
static inline void fill32(uint32_t *p, uint32_t v, uint32_t n)
{
	uint32_t done = n < FILL_SEED ? n : FILL_SEED;

	for (uint32_t i = 0; i < done; i++)
		p[i] = v;
	while (done < n) { /* bounded: done grows by k >= 1 each step */
		uint32_t k = n - done;

		if (k > done)
			k = done;
		if (k > FILL_CHUNK)
			k = FILL_CHUNK;
		memcpy(p + done, p, (size_t)k * sizeof *p);
		done += k;
	}
}

/*
 * The output of a walk: frames are handed to it in pfn order as (index, length, class) pieces and
 * it writes them as runs, so neighbouring blocks of one class (a free zone is mostly max-order
 * blocks of one migratetype; a busy one long stretches of allocated blocks) cost one fill, not one
 * per block. out gets lut[class].
 */
struct class_run {
	const uint32_t *lut;
	uint32_t *out;
	uint32_t start; /* first index of the pending run */
	uint32_t end;	/* one past its last index (start == end: none pending) */
	uint8_t cls;	/* its class */
};

/* Write the pending run, if any. */
static inline void run_flush(struct class_run *r)
{
	uint32_t n = r->end - r->start;

	if (!n)
		return;
	fill32(r->out + r->start, r->lut[r->cls], n);
	r->start = r->end;
}

/* Indices [a, b) get class cls: extend the pending run or start a new one (a is its end). */
static inline void fill(struct class_run *r, uint32_t a, uint32_t b, uint8_t cls)
{
	if (b <= a)
		return;
	if (cls != r->cls || a != r->end) {
		run_flush(r);
		r->start = a;
		r->cls = cls;
	}
	r->end = b;
}

/* The zones with frames, sorted by first pfn (they never overlap); returns how many. */
static int zones_by_pfn(const struct sim *s, const struct zone **out)
{
	int n = 0;

	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone *z = &sim_nodes(s)[nid].zones[zid];
			int i = n++;

			if (!z->managed) {
				n--;
				continue;
			}
			while (i > 0 && out[i - 1]->mem_pfn > z->mem_pfn) { /* insertion sort */
				out[i] = out[i - 1];
				i--;
			}
			out[i] = z;
		}
	}
	return n;
}

/*
 * The one walk behind both entry points: out gets lut[class] of every frame of the window, once:
 * the gaps between zones as holes, the zones block by block.
 */
static inline void walk(const struct sim *s, uint32_t start, uint32_t count, const uint32_t *lut,
			uint32_t *out)
{
	const struct zone *zones[MAX_NUMNODES * MAX_NR_ZONES];
	const uint32_t end = start + count;
	const uint32_t max_block = 1u << s->config.max_order;
	uint32_t at = start; /* frames before it are written */
	int nz = zones_by_pfn(s, zones);
	struct class_run r = { lut, out, 0, 0, FC_HOLE };

	for (int k = 0; k < nz && at < end; k++) {
		const uint32_t mem_pfn = zones[k]->mem_pfn;
		const uint32_t z_end = mem_pfn + zones[k]->managed;
		uint32_t from, to, p;

		if (z_end <= at)
			continue;
		from = at > mem_pfn ? at : mem_pfn;
		to = end < z_end ? end : z_end;
		if (from >= to)
			break; /* this zone and the later ones start past the window */
		if (from > at)
			fill(&r, at - start, from - start, FC_HOLE);
		p = from - from % max_block;
		if (p < mem_pfn)
			p = mem_pfn;
		while (p < to) { /* bounded: p grows by at least 1 each step */
			const struct page *pg = frame_at(s, p);
			uint32_t size, a, b;

			if (pg->state ==
			    PG_TAIL) { /* no head covers it (a corrupted state): a hole */
				a = p > from ? p : from;
				if (a < to)
					fill(&r, a - start, a + 1 - start, FC_HOLE);
				p++;
				continue;
			}
			size = pg->order < 32 ? 1u << pg->order : 1;
			a = p > from ? p : from; /* the block's part inside the window */
			b = p + size < to ? p + size : to;
			if (b > a)
				fill(&r, a - start, b - start, head_class(pg));
			p += size;
		}
		at = to;
	}
	if (at < end)
		fill(&r, at - start, count, FC_HOLE);
	run_flush(&r);
}

void sim_frame_classes_mapped(const struct sim *s, uint32_t start, uint32_t count,
			      const uint32_t *lut, uint32_t *out)
{
	walk(s, start, count, lut, out);
}

/* Append span [lo, hi) to the n spans so far; with max_spans taken, widen the last one instead. */
static void span_push(uint32_t *spans, int *n, int max_spans, uint32_t lo, uint32_t hi)
{
	if (*n < max_spans) {
		spans[2 * *n] = lo;
		spans[2 * *n + 1] = hi;
		++*n;
	} else {
		spans[2 * *n - 1] = hi;
	}
}

int sim_frame_classes_repaint(const struct sim *s, uint64_t *seen, int all, uint32_t start,
			      uint32_t count, const uint32_t *lut, uint32_t *out, uint32_t *spans,
			      int max_spans)
{
	const uint64_t *stamps = sim_frame_stamps(s);
	const uint32_t shift = s->config.max_order;
	const uint64_t end = (uint64_t)start + count;
	uint64_t last = (end + (1u << shift) - 1) >> shift; /* one past the window's last block */
	uint32_t lo = 0, hi = 0; /* the pending span of out, [lo, hi); lo == hi: none */
	int n = 0;

	if (max_spans < 1 || !count)
		return 0;
	if (last > s->nr_frame_stamps)
		last = s->nr_frame_stamps; /* nothing past the last zone ever changes */
	if (all) {			   /* the whole window, holes past the last zone included */
		if (last > start >> shift)
			memcpy(seen + (start >> shift), stamps + (start >> shift),
			       (last - (start >> shift)) * sizeof *seen);
		walk(s, start, count, lut, out);
		spans[0] = 0;
		spans[1] = count;
		return 1;
	}
	for (uint32_t b = start >> shift; b < last; b++) { /* bounded by the stamps' length */
		uint64_t a = (uint64_t)b << shift, z = a + (1u << shift);

		if (stamps[b] == seen[b])
			continue;
		seen[b] = stamps[b];
		a = a > start ? a - start : 0;
		z = (z < end ? z : end) - start;
		if (a != hi) { /* a gap: the pending span is done */
			if (hi > lo)
				span_push(spans, &n, max_spans, lo, hi);
			lo = (uint32_t)a;
		}
		hi = (uint32_t)z;
	}
	if (hi > lo)
		span_push(spans, &n, max_spans, lo, hi);
	for (int i = 0; i < n; i++) /* once the spans are final: a widened one is repainted whole */
		walk(s, start + spans[2 * i], spans[2 * i + 1] - spans[2 * i], lut,
		     out + spans[2 * i]);
	return n;
}
