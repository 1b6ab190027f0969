/*
 * watermark.c: how much memory each zone keeps free, and the check every allocation passes.
 *
 * min_free_kbytes is the machine-wide reserve. __setup_per_zone_wmarks shares it among the
 * lowmem zones in proportion to their managed pages (WMARK_MIN), then spaces LOW, HIGH and
 * PROMO above MIN by a distance of max(min/4, managed * watermark_scale_factor / 10000).
 * Worked example (the live 6.18 machine): min_free_kbytes 67584 = 16896 pages, lowmem
 * 1497651 pages; DMA32 manages 772915, so min = 16896 * 772915 / 1497651 = 8719, the distance
 * is max(8719 / 4, 772) = 2179, and low/high/promo are 10898/13077/15256.
 *
 * lowmem_reserve ("protection") makes a lower zone keep extra pages back from requests that
 * could have used a higher zone: DMA keeps (DMA32 + Normal managed) / 256 from a Normal request.
 *
 * __zone_watermark_ok asks: after taking 2^order pages, would more than min + protection stay
 * free? Requests with reserve rights (__GFP_HIGH, atomic, OOM victims) may dig deeper.
 */
#include "page_alloc/vocab.h"
#include "page_alloc/watermark.h"

#include "base/event.h"
#include "base/fast_path.h"
#include "base/state.h"
#include "page_alloc/vmstat.h"

#define SWAP_CLUSTER_MAX 32
#define MAX_RECLAIM_RETRIES 16

/* int_sqrt: floor of the square root, one result bit per step (32 steps). */
static uint64_t int_sqrt64(uint64_t x)
{
	uint64_t root = 0;

	for (int bit = 31; bit >= 0; bit--) {
		uint64_t trial = root | ((uint64_t)1 << bit);
		if (trial * trial <= x)
			root = trial;
	}
	return root;
}

/* nr_free_buffer_pages: managed pages above the HIGH watermark in every zone up to Normal. */
static uint64_t nr_free_buffer_pages(const struct sim *s)
{
	uint64_t sum = 0;

	/* the kernel walks one node's GFP_KERNEL zonelist, which covers every node's populated zones */
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		for (int zid = 0; zid <= ZONE_NORMAL; zid++) {
			const struct zone *z = &sim_nodes(s)[nid].zones[zid];
			int64_t high = wmark_pages(z, WMARK_HIGH);
			if ((int64_t)z->managed > high)
				sum += (uint64_t)((int64_t)z->managed - high);
		}
	}
	return sum;
}

/* __setup_per_zone_wmarks for an explicit min_free_kbytes. */
static void setup_wmarks(struct sim *s, int32_t min_free_kbytes)
{
	uint64_t pages_min = (uint64_t)(min_free_kbytes < 0 ? 0 : min_free_kbytes) >>
			     (PAGE_SHIFT - 10);
	uint64_t lowmem_pages = 0;
	int old = !s->profile.movable_wmark_like_highmem; /* docs/kernel C.2 */

	/* HighMem does not exist on x86-64; Movable stopped counting as lowmem in 6.0 */
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			if (zid != ZONE_MOVABLE || old)
				lowmem_pages += sim_nodes(s)[nid].zones[zid].managed;

	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			struct zone *z = &sim_nodes(s)[nid].zones[zid];
			uint64_t managed = z->managed;
			uint64_t tmp = lowmem_pages ? pages_min * managed / lowmem_pages : 0;
			uint64_t scaled =
				managed * (uint64_t)s->config.watermark_scale_factor / 10000;
			uint64_t delta;

			if (zid == ZONE_MOVABLE && !old) {
				/*
				 * __GFP_HIGH and PF_MEMALLOC rarely need movable pages: a small fixed
				 * min (managed / 1024 clamped to 32..128), but the LOW/HIGH distances
				 * below still use the proportional share `tmp`.
				 */
				uint64_t min_pages = managed / 1024;
				if (min_pages < SWAP_CLUSTER_MAX)
					min_pages = SWAP_CLUSTER_MAX;
				if (min_pages > 128)
					min_pages = 128;
				z->_watermark[WMARK_MIN] = (int32_t)min_pages;
			} else {
				z->_watermark[WMARK_MIN] = (int32_t)tmp;
			}
			delta = (tmp >> 2) > scaled ? (tmp >> 2) : scaled;
			z->watermark_boost = 0;
			z->_watermark[WMARK_LOW] = z->_watermark[WMARK_MIN] + (int32_t)delta;
			z->_watermark[WMARK_HIGH] = z->_watermark[WMARK_LOW] + (int32_t)delta;
			z->_watermark[WMARK_PROMO] = z->_watermark[WMARK_HIGH] + (int32_t)delta;
		}
	}
}

int32_t wmark_default_min_free_kbytes(struct sim *s)
{
	/* calculate_min_free_kbytes: sqrt(16 * lowmem KiB), e.g. 4 GiB -> 8192 KiB */
	uint64_t lowmem_kbytes = nr_free_buffer_pages(s) << (PAGE_SHIFT - 10);
	int64_t min_free = s->min_free_kbytes;
	int64_t computed = (int64_t)int_sqrt64(lowmem_kbytes * 16);

	/* a value the administrator wrote that is larger than the rule's stays (with a warning) */
	if (computed > s->user_min_free_kbytes)
		min_free = computed < 128 ? 128 : computed > 262144 ? 262144 : computed;

	if (s->config.thp) {
		/*
		 * set_recommended_min_free_kbytes (khugepaged start): keep 2 pageblocks per lowmem zone
		 * free, plus for each of the 3 pcp types a pageblock to fall back to and one more, i.e.
		 * pageblock_nr_pages * zones * (2 + 3 * 3); at most 5% of lowmem. It runs after the
		 * first watermark setup, so nr_free_buffer_pages already subtracts the HIGH marks.
		 */
		uint64_t nr_zones = 0, recommended, cap;

		for (int nid = 0; nid < s->config.nr_nodes; nid++)
			for (int zid = 0; zid <= ZONE_NORMAL; zid++)
				nr_zones += zone_populated(&sim_nodes(s)[nid].zones[zid]) ? 1 : 0;
		setup_wmarks(s, (int32_t)min_free);
		recommended = (uint64_t)s->pageblock_nr_pages * nr_zones * 2 +
			      (uint64_t)s->pageblock_nr_pages * nr_zones * MIGRATE_PCPTYPES *
				      MIGRATE_PCPTYPES;
		cap = nr_free_buffer_pages(s) / 20;
		if (recommended > cap)
			recommended = cap;
		recommended <<= PAGE_SHIFT - 10;
		if ((int64_t)recommended > min_free)
			min_free = (int64_t)recommended;
	}
	if (min_free > INT32_MAX)
		min_free = INT32_MAX;
	if (min_free < 0)
		min_free = 0;
	s->min_free_kbytes = (int32_t)min_free;
	return (int32_t)min_free;
}

uint64_t calculate_totalreserve_pages(struct sim *s)
{
	uint64_t reserve_pages = 0;

	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		struct node *n = &sim_nodes(s)[nid];

		n->totalreserve_pages = 0;
		for (int i = 0; i < MAX_NR_ZONES; i++) {
			const struct zone *z = &n->zones[i];
			int64_t max = 0;

			/* the largest protection this zone keeps against any higher zone's requests */
			for (int j = i; j < MAX_NR_ZONES; j++)
				if (z->lowmem_reserve[j] > max)
					max = z->lowmem_reserve[j];
			/* and the high watermark (with any boost) counts as reserved too */
			max += (int64_t)z->_watermark[WMARK_HIGH] + z->watermark_boost;
			if (max > (int64_t)z->managed)
				max = z->managed;
			n->totalreserve_pages += (uint64_t)max;
			reserve_pages += (uint64_t)max;
		}
	}
	return reserve_pages;
}

void wmark_setup_per_zone_wmarks(struct sim *s)
{
	setup_wmarks(s, s->min_free_kbytes);
	calculate_totalreserve_pages(s);
}

void wmark_setup_lowmem_reserve(struct sim *s)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		struct node *n = &sim_nodes(s)[nid];
		for (int i = 0; i < MAX_NR_ZONES; i++) {
			struct zone *z = &n->zones[i];
			int32_t ratio = s->config.lowmem_reserve_ratio[i];
			/* 6.18 (after the revert of the 6.10 change) does not zero it for empty upper zones */
			int clear = ratio <= 0 || !z->managed;
			uint64_t upper = 0;

			for (int j = 0; j <= i; j++)
				z->lowmem_reserve[j] = 0;
			for (int j = i + 1; j < MAX_NR_ZONES; j++) {
				upper += n->zones[j].managed;
				z->lowmem_reserve[j] = clear ? 0 :
							       (int32_t)(upper / (uint64_t)ratio);
			}
		}
	}
	/* setup_per_zone_lowmem_reserve ends with calculate_totalreserve_pages */
	calculate_totalreserve_pages(s);
}

/* __zone_watermark_unusable_free: pages this request may not count as free. */
static int64_t unusable_free(const struct sim *s, const struct zone *z, int order,
			     unsigned alloc_flags)
{
	int64_t unusable = ((int64_t)1 << order) - 1;

	/*
	 * Without reserve rights the free part of the high-order atomic reserve is not ours.
	 * Up to 6.9 the kernel subtracted the whole reservation (nr_reserved_highatomic) instead.
	 * (No CMA in the model, so nothing for NR_FREE_CMA_PAGES.)
	 */
	if (!(alloc_flags & ALLOC_RESERVES))
		unusable += s->profile.wmark_free_highatomic ? z->nr_free_highatomic :
							       z->nr_reserved_highatomic;
	return unusable;
}

/* The verdict of __zone_watermark_ok, with the free count and threshold it compared. */
struct wmark_verdict {
	int ok;
	int64_t free;	   /* free pages minus what the request may not use */
	int64_t threshold; /* what free had to exceed: reduced min + lowmem_reserve */
};

/* __zone_watermark_ok on a given free count, without events. */
static FAST_PATH struct wmark_verdict wmark_ok(const struct sim *s, const struct zone *z, int order,
					       int64_t mark, int highest_zoneidx,
					       unsigned alloc_flags, int64_t free_pages)
{
	struct wmark_verdict v;
	int64_t min = mark;

	/* free may go negative: that is fine, it simply fails */
	v.free = free_pages - unusable_free(s, z, order, alloc_flags);
	if (alloc_flags & ALLOC_RESERVES) {
		/* __GFP_HIGH: half of min; GFP_ATOMIC (also non-blocking): a further quarter of that */
		if (alloc_flags & ALLOC_MIN_RESERVE) {
			min -= min / 2;
			if (alloc_flags & ALLOC_NON_BLOCK)
				min -= min / 4;
		}
		/* an OOM victim will free memory soon: it may take half of what is left */
		if (alloc_flags & ALLOC_OOM)
			min -= min / 2;
	}
	v.threshold = min + z->lowmem_reserve[highest_zoneidx];
	v.ok = 0;
	/* even a suitable free block is no use if the zone is below the order-0 line */
	if (v.free <= v.threshold)
		return v;
	if (!order) {
		v.ok = 1;
		return v;
	}
	/* high order: one free block of a usable type at order or above is enough */
	for (int o = order; o <= s->config.max_order; o++) {
		const struct free_area *area = &z->free_area[o];

		if (!area->nr_free)
			continue;
		for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
			if (area->head[mt] != PFN_NONE) {
				v.ok = 1;
				return v;
			}
		}
		if ((alloc_flags & (ALLOC_HIGHATOMIC | ALLOC_OOM)) &&
		    area->head[MIGRATE_HIGHATOMIC] != PFN_NONE) {
			v.ok = 1;
			return v;
		}
	}
	return v;
}

/*
 * EV_WMARK_CHECK: a = free pages the request may use, b = what they had to exceed, c = pass,
 * mt = which mark (enum wmark_check), so the UI can say why the check was made.
 */
static FAST_PATH void emit_check(struct sim *s, const struct zone *z, int order,
				 const struct wmark_verdict *v, enum wmark_check which, int cpu)
{
	int64_t free = v->free, threshold = v->threshold;

	if (cpu < 0)
		return;
	/* clamp into the record's 32-bit fields; real values are far smaller */
	free = free < INT32_MIN ? INT32_MIN : free > INT32_MAX ? INT32_MAX : free;
	threshold = threshold > INT32_MAX ? INT32_MAX : threshold;
	ev_emit(s, EV_WMARK_CHECK, FN_ZONE_WATERMARK_OK, cpu, z, 0, order, (int)which,
		(int32_t)free, (int32_t)threshold, v->ok);
}

int zone_watermark_ok(struct sim *s, struct zone *z, int order, int64_t mark, int highest_zoneidx,
		      unsigned alloc_flags, enum wmark_check which, int cpu)
{
	struct wmark_verdict v =
		wmark_ok(s, z, order, mark, highest_zoneidx, alloc_flags, zone_page_state_free(z));

	emit_check(s, z, order, &v, which, cpu);
	return v.ok;
}

int zone_watermark_ok_safe(struct sim *s, struct zone *z, int order, int64_t mark,
			   int highest_zoneidx, int cpu)
{
	int64_t free_pages = zone_page_state_free(z);
	struct wmark_verdict v;

	/* near the watermarks the per-CPU deltas could hide a breach: count them */
	if (z->percpu_drift_mark && free_pages < z->percpu_drift_mark)
		free_pages = zone_page_state_snapshot_free(s, z);
	v = wmark_ok(s, z, order, mark, highest_zoneidx, 0, free_pages);
	emit_check(s, z, order, &v, WMARK_CHECK_OTHER, cpu);
	return v.ok;
}

int zone_watermark_ok_free(struct sim *s, struct zone *z, int order, int64_t mark,
			   int highest_zoneidx, unsigned alloc_flags, int64_t free_pages)
{
	return wmark_ok(s, z, order, mark, highest_zoneidx, alloc_flags, free_pages).ok;
}

FAST_PATH int zone_watermark_fast(struct sim *s, struct zone *z, int order, int64_t mark,
				  int highest_zoneidx, unsigned alloc_flags, enum wmark_check which,
				  int cpu)
{
	/* zone_page_state: the zone counter, which lags by the CPUs' vmstat deltas */
	int64_t free_pages = zone_page_state_free(z);
	struct wmark_verdict v;

	if (!order) {
		/*
		 * Order 0, the common case: no flag-based reductions, just "enough free pages beyond
		 * what this request may not touch". Only if that fails is the full check worth it.
		 */
		int64_t reserved = unusable_free(s, z, 0, alloc_flags);
		int64_t usable = free_pages - (reserved < free_pages ? reserved : free_pages);

		v.free = usable;
		v.threshold = mark + z->lowmem_reserve[highest_zoneidx];
		v.ok = usable > v.threshold;
		if (v.ok) {
			emit_check(s, z, order, &v, which, cpu);
			return 1;
		}
	}
	v = wmark_ok(s, z, order, mark, highest_zoneidx, alloc_flags, free_pages);
	/*
	 * A boost raises every mark so kswapd wakes early; __GFP_HIGH order-0 requests checking MIN
	 * ignore it, because MIN is where the boost stops mattering.
	 */
	if (!v.ok && !order && (alloc_flags & ALLOC_MIN_RESERVE) && z->watermark_boost &&
	    (alloc_flags & ALLOC_WMARK_MASK) == ALLOC_WMARK_MIN) {
		v = wmark_ok(s, z, order, z->_watermark[WMARK_MIN], highest_zoneidx, alloc_flags,
			     free_pages);
		which = WMARK_CHECK_MIN_UNBOOSTED;
	}
	emit_check(s, z, order, &v, which, cpu);
	return v.ok;
}

/* Whether a node's kswapd would be given up on (kswapd_failures >= MAX_RECLAIM_RETRIES). */
int wmark_node_unreclaimable(const struct node *n)
{
	return n->kswapd_failures >= MAX_RECLAIM_RETRIES;
}
