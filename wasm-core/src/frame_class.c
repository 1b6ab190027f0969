/*
 * frame_class.c: the class map of frame_class.h. Only block heads say what a block is, and blocks
 * are naturally aligned and at most 2^max_order frames, so a max-order boundary (or a zone's first
 * frame) is always a head: from there, head to head, each head's order says how far its block
 * reaches and the tail frames are never read. A 1M-frame machine is then one step per block
 * (tens of thousands) plus the fills.
 */
#include "frame_class.h"

#include <string.h>

#include "state.h"

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

/* Fill n 32-bit words with v, two at a time (the compiler widens it further where it can). */
static inline void fill32(uint32_t *p, uint32_t v, uint32_t n)
{
	uint64_t vv = (uint64_t)v << 32 | v;
	uint32_t i = 0;

	if (n && ((uintptr_t)p & 7)) /* align to 8 bytes */
		p[i++] = v;
	for (; i + 2 <= n; i += 2)
		memcpy(p + i, &vv, sizeof vv);
	if (i < n)
		p[i] = v;
}

/* Fill n bytes with v: small runs by stores (a memset call costs more than a few of them). */
static inline void fill8(uint8_t *p, uint8_t v, uint32_t n)
{
	if (n > 16) {
		memset(p, v, n);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		((volatile uint8_t *)p)[i] = v;
}

/* Fill out[a, b) (indices into the window) with class cls, as bytes or through the table. */
static inline void fill(uint8_t *out8, const uint32_t *lut, uint32_t *out32, uint32_t a, uint32_t b,
			uint8_t cls)
{
	if (out8)
		fill8(out8 + a, cls, b - a);
	else
		fill32(out32 + a, lut[cls], b - a);
}

/* The zones with frames, sorted by first pfn (they never overlap); returns how many. */
static int zones_by_pfn(const struct sim *s, const struct zone **out)
{
	int n = 0;

	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone *z = &s->nodes[nid].zones[zid];
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
 * The one walk behind both entry points: out8 gets classes, or out32 gets lut[class]. Every frame
 * of the window is written once: the gaps between zones as holes, the zones block by block.
 */
static inline void walk(const struct sim *s, uint32_t start, uint32_t count, uint8_t *out8,
			const uint32_t *lut, uint32_t *out32)
{
	const struct zone *zones[MAX_NUMNODES * MAX_NR_ZONES];
	const struct page *frames = sim_frames(s);
	const uint32_t end = start + count;
	const uint32_t max_block = 1u << s->config.max_order;
	uint32_t at = start; /* frames before it are written */
	int nz = zones_by_pfn(s, zones);

	for (int k = 0; k < nz && at < end; k++) {
		const uint32_t mem_pfn = zones[k]->mem_pfn;
		const uint32_t z_end = mem_pfn + zones[k]->managed;
		const struct page *zf = frames + zones[k]->frame_base;
		uint32_t from, to, p;

		if (z_end <= at)
			continue;
		from = at > mem_pfn ? at : mem_pfn;
		to = end < z_end ? end : z_end;
		if (from >= to)
			break; /* this zone and the later ones start past the window */
		if (from > at)
			fill(out8, lut, out32, at - start, from - start, FC_HOLE);
		p = from - from % max_block;
		if (p < mem_pfn)
			p = mem_pfn;
		while (p < to) { /* bounded: p grows by at least 1 each step */
			const struct page *pg = &zf[p - mem_pfn];
			uint32_t size, a, b;

			if (pg->state == PG_TAIL) {
				size = 1; /* a frame no head covers (a corrupted state): a hole */
				a = p > from ? p : from;
				if (a < to)
					fill(out8, lut, out32, a - start, a + 1 - start, FC_HOLE);
				p++;
				continue;
			}
			size = pg->order < 32 ? 1u << pg->order : 1;
			a = p > from ? p : from; /* the block's part inside the window */
			b = p + size < to ? p + size : to;
			if (b > a)
				fill(out8, lut, out32, a - start, b - start, head_class(pg));
			p += size;
		}
		at = to;
	}
	if (at < end)
		fill(out8, lut, out32, at - start, count, FC_HOLE);
}

void sim_frame_classes(const struct sim *s, uint32_t start, uint32_t count, uint8_t *out)
{
	walk(s, start, count, out, NULL, NULL);
}

void sim_frame_classes_mapped(const struct sim *s, uint32_t start, uint32_t count,
			      const uint32_t *lut, uint32_t *out)
{
	walk(s, start, count, NULL, lut, out);
}
